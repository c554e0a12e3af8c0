// Everything a session has to tell while it works, as one stream: a command waiting for the
// lock, answering from the index as it is, how far an index update has come, the warnings about
// paths it went on without, and, while `sheaf watch` runs, the watcher's and the background
// sync's reports. A caller subscribes once (`VaultSession.subscribe`); the CLI prints each event
// as a line (or, for `watch --json`, a JSON object), a server would forward it.
// A problem that repeats every cycle is reported once, when it starts, and once when it ends.
import SheafCore

/// One thing a session did or ran into.
public enum VaultEvent: Sendable, Equatable {
    // MARK: any command

    /// The command waits for another one that holds `.sheaf/lock`.
    case lockWait
    /// A read command answers from the index as it is: another command holds `.sheaf/lock`.
    case indexBusy
    /// A read command answers from the index as it is because it cannot write it (the error says why).
    case indexStale(SheafError)
    /// How far an index update has come, for a command that asked for no progress of its own (a
    /// read command rebuilding a missing index shows it is alive).
    case indexProgress(done: Int, total: Int)
    /// A read command skipped its walk: a running watcher vouched for the index.
    case watcherVouched

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
    /// A path-level warning (a note that cannot be read, a name that is not UTF-8, a file a
    /// commit left out).
    case warning(VaultWarning)
}
