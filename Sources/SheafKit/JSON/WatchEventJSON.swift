// `sheaf watch --json`: one object per event of the watcher and the background sync, `kind`
// saying which and the other fields those of that kind (docs/json.md's table). Messages that may carry a remote's URL are redacted.
import Foundation
import SheafCore

public struct WatchEventJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var kind: String
    /// ISO 8601 with milliseconds: events a second apart or less keep their order.
    public var time: String
    public var pid: Int32?
    public var folders: Int?
    public var changes: ChangeSetJSON?
    public var reasons: [String]?
    public var reason: String?
    public var committed: Bool?
    public var pulled: ChangeSetJSON?
    public var pushed: Bool?
    public var remote: String?
    public var cause: String?
    public var retryIn: Double?
    public var paths: [String]?
    public var error: ErrorJSON?
    public var path: String?
    public var message: String?

    public struct ErrorJSON: Codable, Sendable {
        public var what: String
        public var path: String?
        public var cause: String?
        public var hint: String?
    }

    /// A change set as four lists of paths, each sorted by bytes.
    public struct ChangeSetJSON: Codable, Sendable {
        public struct Rename: Codable, Sendable { public var from: String; public var to: String }
        public var added: [String]
        public var changed: [String]
        public var removed: [String]
        public var renamed: [Rename]

        public init(_ set: VaultChangeSet) {
            func sorted(_ keys: Set<PathKey>) -> [String] { keys.map(\.path).sorted { PathBytes.precedes($0, $1) } }
            added = sorted(set.added)
            changed = sorted(set.changed)
            removed = sorted(set.removed)
            renamed = set.renamed.map { Rename(from: $0.from.path, to: $0.to.path) }
        }
    }

    private init(kind: String, at date: Date) {
        self.kind = kind
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        time = formatter.string(from: date)
    }

    /// The event as it is reported at `date`; nil for the events of any command (a lock wait,
    /// index progress), which the watch stream leaves out.
    public init?(_ event: VaultEvent, at date: Date = Date()) {
        switch event {
        case .lockWait, .indexBusy, .indexStale, .indexProgress, .watcherVouched:
            return nil
        case let .started(pid, folders):
            self.init(kind: "started", at: date); self.pid = pid; self.folders = folders
        case .indexed(let changes):
            self.init(kind: "indexed", at: date); self.changes = ChangeSetJSON(changes)
        case let .rescanned(reasons, changes):
            self.init(kind: "rescanned", at: date); self.reasons = reasons; self.changes = ChangeSetJSON(changes)
        case .stopped(let reason):
            self.init(kind: "stopped", at: date); self.reason = reason
        case let .synced(committed, pulled, pushed):
            self.init(kind: "synced", at: date); self.committed = committed; self.pulled = ChangeSetJSON(pulled); self.pushed = pushed
        case .committedLocally(let summary):
            self.init(kind: "committedLocally", at: date); self.message = summary
        case let .offline(remote, cause, retryIn):
            self.init(kind: "offline", at: date); self.remote = remote; self.cause = redactingCredentials(cause); self.retryIn = retryIn
        case .online(let remote):
            self.init(kind: "online", at: date); self.remote = remote
        case .conflicts(let paths):
            self.init(kind: "conflicts", at: date); self.paths = paths
        case .syncWaiting(let reason):
            self.init(kind: "syncWaiting", at: date); self.reason = reason
        case .problem(let error):
            self.init(kind: "problem", at: date)
            self.error = ErrorJSON(what: redactingCredentials(error.what), path: error.path.map(redactingCredentials),
                                   cause: error.cause.map(redactingCredentials), hint: error.hint.map(redactingCredentials))
        case .warning(let warning):
            self.init(kind: "warning", at: date); self.path = warning.path; self.message = warning.message
        }
    }
}
