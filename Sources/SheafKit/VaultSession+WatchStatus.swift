// What `sheaf status` says about `sheaf watch`: whether a watcher runs (its record in
// `.sheaf/watcher`, told apart from a pid reused after a kill -9 or a reboot by its start time
// and boot id), since when, and what its background sync last did and waits for
// (`.sheaf/watch-sync`). Read from files only: a stopped or stuck watcher is never asked anything.
import SheafCore
import SheafWatch

/// Whether a watcher keeps the vault fresh, and its background sync's last state.
public struct WatchStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// No watcher has run in this vault (or its record is unreadable).
        case none
        /// The recorded watcher process runs.
        case running
        /// The recorded process is alive but stopped (SIGSTOP, ^Z, a debugger): it does nothing.
        case stopped
        /// The recorded process is gone (ended, killed, or the pid now belongs to another one).
        case gone
    }

    public let state: State
    /// The watcher's pid and when it started (seconds since 1970); nil with `.none`.
    public let pid: Int32?
    public let since: Int64?
    /// The background sync's state as last written, by this watcher or an earlier one.
    public let sync: BackgroundSyncState?

    /// Whether `sync` was written by the watcher that is still alive (so what it waits for and
    /// its next attempt are current, not history).
    public var syncIsCurrent: Bool {
        guard let sync, let pid, state == .running || state == .stopped else { return false }
        return sync.pid == pid
    }
}

extension VaultSession {
    /// Whether a watcher runs and what its background sync last did (no git, no network).
    public func watchStatus() -> WatchStatus {
        let sync = BackgroundSyncState.read(vault)
        guard let record = WatcherRecord.read(vault) else {
            return WatchStatus(state: .none, pid: nil, since: nil, sync: sync)
        }
        let state: WatchStatus.State
        switch record.state {
        case .running: state = .running
        case .stopped: state = .stopped
        case .gone: state = .gone
        }
        return WatchStatus(state: state, pid: record.pid, since: record.since, sync: sync)
    }
}
