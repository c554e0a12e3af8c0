// https credentials: git's own credential helpers through `git credential fill` (never prompting
// on the terminal), else SHEAF_HTTP_USER and SHEAF_HTTP_TOKEN. Sheaf itself stores no secret:
// a password given in a URL to `remote add` or `clone` is handed to `git credential approve`,
// which gives it to the helper the user configured (and to nothing when none is).
import CGit2
import Foundation
import SheafProcess

public enum CredentialHelper {
    /// Asks `git credential fill` for the URL's credentials; nil when git is missing or no
    /// helper knows them.
    static func fill(url: String, user: String?) -> HTTPCredential? {
        guard let request = request(url: url, user: user) else { return nil }
        guard let output = Subprocess.run(["git", "credential", "fill"], input: request + "\n", environment: quietEnvironment()),
              output.status == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in output.stdout.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard let name = fields["username"], let secret = fields["password"] else { return nil }
        return HTTPCredential(user: name, password: secret)
    }

    /// Whether git has a credential helper for the URL (`credential.helper`, or one set for a
    /// URL that matches), as seen from `directory` (so the repository's own config counts).
    public static func helperConfigured(for url: String, in directory: String) -> Bool {
        guard let output = Subprocess.run(["git", "-C", directory, "config", "--get-urlmatch", "credential.helper", url],
                                          environment: quietEnvironment()) else { return false }
        return output.status == 0 && !output.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Gives the credential to git's configured helpers (`git credential approve`).
    /// Returns false when git could not be run.
    @discardableResult
    public static func approve(url: String, credential: HTTPCredential, in directory: String) -> Bool {
        guard !hasLineBreakOrNUL(credential.password),
              var request = request(url: url, user: credential.user) else { return false }
        request += "password=\(credential.password)\n\n"
        guard let output = Subprocess.run(["git", "-C", directory, "credential", "approve"], input: request,
                                          environment: quietEnvironment()) else { return false }
        return output.status == 0
    }

    static func environment() -> HTTPCredential? {
        let env = ProcessInfo.processInfo.environment
        guard let token = env["SHEAF_HTTP_TOKEN"], !token.isEmpty else { return nil }
        return HTTPCredential(user: env["SHEAF_HTTP_USER"] ?? "sheaf", password: token)
    }

    /// The `protocol`, `host` and `path` (and `username`) lines git's credential protocol reads,
    /// from the host libgit2 connects to (`RemoteURL.parts`, by bytes): nil for a URL that
    /// could be read as naming another host, so no helper is asked for that host's password.
    static func request(url: String, user: String?) -> String? {
        guard let parts = RemoteURL.parts(url), let scheme = parts.scheme else { return nil }
        let encodedPath = parts.rest.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let path = String(decoding: encodedPath.drop { $0 == UInt8(ascii: "/") }, as: UTF8.self)
        let decodedPath = path.removingPercentEncoding ?? path
        // A line break in a value would let a URL smuggle extra fields into the request.
        let fields = [scheme, parts.host, decodedPath, user ?? ""]
        guard !fields.contains(where: hasLineBreakOrNUL) else { return nil }
        var request = "protocol=\(scheme.lowercased())\nhost=\(parts.host)\(parts.port.map { ":\($0)" } ?? "")\n"
        if !decodedPath.isEmpty { request += "path=\(decodedPath)\n" }
        if let user { request += "username=\(user)\n" }
        return request
    }

    /// By bytes: `"\r\n"` is one Character, which `contains("\n")` does not find.
    private static func hasLineBreakOrNUL(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 }
    }

    private static func quietEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = "/bin/false"
        environment["SSH_ASKPASS"] = "/bin/false"
        return environment
    }
}

/// ssh-agent: whether `SSH_AUTH_SOCK` names a socket an agent listens on.
enum SSHAgent {
    static func answers(_ path: String?) -> Bool {
        guard let path, !path.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}

/// The helper programs SheafGit asks (git's credential commands, ssh-keygen), found on PATH:
/// their exit status and standard output, standard error discarded; nil when none could start.
enum Subprocess {
    static func run(_ arguments: [String], input: String = "", environment: [String: String]? = nil)
        -> (status: Int32, stdout: String)? {
        guard let outcome = try? ChildProcess.run(["/usr/bin/env"] + arguments, environment: environment,
                                                  input: Array(input.utf8), output: .capture) else { return nil }
        return (outcome.status, String(decoding: outcome.output, as: UTF8.self))
    }
}

/// `~/.ssh/known_hosts`: whether a host is listed, and recording a new host's key.
enum KnownHosts {
    /// `host`, or `[host]:port` for a port other than 22, as OpenSSH writes it.
    static func label(host: String, port: Int?) -> String {
        port.map { "[\(host)]:\($0)" } ?? host
    }

    /// Whether the file lists any key for the host (plain or hashed entries).
    static func lists(_ label: String, in file: String) -> Bool {
        guard FileManager.default.fileExists(atPath: file) else { return false }
        if let result = Subprocess.run(["ssh-keygen", "-F", label, "-f", file]) {
            return result.status == 0 && !result.stdout.isEmpty
        }
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").contains { line in
            guard let hosts = line.split(separator: " ").first else { return false }
            return hosts.split(separator: ",").contains { $0 == label }
        }
    }

    /// OpenSSH's name for a raw host key type.
    static func typeName(_ type: git_cert_ssh_raw_type_t) -> String? {
        switch type {
        case GIT_CERT_SSH_RAW_TYPE_RSA: return "ssh-rsa"
        case GIT_CERT_SSH_RAW_TYPE_DSS: return "ssh-dss"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_256: return "ecdsa-sha2-nistp256"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_384: return "ecdsa-sha2-nistp384"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_521: return "ecdsa-sha2-nistp521"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ED25519: return "ssh-ed25519"
        default: return nil
        }
    }

    /// Appends `label type base64` to the file (creating `~/.ssh` with mode 700 if needed).
    static func append(label: String, type: String, key: Data, to file: String) -> Bool {
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let line = "\(label) \(type) \(key.base64EncodedString())\n"
        guard let handle = FileHandle(forWritingAtPath: file) ?? {
            _ = FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o644])
            return FileHandle(forWritingAtPath: file)
        }() else { return false }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        return true
    }
}
