// The JSON documents about git and sync: `commit`, `pull`/`push`/`sync`, `pull --dry-run`,
// `status`, `conflicts` and `remote list` (docs/json.md). Sync's own records are copied into
// fields of their own here, so a change in SheafSync cannot change a documented shape.
import Foundation
import SheafCore

public struct CommitRefJSON: Codable, Sendable {
    public var id: String
    public var summary: String
    public init(_ commit: VaultCommit) { id = commit.id; summary = commit.summary }
}

/// `sheaf commit --json`: `commit` absent when there was nothing to commit.
public struct CommitJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var commit: CommitRefJSON?
    public init(_ commit: VaultCommit?) { self.commit = commit.map(CommitRefJSON.init) }
}

/// What a pull did (or would do) to one path.
public struct PathOutcomeJSON: Codable, Sendable {
    /// updated, merged, conflict, resurrected, renamed, added or deleted.
    public var kind: String
    public var path: String
    public var oldPath: String?
    public var conflictFile: String?
    public init(_ o: VaultChange) { kind = o.kind.pulledWord; path = o.path; oldPath = o.oldPath; conflictFile = o.conflictFile }
}

/// A path of the remote's commit a pull did not take, and why.
public struct RefusedPathJSON: Codable, Sendable {
    public var path: String
    public var reason: String
    public init(_ r: RefusedPath) { path = r.path; reason = r.reason }
}

/// A conflict file and the note it belongs to (`conflicts`, `status`, a pull's `arrivedConflicts`).
public struct ConflictEntryJSON: Codable, Sendable {
    public var path: String
    public var original: String
    public init(_ entry: ConflictEntry) { path = entry.path; original = entry.original }
}

/// The `pull` object of a pull's report and of its preview.
public struct PullJSON: Codable, Sendable {
    public var result: String
    public var remoteCommit: String?
    public var head: String?
    public var paths: [PathOutcomeJSON]
    public var keptLocalEdits: [String]
    public var refused: [RefusedPathJSON]
    public var submodules: [String]
    public var conflicts: Int
    /// Conflict files another device wrote that this pull brought, as `sheaf conflicts` shows them.
    public var arrivedConflicts: [ConflictEntryJSON]

    public init(_ report: PullReport, arrivedConflicts: [ConflictEntry]) {
        result = report.kind.rawValue; remoteCommit = report.remoteCommit; head = report.head
        paths = report.outcomes.map(PathOutcomeJSON.init); keptLocalEdits = report.keptLocalEdits
        refused = report.refused.map(RefusedPathJSON.init); submodules = report.gitlinks
        conflicts = report.conflicts; self.arrivedConflicts = arrivedConflicts.map(ConflictEntryJSON.init)
    }
}

/// `sheaf pull --dry-run --json`.
public struct PullPreviewJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var dryRun = true
    public var remote: String
    public var pull: PullJSON
    public var uncommitted: [String]
    /// Each joined share's preview; absent when the vault has none.
    public var shares: [Share]?

    public struct Share: Codable, Sendable {
        public var path: String
        public var pull: PullJSON?
        public var uncommitted: [String]
        public var error: String?
    }

    public init(_ p: PullPreview) {
        remote = p.remote
        self.pull = Self.previewed(p.pull)
        uncommitted = p.uncommitted
        shares = p.shares.isEmpty ? nil : p.shares.map { share in
            Share(path: share.path, pull: share.pull.map(Self.previewed), uncommitted: share.uncommitted,
                  error: share.error.map { VaultSession.summary($0) })
        }
    }

    /// A preview has no work tree to keep edits of, and brings no files yet.
    static func previewed(_ report: PullReport) -> PullJSON {
        var pull = PullJSON(report, arrivedConflicts: [])
        pull.keptLocalEdits = []
        return pull
    }
}

