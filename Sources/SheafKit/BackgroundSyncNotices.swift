// What the background sync has told the user so far, so that a state that repeats every cycle
// (offline, the same failure, a conflict already reported, a merge still in progress) is said
// once when it starts and once when it ends, never on every attempt. Pure bookkeeping: the
// sync loop feeds it outcomes and reports the events it hands back.
import SheafCore

struct BackgroundSyncNotices {
    let backoff: SyncBackoff
    /// Failed attempts in a row (offline or not); the next wait follows from it.
    private(set) var failures = 0
    /// The remote that cannot be reached and since when (seconds since 1970); nil when online.
    private(set) var offline: (remote: String, since: Int64)?
    private var lastProblem: SheafError?
    // By bytes: the conflict files (and refused paths, shares) of NFC/NFD twins are two files.
    private var reportedConflicts: Set<PathKey> = []
    private var reportedRefusals: Set<PathKey> = []
    /// Each share's failure as last reported, by its path.
    private var shareProblems: [PathKey: SheafError] = [:]
    /// The reason the sync waits, as last reported.
    private(set) var waiting: String?

    init(backoff: SyncBackoff) { self.backoff = backoff }

    var isOffline: Bool { offline != nil }

    /// A failed attempt: the event to report (nil when it was reported already) and the seconds
    /// to wait before the next attempt.
    mutating func failed(_ error: SheafError, remote: String, now: Int64) -> (event: VaultEvent?, retryIn: Double) {
        failures += 1
        let delay = backoff.delay(afterFailures: failures)
        if error.kind == .offline {
            guard offline == nil else { return (nil, delay) }
            offline = (remote, now)
            return (.offline(remote: remote, cause: error.cause ?? error.what, retryIn: delay), delay)
        }
        guard lastProblem != error else { return (nil, delay) }
        lastProblem = error
        return (.problem(error), delay)
    }

    /// An attempt that reached the remote: `online` when it was unreachable before.
    mutating func succeeded() -> VaultEvent? {
        failures = 0
        lastProblem = nil
        guard let (remote, _) = offline else { return nil }
        offline = nil
        return .online(remote: remote)
    }

    /// The conflicts a pull wrote, and those it brought from another device, not reported before
    /// (one conflict file, one report).
    mutating func conflicts(_ outcomes: [VaultChange], arrived: [ConflictEntry] = []) -> VaultEvent? {
        var paths: [String] = []
        for outcome in outcomes where outcome.kind == .conflict {
            if reportedConflicts.insert(PathKey(outcome.conflictFile ?? outcome.path)).inserted { paths.append(outcome.path) }
        }
        for entry in arrived where reportedConflicts.insert(PathKey(entry.path)).inserted
            && !paths.contains(where: { PathBytes.same($0, entry.original) }) {
            paths.append(entry.original)
        }
        return paths.isEmpty ? nil : .conflicts(paths: paths)
    }

    /// The remote entries a pull refused that were not reported before, as warnings.
    mutating func refusals(_ refused: [RefusedPath]) -> [VaultEvent] {
        refused.filter { reportedRefusals.insert(PathKey($0.path + "\u{0}" + $0.reason)).inserted }
            .map { .warning(VaultWarning(path: $0.path, message: "not taken from the remote: " + $0.reason)) }
    }

    /// The shares a sync could not sync (the vault's sync went on): each failure reported when it
    /// starts or changes, not again while it repeats; a share that syncs again is forgotten.
    mutating func shares(_ runs: [ShareRun]) -> [VaultEvent] {
        var events: [VaultEvent] = []
        for run in runs {
            guard let error = run.error else { shareProblems[PathKey(run.path)] = nil; continue }
            guard shareProblems[PathKey(run.path)] != error else { continue }
            shareProblems[PathKey(run.path)] = error
            events.append(.problem(SheafError("the share was not synced", path: run.path, cause: error.summary,
                                              hint: error.kind == .offline ? "its edits are kept here; retried with the vault" : error.hint,
                                              kind: error.kind)))
        }
        return events
    }

    /// The sync waits for `reason` (nil: it no longer waits): the event when the reason is new.
    mutating func wait(_ reason: String?) -> VaultEvent? {
        guard reason != waiting else { return nil }
        waiting = reason
        return reason.map { .syncWaiting(reason: $0) }
    }
}
