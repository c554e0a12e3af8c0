// What the watcher hands its consumer once changes have settled: the vault paths they touched,
// or "rescan needed" when the events cannot be trusted to name them all, and the cookies whose
// readers wait for this batch to be applied.
import SheafCore

/// Changes that settled (a quiet period passed, or the batch grew old, or a reader asked).
public struct WatchBatch: Sendable {
    /// 1, 2, 3, ... per watcher: the generation the consumer has applied through.
    public let sequence: Int
    /// The paths added, changed, removed and renamed, under the vault's ignore rules, as the
    /// events suggest, and those to `recheck` (paths the fold lost, folders whole): applied
    /// against the disk as it is then, which decides. When `rescanNeeded` is set it may be
    /// incomplete and must not be applied alone.
    public let changes: VaultChangeSet
    /// The events did not name every change (queue overflow, a watch limit, an unreadable event,
    /// ignore rules edited): run one incremental scan instead of applying `changes`.
    public let rescanNeeded: Bool
    /// Why a rescan is needed, for people (one line each).
    public let reasons: [String]
    /// Readers' cookies seen after every event of this batch: acknowledge them
    /// (`WatchCookies.acknowledge`) once the batch is applied.
    public let cookies: [String]
    /// Names skipped (not UTF-8), for a warning.
    public let warnings: [String]
    /// Rules of what is followed changed (a `.gitignore`, `.git/info/exclude`,
    /// `.obsidian/app.json`): build the filter anew and hand it to `VaultWatcher.replaceFilter`
    /// before the rescan. Implies `rescanNeeded`.
    public var rulesChanged = false

    /// Whether the consumer has nothing to do but acknowledge cookies.
    public var isEmpty: Bool { changes.isEmpty && !rescanNeeded }
}
