// The settings of `sheaf watch`'s background sync and its retry schedule. The schedule is a value
// of its own so that the rule "5 s, 15 s, 60 s, then every 5 min, reset on success" is tested
// directly, and tests (and `--interval`) can run the same loop with short delays.

/// How long the background sync waits after failures in a row: the n-th failure waits
/// `delays[n-1]`, and every failure after the last one waits the last delay again.
public struct SyncBackoff: Sendable, Equatable {
    /// The waits in seconds, in order; never empty.
    public let delays: [Double]

    /// 5 s, 15 s, 60 s, then every 5 minutes.
    public static let standard = SyncBackoff(delays: [5, 15, 60, 300])

    /// A schedule of `delays` (seconds); an empty list means the standard one.
    public init(delays: [Double]) {
        self.delays = delays.isEmpty ? [5, 15, 60, 300] : delays.map { max(0, $0) }
    }

    /// The same schedule with every delay multiplied by `factor` (tests run it in fractions of a second).
    public func scaled(_ factor: Double) -> SyncBackoff {
        SyncBackoff(delays: delays.map { $0 * factor })
    }

    /// The wait after `failures` failures in a row (1 for the first); 0 when there was none.
    public func delay(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        return delays[min(failures, delays.count) - 1]
    }
}

/// How the background sync of a watched vault runs.
public struct BackgroundSyncOptions: Sendable {
    /// Seconds between fetches of the remote when nothing changes here (`--interval`, default 60).
    public var interval: Double
    /// Seconds without a local change before local changes are committed and synced: a file
    /// reported changed more recently is still being written, so nothing is pulled meanwhile.
    public var quietPeriod: Double
    /// The waits after failed attempts (the remote unreachable, or another failure).
    public var backoff: SyncBackoff
    /// Seconds between looks while the sync waits for something it cannot hurry: a git merge or
    /// rebase in progress, another sheaf command holding `.sheaf/lock`.
    public var recheck: Double
    /// The remote to sync with; nil for the vault's `remote` setting (else `origin`).
    public var remote: String?

    public init(interval: Double = 60, quietPeriod: Double = 3, backoff: SyncBackoff = .standard,
                recheck: Double = 2, remote: String? = nil) {
        self.interval = max(0.05, interval)
        self.quietPeriod = max(0, quietPeriod)
        self.backoff = backoff
        self.recheck = max(0.05, recheck)
        self.remote = remote
    }
}
