// libgit2's CA list is process-wide: GIT_OPT_SET_SSL_CERT_LOCATIONS frees the certificates mbedTLS
// holds and parses the new ones, with no lock. Two transfers starting at once in one process (the
// background sync of `sheaf watch` beside another, the in-process tests) each set it, and one
// freed the chain the other was parsing or using: a crash in libmbedx509. So the locations are
// set under one lock, and only when they differ from the ones already in force. Setting them
// replaces libgit2's own (Debian's build loads the system bundle at init), so a transfer with
// none configured after one that set some goes back to the system's bundle.
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

    /// Where distributions keep the system's CA bundle (Debian and Ubuntu first: the one Debian's
    /// libgit2 loads at init).
    static let systemBundles = [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem",
    ]

    /// Puts the system's bundle back in force after `use` set others; nothing to do when none were.
    static func useSystemDefault() throws(GitError) {
        lock.lock()
        defer { lock.unlock() }
        guard inForce != nil, let bundle = systemBundles.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else { return }
        _ = try check(sheaf_git_set_ssl_cert_locations(bundle, nil), "git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS)")
        inForce = nil
    }

    /// The locations `use` set, nil while libgit2's own (or the system's) are in force.
    static var locationsInForce: (file: String?, folder: String?)? {
        lock.lock()
        defer { lock.unlock() }
        return inForce
    }
}
