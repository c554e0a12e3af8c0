// libgit2's CA list is process-wide: GIT_OPT_SET_SSL_CERT_LOCATIONS frees the certificates mbedTLS
// holds and parses the new ones, with no lock. Two transfers starting at once in one process (the
// background sync of `sheaf watch` beside another, the in-process tests) each set it, and one
// freed the chain the other was parsing or using: a crash in libmbedx509. So the locations are
// set under one lock, and only when they differ from the ones already in force.
import CGit2
import Foundation

enum TrustedAuthorities {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var inForce: (file: String?, folder: String?)?

    /// Makes libgit2 trust the CA `file` and/or `folder`, unless it already does.
    static func use(file: String?, folder: String?) throws(GitError) {
        lock.lock()
        defer { lock.unlock() }
        if let inForce, inForce.file == file, inForce.folder == folder { return }
        Library.ensure()
        _ = try check(sheaf_git_set_ssl_cert_locations(file, folder), "git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS)")
        inForce = (file, folder)
    }
}
