// `.sheaf/watch-sync`: what the background sync of a watcher last did and what it waits for, so
// `sheaf status` (another process) can say it without asking the watcher anything. A small JSON
// object, replaced whole (AtomicFile) after every attempt and whenever what it waits for changes;
// it names the watcher's pid, so a file left by a watcher that is gone is shown as history only.
import Foundation
import SheafCore
import SheafFiles

/// What the background sync last did and what it waits for (`.sheaf/watch-sync`).
public struct BackgroundSyncState: Sendable, Equatable, Codable {
    /// How the last attempt ended.
    public enum Result: String, Sendable, Codable {
        /// Committed, pulled or pushed something.
        case synced
        /// Fetched the remote; nothing to do.
        case upToDate = "up-to-date"
        /// Committed local changes without the remote (it is unreachable, or there is none).
        case committed
        /// The remote could not be reached.
        case offline
        /// Failed for another reason (`message` says which).
        case failed
    }

    /// The watcher process that writes this file.
    public var pid: Int32
    /// When the file was written (seconds since 1970).
    public var updated: Int64
    /// The last attempt: when it ended and how.
    public var lastAttempt: Int64?
    public var lastResult: Result?
    /// One line about the last attempt (what was pulled, or the error), never note contents.
    public var lastMessage: String?
    /// When the last attempt that reached the remote ended.
    public var lastSuccess: Int64?
    /// Since when the remote cannot be reached, nil when it can.
    public var offlineSince: Int64?
    /// When the next fetch of the remote is due.
    public var nextAttempt: Int64?
    /// Why no sync can start now (a git merge in progress, another command holding the lock).
    public var waiting: String?
    /// Files changed within the quiet period (being written): no sync until they settle.
    public var writing: [String]

    public init(pid: Int32, updated: Int64) {
        self.pid = pid
        self.updated = updated
        writing = []
    }

    /// `.sheaf/watch-sync`.
    public static func path(_ vault: Vault) -> String { vault.stateDirectory + "/watch-sync" }

    /// The vault's file, nil when there is none or it cannot be read.
    public static func read(_ vault: Vault) -> BackgroundSyncState? {
        guard let data = FileManager.default.contents(atPath: path(vault)) else { return nil }
        return try? JSONDecoder().decode(BackgroundSyncState.self, from: data)
    }

    /// Replaces the vault's file with this state.
    public func write(_ vault: Vault) throws(SheafError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch {
            throw SheafError("cannot write the background sync's state", path: Self.path(vault), cause: "\(error)")
        }
        try AtomicFile.write(Array(data) + [10], to: Self.path(vault))
    }
}