/// The report of pull, push and sync.
public struct SyncJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var remote: String
    public var committed: CommitRefJSON?
    public var resumed: Bool
    public var pull: PullJSON?
    public var push: PushJSON?
    /// Steps after the pull that failed (index, thumbnails), as `path: message`.
    public var warnings: [String]
    /// Each share's sync (docs/sharing.md); absent when the vault has no share.
    public var shares: [ShareRunJSON]?

    public struct PushJSON: Codable, Sendable {
        public var pushed: Int
        public var head: String?
    }

    public init(_ run: SyncRun) {
        remote = run.remote
        committed = run.committed.map(CommitRefJSON.init)
        resumed = run.resumed
        pull = run.pull.map { PullJSON($0, arrivedConflicts: run.arrivedConflicts) }
        push = run.push.map { PushJSON(pushed: $0.pushed, head: $0.head) }
        warnings = run.warnings.map(\.description)
        shares = run.shares.isEmpty ? nil : run.shares.map(ShareRunJSON.init)
    }
}

/// `sheaf conflicts --json`.
public struct ConflictListJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var conflicts: [ConflictEntryJSON]
    public init(_ conflicts: [ConflictEntry]) { self.conflicts = conflicts.map(ConflictEntryJSON.init) }
}

/// `sheaf remote list --json`: URLs without secrets.
public struct RemoteListJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var remotes: [Entry]
    public struct Entry: Codable, Sendable { public var name: String; public var url: String }
    public init(_ remotes: [VaultRemote]) { self.remotes = remotes.map { Entry(name: $0.name, url: $0.url) } }
}

/// `sheaf status --json`.
public struct StatusJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var branch: String?
    public var remote: String?
    public var ahead: Int
    public var behind: Int
    public var interruptedSync: Bool
    public var changes: [Change]
    public var conflicts: [ConflictEntryJSON]
    public var watcher: Watcher
    /// Each share's state, as `sheaf shares --json` gives it; absent when the vault has none.
    public var shares: [ShareStatusJSON]?

    public struct Change: Codable, Sendable {
        /// edited, added, deleted or renamed (the commit messages' words).
        public var kind: String
        public var path: String
        public var oldPath: String?
    }

    /// `sheaf watch` as `status` sees it; `sync` is its background sync's last state, and
    /// `syncIsCurrent` whether the watcher that wrote it still runs.
    public struct Watcher: Codable, Sendable {
        public var state: String
        public var pid: Int32?
        public var since: Date?
        public var syncIsCurrent: Bool
        public var sync: Sync?

        public struct Sync: Codable, Sendable {
            public var lastAttempt: Date?
            public var lastResult: String?
            public var lastMessage: String?
            public var lastSuccess: Date?
            public var offlineSince: Date?
            public var nextAttempt: Date?
            public var waiting: String?
            public var writing: [String]
        }

        public init(_ w: WatchStatus) {
            func date(_ s: Int64?) -> Date? { s.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
            state = w.state.rawValue; pid = w.pid; since = date(w.since); syncIsCurrent = w.syncIsCurrent
            sync = w.sync.map {
                Sync(lastAttempt: date($0.lastAttempt), lastResult: $0.lastResult?.rawValue, lastMessage: $0.lastMessage,
                     lastSuccess: date($0.lastSuccess), offlineSince: date($0.offlineSince),
                     nextAttempt: date($0.nextAttempt), waiting: $0.waiting, writing: $0.writing)
            }
        }
    }

    public init(_ s: VaultStatus, watch: WatchStatus) {
        branch = s.branch; remote = s.remote; ahead = s.ahead; behind = s.behind; interruptedSync = s.interruptedSync
        changes = s.changes.map { Change(kind: $0.kind.committedWord, path: $0.path, oldPath: $0.oldPath) }
        conflicts = s.conflicts.map(ConflictEntryJSON.init)
        shares = s.shares.isEmpty ? nil : s.shares.map(ShareStatusJSON.init)
        watcher = Watcher(watch)
    }
}
