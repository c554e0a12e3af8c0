// Remotes: listing and editing them, fetching a branch into `refs/remotes/<remote>/`, and
// pushing a branch, with the callbacks of `Transfer.swift` and under its watchdog. A rejected
// push is reported as a `.rejected` failure so the caller can fetch, merge and try again. The
// certificate authorities for https come from GIT_SSL_CAINFO / GIT_SSL_CAPATH, else git's
// `http.sslCAInfo` / `http.sslCAPath`, as for git itself.
import CGit2
import Foundation

/// A configured remote.
public struct RemoteInfo: Sendable, Equatable {
    public let name: String
    public let url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

extension Repository {
    public func remotes() throws(GitError) -> [RemoteInfo] {
        var names = git_strarray()
        try check(git_remote_list(&names, handle), "git_remote_list")
        defer { git_strarray_dispose(&names) }
        var result: [RemoteInfo] = []
        for i in 0..<names.count {
            guard let raw = names.strings[i] else { continue }
            let name = String(cString: raw)
            if let url = try remoteURL(name) { result.append(RemoteInfo(name: name, url: url)) }
        }
        return result
    }

    /// The URL of a remote, nil when there is no such remote.
    public func remoteURL(_ name: String) throws(GitError) -> String? {
        var remote: OpaquePointer?
        let rc = git_remote_lookup(&remote, handle, name)
        if rc == GIT_ENOTFOUND.rawValue || rc == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(rc, "git_remote_lookup")
        defer { git_remote_free(remote) }
        return git_remote_url(remote).map { String(cString: $0) }
    }

    public func addRemote(name: String, url: String) throws(GitError) {
        var remote: OpaquePointer?
        try check(git_remote_create(&remote, handle, name, url), "git_remote_create")
        git_remote_free(remote)
    }

    public func removeRemote(name: String) throws(GitError) {
        try check(git_remote_delete(handle, name), "git_remote_delete")
    }

