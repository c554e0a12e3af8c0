// `sheaf serve`'s server (Hummingbird, NIO, TLS) is linked into its own executable, `sheaf-serve`,
// and not into `sheaf`: mapped into every process, that code and its ~2,000 protocol conformance
// records slowed the start of every other command (BENCHMARKS.md, "Process start"). The command,
// its options and its help stay here, so both executables parse and answer alike; `sheaf-serve`'s
// main hands the server in through `Sheaf.server`, and `sheaf` without it becomes `sheaf-serve`.
import SheafCore
import SheafKit

/// What `sheaf serve` asked for, parsed and validated, and how to open its vault and speak.
public struct ServeLaunch {
    public let port: Int
    public let listen: String
    public let insecureListen: Bool
    /// `--tls-cert` and `--tls-key`: both or neither.
    public let tlsCertificate: String?
    public let tlsKey: String?
    public let readOnly: Bool
    /// False with `--no-sync`.
    public let sync: Bool
    /// Opens the vault of `--vault` (or the one found) with the output flags applied; the server
    /// shows its events through `events`.
    public let open: () throws(SheafError) -> VaultSession
    /// Prints the address to open (with its token) on stdout.
    public let announce: @Sendable (String) -> Void
    /// Shows the in-process watcher's events on stderr, as `sheaf watch` does.
    public let events: @Sendable (VaultEvent) -> Void
}

extension Sheaf {
    /// The server behind `sheaf serve`, set once by `sheaf-serve`'s main before the command line
    /// is parsed; nil in `sheaf`, whose `serve` becomes `sheaf-serve` (same pid and streams).
    nonisolated(unsafe) public static var server: ((ServeLaunch) throws -> Void)?

    /// The executable that links the server.
    static let serverExecutable = "sheaf-serve"
}
