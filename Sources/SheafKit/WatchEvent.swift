// What `sheaf watch` reports as it runs: the watcher's side (indexing, rescans) and the
// background sync's side (syncs, offline and back, conflicts) in one vocabulary, so the CLI
// prints one line per event on stderr, or one JSON object per line with `--json`.
// A problem that repeats every cycle is reported once, when it starts, and once when it ends.
import SheafCore

/// One thing `sheaf watch` did or ran into.
public enum WatchEvent: Sendable, Equatable {
    // MARK: the watcher (freshness)

    /// Watching `folders` folders of the vault, as process `pid`.
    case started(pid: Int32, folders: Int)
    /// A batch of changes was applied to the index.
    case indexed(VaultChangeSet)
    /// The events could not name every change; one incremental scan ran instead.
    case rescanned(reasons: [String], changes: VaultChangeSet)
    /// Stopped cleanly (a signal, or the vault folder went away).
    case stopped(reason: String)

    // MARK: the background sync

    /// A sync ran: what it committed, pulled and pushed.
    case synced(committed: Bool, pulled: VaultChangeSet, pushed: Bool)
    /// Local changes were committed without syncing: the remote cannot be reached (the commit
    /// waits to be pushed) or the vault has none.
    case committedLocally(summary: String)
    /// The remote cannot be reached; the next try is in `retryIn` seconds. Reported once per outage.
    case offline(remote: String, cause: String, retryIn: Double)
    /// The remote answers again after an outage.
    case online(remote: String)
    /// A pull left conflict files beside these notes (each reported once).
    case conflicts(paths: [String])
    /// A sync was not started: a plain git merge or rebase is in progress, a file is being
    /// written, ... Reported once until the reason changes.
    case syncWaiting(reason: String)

    // MARK: both

    /// Something failed that the user should know about (the index could not be written, a
    /// sync failed for a reason other than the network); the watcher goes on.
    case problem(SheafError)
    /// A path-level warning (a note that cannot be read, a name that is not UTF-8).
    case warning(VaultWarning)
}