    /// Fetches `branch` of a remote into `refs/remotes/<remote>/<branch>`. Returns the remote
    /// branch's commit, nil when the remote does not have that branch (an empty remote).
    @discardableResult
    public func fetch(remote name: String, branch: String, options: TransferOptions) throws(GitError) -> String? {
        let tracking = "refs/remotes/\(name)/\(branch)"
        // A remote on this machine: git's fetch streams large blobs (Repository+LocalFetch.swift).
        if let url = try remoteURL(name), let path = Self.localRemotePath(url),
           fetchWithGit(path: path, branch: branch, tracking: tracking) {
            return try referenceTarget(tracking)
        }
        try withRemote(name, options: options) { (remote, session) throws(GitError) in
            var fetchOptions = git_fetch_options()
            try check(git_fetch_options_init(&fetchOptions, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
            session.install(into: &fetchOptions.callbacks)
            fetchOptions.prune = GIT_FETCH_NO_PRUNE
            fetchOptions.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
            // A missing remote branch is not an error for a fetch with an optional refspec.
            let rc = try Self.withStrings(["+refs/heads/\(branch):\(tracking)"]) { (specs) throws(GitError) in
                try session.watching { git_remote_fetch(remote, &specs, &fetchOptions, "sheaf: fetch") }
            }
            try session.check(rc, "git_remote_fetch")
        }
        return try referenceTarget(tracking)
    }

    /// Pushes the local `branch` to the same branch on the remote. A push the remote refuses
    /// (not a fast-forward) throws with the `.rejected` failure.
    public func push(remote name: String, branch: String, options: TransferOptions) throws(GitError) {
        try withRemote(name, options: options, pushing: true) { (remote, session) throws(GitError) in
            var pushOptions = git_push_options()
            try check(git_push_options_init(&pushOptions, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
            session.install(into: &pushOptions.callbacks)
            let rc = try Self.withStrings(["refs/heads/\(branch):refs/heads/\(branch)"]) { (specs) throws(GitError) in
                // Uploads without libgit2's update of the tracking refs (`git_remote_push` does
                // both): that write gives up at once on a lock another fetch holds, and failed a
                // push the remote had taken. The caller sets the tracking ref (setReference).
                try session.watching { git_remote_upload(remote, &specs, &pushOptions) }
            }
            git_remote_disconnect(remote)
            try session.check(rc, "git_remote_push")
            if session.rejectedReference != nil {
                var error = GitError(function: "git_remote_push", code: .nonFastForward,
                                     message: "the remote refused the update of \(branch)")
                error.transferFailure = .rejected
                throw error
            }
        }
    }

    /// Runs `body` with remote `name` looked up and a transfer session for the URL this
    /// direction uses: the push URL when `pushing` and the remote has one (`pushurl`, or
    /// `url.*.pushInsteadOf`, which libgit2 applies as it looks the remote up), else its URL.
    private func withRemote(_ name: String, options: TransferOptions, pushing: Bool = false,
                            _ body: (OpaquePointer, TransferSession) throws(GitError) -> Void) throws(GitError) {
        var remote: OpaquePointer?
        try check(git_remote_lookup(&remote, handle, name), "git_remote_lookup")
        defer { git_remote_free(remote) }
        let fetchURL = git_remote_url(remote).map { String(cString: $0) } ?? ""
        let url = pushing ? git_remote_pushurl(remote).map { String(cString: $0) } ?? fetchURL : fetchURL
        if let path = Self.localRemotePath(url), !FileManager.default.fileExists(atPath: path) {
            // A remote folder that is not there (an unmounted drive, a moved folder): libgit2
            // would say "unsupported URL protocol". Like a network that does not answer, it is
            // unreachable: local commits wait.
            var error = GitError(function: "git_remote_lookup", code: .notFound, message: "no folder at \(path)")
            error.transferFailure = .unreachable
            throw error
        }
        // Only libgit2's http transport speaks TLS (an http URL may redirect to https): a CA file
        // named for git's https is not read for a path, file://, ssh or git:// remote, as git reads
        // it only for https, and one that cannot be read stops no transfer that does not use it.
        if RemoteURL.isHTTP(url) { try trustConfiguredAuthorities() }
        // The session's URL names the host key's port: the one this direction connects to.
        let session = TransferSession(options: options, url: url)
        try withExtendedLifetime(session) { () throws(GitError) in try body(remote!, session) }
    }

    /// Points libgit2 (mbedTLS here) at the CA file or folder git would use: GIT_SSL_CAINFO and
    /// GIT_SSL_CAPATH, else `http.sslCAInfo` and `http.sslCAPath`. Unset, the system's
    /// authorities are in force, also after another repository's transfer in this process set
    /// others (a long-running `sheaf watch`: a vault whose remote has a private CA, a share on a
    /// public host).
    func trustConfiguredAuthorities(environment: [String: String] = ProcessInfo.processInfo.environment) throws(GitError) {
        var file = environment["GIT_SSL_CAINFO"].flatMap { $0.isEmpty ? nil : $0 }
        var folder = environment["GIT_SSL_CAPATH"].flatMap { $0.isEmpty ? nil : $0 }
        if file == nil && folder == nil {
            var config: OpaquePointer?
            if git_repository_config_snapshot(&config, handle) == 0, let config {
                defer { git_config_free(config) }
                for (key, slot) in [("http.sslCAInfo", 0), ("http.sslCAPath", 1)] {
                    var buffer = git_buf()
                    if git_config_get_path(&buffer, config, key) == 0, let raw = buffer.ptr {
                        if slot == 0 { file = String(cString: raw) } else { folder = String(cString: raw) }
                    }
                    git_buf_dispose(&buffer)
                }
            }
        }
        guard file != nil || folder != nil else { return try TrustedAuthorities.useSystemDefault() }
        try TrustedAuthorities.use(file: file, folder: folder)
    }

    static func withStrings<T>(_ strings: [String], _ body: (inout git_strarray) throws(GitError) -> T) throws(GitError) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return try pointers.withUnsafeMutableBufferPointer { (buffer) throws(GitError) -> T in
            var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
            return try body(&array)
        }
    }
}

extension TransferSession {
    /// Like `check`, but a failure the callbacks recorded (a refused host key, no usable
    /// credential) is attached to the error.
    func check(_ rc: Int32, _ function: String) throws(GitError) {
        guard rc < 0 else { return }
        if let watchdog, watchdog.fired {
            // Whatever libgit2 says of a socket the watchdog shut is not the cause.
            var error = GitError(function: function, code: .other(rc),
                                 message: "the remote sent nothing for \(Self.seconds(watchdog.limit)); gave up (SHEAF_TRANSFER_TIMEOUT sets the limit)")
            error.transferFailure = .unreachable
            throw error
        }
        var error = GitError.last(function, rc)
        if let failureDetail {
            let code = error.code, errorClass = error.errorClass
            error = GitError(function: function, code: code, message: failureDetail)
            error.errorClass = errorClass
        }
        if let failure {
            error.transferFailure = failure
        } else if sshAttempts > 0 || usernameAttempts > 0, error.errorClass == Int32(GIT_ERROR_SSH.rawValue),
                  Self.isAuthenticationMessage(error.message) {
            // The connection was made and keys were offered: libssh2 refused a key or the agent.
            error.transferFailure = .authentication
        }
        throw error
    }

    /// libgit2's and libssh2's wording when authentication, not the network, failed.
    static func isAuthenticationMessage(_ message: String) -> Bool {
        let lower = message.lowercased()
        return ["authenticat", "public key", "private key", "publickey", "agent", "username"].contains { lower.contains($0) }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
