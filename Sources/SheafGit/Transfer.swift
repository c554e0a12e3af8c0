// What a fetch or push needs from outside libgit2: credentials (ssh-agent when its socket
// answers, then ~/.ssh keys for ssh; for https the credential given for this command, then
// `git credential fill`, then SHEAF_HTTP_USER/SHEAF_HTTP_TOKEN), the host-key policy
// (known_hosts, with --accept-new-host recording an unknown host's key, and a changed key always
// refused), the CA for https (`TLSTrust`), progress, and the watchdog that cuts a transfer when
// nothing moves for `timeout` seconds. libgit2 calls C callbacks; they reach this state through
// the payload pointer, taken unretained because libgit2 may call them many times.
import CGit2
import Foundation

/// Progress of a transfer: objects done of total, and bytes moved.
public struct TransferProgress: Sendable {
    public let done: Int
    public let total: Int
    public let bytes: Int
}

/// A user name and password (or token) for an https remote.
public struct HTTPCredential: Sendable, Equatable {
    public let user: String
    public let password: String
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// Settings for one fetch, push or clone.
public struct TransferOptions: Sendable {
    /// The home folder whose `.ssh/` holds keys and known_hosts.
    public var home: String
    /// Record the host key of an ssh host that known_hosts does not list yet.
    public var acceptNewHost: Bool
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Seconds without progress after which the transfer is given up (0: never).
    public var timeout: Double
    /// An https credential to try first (from the URL given to `clone`), and the user name to
    /// ask git's credential helpers about.
    public var credential: HTTPCredential?
    public var user: String?

    public init(home: String = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory(), acceptNewHost: Bool = false,
                progress: (@Sendable (TransferProgress) -> Void)? = nil, timeout: Double = TransferOptions.defaultTimeout) {
        self.home = home
        self.acceptNewHost = acceptNewHost
        self.progress = progress
        self.timeout = timeout
    }

    /// `SHEAF_TRANSFER_TIMEOUT` seconds when set to a number (0 turns the limit off), else 30.
    public static var defaultTimeout: Double {
        if let text = ProcessInfo.processInfo.environment["SHEAF_TRANSFER_TIMEOUT"], let value = Double(text),
           value >= 0, value.isFinite {
            return value
        }
        return 30
    }
}

/// Why a transfer failed, in the terms a user acts on.
public enum TransferFailure: Sendable, Equatable {
    case unreachable, authentication, unknownHost(String), changedHostKey(String), notFound, rejected, other
    /// The https server's certificate is not signed by a trusted authority (or names another host).
    case untrustedCertificate(String)
}

/// The state the C callbacks of one transfer share.
final class TransferSession {
    let options: TransferOptions
    let url: String
    var sshAttempts = 0
    var httpAttempts = 0
    var usernameAttempts = 0
    var failure: TransferFailure?
    var failureDetail: String?
    var rejectedReference: String?
    /// The https credentials handed out so far (each is tried once).
    private var httpTried: [HTTPCredential] = []
    let watchdog: TransferWatchdog?

    init(options: TransferOptions, url: String) {
        self.options = options
        self.url = url
        watchdog = options.timeout > 0 ? TransferWatchdog(limit: options.timeout) : nil
    }

    /// Runs a transfer under the watchdog.
    func watching<T>(_ body: () throws(GitError) -> T) throws(GitError) -> T {
        watchdog?.start()
        defer { watchdog?.stop() }
        return try body()
    }

    /// Marks a callback's run as progress for the watchdog.
    @inline(__always)
    func callback<T>(_ body: () -> T) -> T {
        watchdog?.enterCallback()
        defer { watchdog?.leaveCallback() }
        return body()
    }

