// What a fetch or push needs from outside libgit2: credentials (ssh-agent or ~/.ssh keys for
// ssh; `git credential fill`, else SHEAF_HTTP_USER/SHEAF_HTTP_TOKEN for https), the host-key
// policy (known_hosts, with --accept-new-host recording an unknown host's key, and a changed key
// always refused), and progress. libgit2 calls C callbacks; they reach this state through the
// payload pointer, taken unretained because libgit2 may call them many times.
import CGit2
import Foundation

/// Progress of a transfer: objects done of total, and bytes moved.
public struct TransferProgress: Sendable {
    public let done: Int
    public let total: Int
    public let bytes: Int
}

/// Settings for one fetch, push or clone.
public struct TransferOptions: Sendable {
    /// The home folder whose `.ssh/` holds keys and known_hosts.
    public var home: String
    /// Record the host key of an ssh host that known_hosts does not list yet.
    public var acceptNewHost: Bool
    public var progress: (@Sendable (TransferProgress) -> Void)?

    public init(home: String = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory(), acceptNewHost: Bool = false,
                progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.home = home
        self.acceptNewHost = acceptNewHost
        self.progress = progress
    }
}

/// Why a transfer failed, in the terms a user acts on.
public enum TransferFailure: Sendable, Equatable {
    case unreachable, authentication, unknownHost(String), changedHostKey(String), notFound, rejected, other
}

/// The state the C callbacks of one transfer share.
final class TransferSession {
    let options: TransferOptions
    let url: String
    var sshAttempts = 0
    var httpAttempts = 0
    var usernameAttempts = 0
    var failure: TransferFailure?
    var rejectedReference: String?

    init(options: TransferOptions, url: String) {
        self.options = options
        self.url = url
    }

    /// The callbacks of `git_remote_callbacks`, wired to this session.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, usernameFromURL, allowed, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.credential(out, url: url.map { String(cString: $0) } ?? "",
                                      user: usernameFromURL.map { String(cString: $0) }, allowed: allowed)
        }
        callbacks.certificate_check = { cert, valid, host, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            return session.checkCertificate(cert!, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
        }
        callbacks.transfer_progress = { stats, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            if let stats = stats?.pointee {
                session.options.progress?(TransferProgress(done: Int(stats.received_objects), total: Int(stats.total_objects),
                                                           bytes: Int(stats.received_bytes)))
            }
            return 0
        }
        callbacks.push_transfer_progress = { current, total, bytes, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            session.options.progress?(TransferProgress(done: Int(current), total: Int(total), bytes: bytes))
            return 0
        }
        callbacks.push_update_reference = { refname, status, payload in
            let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
            if status != nil { session.rejectedReference = refname.map { String(cString: $0) } ?? "" }
            return 0
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
            let agent = ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"] != nil
            let keys = ["id_ed25519", "id_ecdsa", "id_rsa"].map { options.home + "/.ssh/" + $0 }
                .filter { FileManager.default.fileExists(atPath: $0) }
            let attempt = sshAttempts
            sshAttempts += 1
            if agent && attempt == 0 { return git_credential_ssh_key_from_agent(out, name) }
            let index = attempt - (agent ? 1 : 0)
            guard index < keys.count else { return fail(.authentication) }
            let key = keys[index]
            let publicKey = FileManager.default.fileExists(atPath: key + ".pub") ? key + ".pub" : nil
            return git_credential_ssh_key_new(out, name, publicKey, key, nil)
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            httpAttempts += 1
            let found: (String, String)?
            switch httpAttempts {
            case 1: found = CredentialHelper.fill(url: url, user: user) ?? CredentialHelper.environment()
            case 2: found = CredentialHelper.environment()
            default: found = nil
            }
            guard let (name, secret) = found else { return fail(.authentication) }
            return git_credential_userpass_plaintext_new(out, name, secret)
        }
        return fail(.authentication)
    }

    private func fail(_ failure: TransferFailure) -> Int32 {
        self.failure = failure
        return GIT_EUSER.rawValue
    }

    // MARK: Host keys

    private func checkCertificate(_ cert: UnsafeMutablePointer<git_cert>, valid: Bool, host: String) -> Int32 {
        if valid { return 0 }
        guard cert.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 else {
            return fail(.other)  // an https certificate the system does not trust
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
