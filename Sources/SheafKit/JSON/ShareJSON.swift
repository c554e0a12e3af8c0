// The JSON documents about shares: `sheaf shares --json`, and the `shares` of a sync's report
// (docs/json.md).
import Foundation
import SheafCore
import SheafFiles

/// One share in `sheaf shares --json`.
public struct ShareStatusJSON: Codable, Sendable {
    public var path: String
    /// folder or note.
    public var kind: String
    /// The remote, without credentials.
    public var remote: String
    /// in-step, ahead, behind, diverged, not-joined, needs-approval, offline, read-only, conflicts or failing.
    public var state: String
    public var ahead: Int
    public var behind: Int
    public var conflicts: Int
    /// ISO 8601, absent before the first sync.
    public var lastSync: String?
    public var lastError: String?

    public init(_ status: ShareStatus) {
        path = status.path; kind = status.isNote ? "note" : "folder"; remote = status.remote
        state = status.state.rawValue; ahead = status.ahead; behind = status.behind; conflicts = status.conflicts
        lastSync = status.lastSync.map { ISO8601DateFormatter().string(from: $0) }
        lastError = status.lastError
    }
}

/// `sheaf shares --json`.
public struct ShareListJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var shares: [ShareStatusJSON]
    public init(_ statuses: [ShareStatus]) { shares = statuses.map(ShareStatusJSON.init) }
}

/// What a sync did to one share.
public struct ShareRunJSON: Codable, Sendable {
    public var path: String
    public var committed: CommitRefJSON?
    public var pull: PullJSON?
    public var push: SyncJSON.PushJSON?
    /// The share's remote refused the push: the local commits stay here.
    public var readOnly: Bool
    /// This sync joined the share.
    public var joined: Bool
    /// Why this share's sync stopped (the vault and the other shares went on).
    public var error: String?

    public init(_ run: ShareRun) {
        path = run.path
        committed = run.committed.map(CommitRefJSON.init)
        pull = run.pull.map { PullJSON($0, arrivedConflicts: []) }
        push = run.push.map { SyncJSON.PushJSON(pushed: $0.pushed, head: $0.head) }
        readOnly = run.readOnly
        joined = run.joined
        error = run.error.map { VaultSession.summary($0) }
    }
}