    /// The callbacks of `git_remote_callbacks`, wired to this session.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, usernameFromURL, allowed, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback {
                session.credential(out, url: url.map { String(cString: $0) } ?? "",
                                   user: usernameFromURL.map { String(cString: $0) }, allowed: allowed)
            }
        }
        callbacks.certificate_check = { cert, valid, host, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback {
                session.checkCertificate(cert!, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
            }
        }
        callbacks.transfer_progress = { stats, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback {
                if let stats = stats?.pointee {
                    session.options.progress?(TransferProgress(done: Int(stats.received_objects), total: Int(stats.total_objects),
                                                               bytes: Int(stats.received_bytes)))
                }
                return 0
            }
        }
        callbacks.sideband_progress = { _, _, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback { 0 }
        }
        callbacks.pack_progress = { _, _, _, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback { 0 }
        }
        callbacks.push_transfer_progress = { current, total, bytes, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback {
                session.options.progress?(TransferProgress(done: Int(current), total: Int(total), bytes: bytes))
                return 0
            }
        }
        callbacks.push_update_reference = { refname, status, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.callback {
                if status != nil { session.rejectedReference = refname.map { String(cString: $0) } ?? "" }
                return 0
            }
        }
    }

    // MARK: Credentials

    private func credential(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>?, url: String,
                            user: String?, allowed: UInt32) -> Int32 {
        if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 {
            usernameAttempts += 1
            guard usernameAttempts <= 1 else { return fail(.authentication) }
            return git_credential_username_new(out, user ?? NSUserName())
        }
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            let name = user ?? NSUserName()
            // A stale SSH_AUTH_SOCK (the agent's socket gone) would fail the whole connection
            // inside libgit2, with no second try: the agent is used only when it answers.
            let agent = SSHAgent.answers(ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"])
            let keys = ["id_ed25519", "id_ecdsa", "id_rsa"].map { options.home + "/.ssh/" + $0 }
                .filter { FileManager.default.fileExists(atPath: $0) }
            let attempt = sshAttempts
            sshAttempts += 1
            if agent && attempt == 0 { return git_credential_ssh_key_from_agent(out, name) }
            let index = attempt - (agent ? 1 : 0)
            guard index < keys.count else {
                return fail(.authentication, keys.isEmpty && !agent
                    ? "no ssh key: no ssh-agent answers and ~/.ssh holds no id_ed25519, id_ecdsa or id_rsa"
                    : "the server accepted none of the keys offered")
            }
            let key = keys[index]
            let publicKey = FileManager.default.fileExists(atPath: key + ".pub") ? key + ".pub" : nil
            return git_credential_ssh_key_new(out, name, publicKey, key, nil)
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            httpAttempts += 1
            // No password, not even SHEAF_HTTP_TOKEN, for a URL whose host could be read two ways.
            guard RemoteURL.parts(url) != nil else {
                return fail(.authentication, "the remote's URL can be read as naming more than one host: no password is sent")
            }
            // Each source once, in order; a credential already refused is not sent again. A
            // password given for this command is the only one tried, as git does with a URL's.
            let sources: [() -> HTTPCredential?] = options.credential.map { given in [{ given }] } ?? [
                { CredentialHelper.fill(url: url, user: user ?? self.options.user) },
                { CredentialHelper.environment() },
            ]
            for source in sources {
                guard let found = source(), !httpTried.contains(found) else { continue }
                httpTried.append(found)
                return git_credential_userpass_plaintext_new(out, found.user, found.password)
            }
            return fail(.authentication, httpTried.isEmpty
                ? "no credentials: none from git's credential helpers, and SHEAF_HTTP_TOKEN is not set"
                : "the server refused the user name and password")
        }
        return fail(.authentication)
    }

    /// Records why a callback stopped the transfer (the message replaces libgit2's, which is
    /// empty for a callback's error) and returns GIT_EUSER.
    private func fail(_ failure: TransferFailure, _ detail: String? = nil) -> Int32 {
        self.failure = failure
        failureDetail = detail
        return GIT_EUSER.rawValue
    }

    // MARK: Host keys

    private func checkCertificate(_ cert: UnsafeMutablePointer<git_cert>, valid: Bool, host: String) -> Int32 {
        if valid { return 0 }
        guard cert.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 else {
            return fail(.untrustedCertificate(host))
        }
        let knownHosts = options.home + "/.ssh/known_hosts"
        let label = KnownHosts.label(host: host, port: Self.port(of: url))
        if KnownHosts.lists(label, in: knownHosts) { return fail(.changedHostKey(label)) }
        guard options.acceptNewHost else { return fail(.unknownHost(label)) }
        let key = cert.withMemoryRebound(to: git_cert_hostkey.self, capacity: 1) { $0.pointee }
        guard key.type.rawValue & GIT_CERT_SSH_RAW.rawValue != 0, let raw = key.hostkey,
              let type = KnownHosts.typeName(key.raw_type) else { return fail(.unknownHost(label)) }
        let data = Data(bytes: raw, count: key.hostkey_len)
        guard KnownHosts.append(label: label, type: type, key: data, to: knownHosts) else { return fail(.other) }
        return 0
    }

    /// The port of an ssh URL when it is not 22.
    static func port(of url: String) -> Int? {
        guard url.hasPrefix("ssh://"), let components = URLComponents(string: url) else { return nil }
        return components.port.flatMap { $0 == 22 ? nil : $0 }
    }
}
