// What `sheaf serve` is asked to do, and the rule for where it may listen: the notes are private,
// so it listens on the loopback interface unless told otherwise, and an address other machines
// can reach needs TLS (`--tls-cert` and `--tls-key`) or `--insecure-listen`, which says that the
// token cookie and the notes cross that network unencrypted.
import SheafCore

public struct ServeOptions: Sendable {
    /// The address to listen on; 127.0.0.1 unless `--listen` names another.
    public var address = "127.0.0.1"
    /// 0: the system picks a free port (printed in the URL).
    public var port = 8421
    /// Serve no route that writes.
    public var readOnly = false
    /// Listen on a non-loopback address without TLS.
    public var insecureListen = false
    /// Serve https with this certificate and key (`--tls-cert`, `--tls-key`).
    public var tls: ServeTLS?
    /// Run the background sync with the in-process watcher (as `sheaf watch` does).
    public var sync = true

    public init() {}

    /// Whether `address` is on the loopback interface (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ address: String) -> Bool {
        let a = address.lowercased()
        if a == "localhost" || a == "::1" || a == "[::1]" { return true }
        let parts = a.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `https` with TLS, else `http`.
    public var scheme: String { tls == nil ? "http" : "https" }

    /// Why the server must not start with these options, nil when it may.
    public func refusal() -> SheafError? {
        if Self.isLoopback(address) || insecureListen || tls != nil { return nil }
        return SheafError("will not listen beyond this machine without TLS", path: address,
                          cause: "without --tls-cert and --tls-key, sheaf serve speaks plain HTTP: the access token and the notes would cross the network unencrypted",
                          hint: "give --tls-cert FILE --tls-key FILE (PEM), or pass --insecure-listen on a network you trust")
    }
}
