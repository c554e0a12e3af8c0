// The shapes of `--json` output. Each document carries `version`; docs/json.md describes them.
import Foundation
import SheafCore
import SheafKit

let jsonVersion = 1

struct NoteSummaryJSON: Encodable {
    let path: String
    let title: String
    let id: String?
    let tags: [String]
    let created: Date
    let modified: Date
    let snippet: String

    init(_ n: NoteSummary) {
        path = n.path; title = n.title; id = n.id; tags = n.tags
        created = n.created; modified = n.modified; snippet = n.snippet
    }
}

struct NoteListJSON: Encodable {
    let version = jsonVersion
    let notes: [NoteSummaryJSON]
}

struct LinkJSON: Encodable {
    let kind: String
    let target: String
    let fragment: String?
    /// The vault path it points at, null when it points nowhere.
    let resolved: String?

    // Written as null when absent, as docs/json.md shows them (the synthesized encoder leaves them out).
    private enum CodingKeys: String, CodingKey { case kind, target, fragment, resolved }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(target, forKey: .target)
        try container.encode(fragment, forKey: .fragment)
        try container.encode(resolved, forKey: .resolved)
    }
}

struct NoteJSON: Encodable {
    let version = jsonVersion
    let path: String
    let id: String?
    let title: String
    let tags: [String]
    let aliases: [String]
    let created: Date
    let modified: Date
    let frontMatter: [String: JSONValue]
    let links: [LinkJSON]
    let body: String
    let warnings: [String]
    /// The git blob id of the note's bytes, for `--if-match`.
    let blob: String
}

/// `sheaf write --json`, `sheaf append --if-match … --json`.
struct GuardedWriteJSON: Encodable {
    let version = jsonVersion
    let path: String
    /// clean, merged or conflict.
    let outcome: String
    let blob: String
    let conflictFile: String?
}

struct TagCountJSON: Encodable {
    let tag: String
    let count: Int
}

struct TagListJSON: Encodable {
    let version = jsonVersion
    let tags: [TagCountJSON]
}

/// A YAML value as JSON: scalars stay strings (as written), lists arrays, maps objects.
enum JSONValue: Encodable {
    case null, string(String), array([JSONValue]), object([String: JSONValue])

    init(_ v: YAMLValue) {
        switch v {
        case .null: self = .null
        case .scalar(let s): self = .string(s)
        case .list(let items): self = .array(items.map(JSONValue.init))
        case .map(let pairs): self = .object(Dictionary(pairs.map { ($0.0, JSONValue($0.1)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

struct CommitRefJSON: Encodable {
    let id: String
    let summary: String
}

struct CommitJSON: Encodable {
    let version = jsonVersion
    let commit: CommitRefJSON?
}

/// `sheaf pull --dry-run --json`.
struct PullPreviewJSON: Encodable {
    let version = jsonVersion
    let dryRun = true
    let remote: String
    let pull: SyncJSON.PullJSON
    let uncommitted: [String]

    init(_ p: PullPreview) {
        remote = p.remote
        pull = SyncJSON.PullJSON(result: p.pull.kind.rawValue, remoteCommit: p.pull.remoteCommit, head: p.pull.head,
                                 paths: p.pull.outcomes, keptLocalEdits: [], refused: p.pull.refused,
                                 submodules: p.pull.gitlinks, conflicts: p.pull.conflicts, arrivedConflicts: [])
        uncommitted = p.uncommitted
    }
}

/// The report of pull, push and sync.
struct SyncJSON: Encodable {
    let version = jsonVersion
    let remote: String
    let committed: CommitRefJSON?
    let resumed: Bool
    let pull: PullJSON?
    let push: PushJSON?
    /// Steps after the pull that failed (index, thumbnails), as `path: message`.
    let warnings: [String]

    struct PullJSON: Encodable {
        let result: String
        let remoteCommit: String?
        let head: String?
        let paths: [PathOutcome]
        let keptLocalEdits: [String]
        let refused: [RefusedPath]
        let submodules: [String]
        let conflicts: Int
        /// Conflict files another device wrote that this pull brought, as `sheaf conflicts` shows them.
        let arrivedConflicts: [ConflictEntryJSON]
    }

    struct PushJSON: Encodable {
        let pushed: Int
        let head: String?
    }

    init(_ run: SyncRun) {
        remote = run.remote
        committed = run.committed.map { CommitRefJSON(id: $0.id, summary: $0.summary) }
        resumed = run.resumed
        pull = run.pull.map { PullJSON(result: $0.kind.rawValue, remoteCommit: $0.remoteCommit, head: $0.head, paths: $0.outcomes,
                                       keptLocalEdits: $0.keptLocalEdits, refused: $0.refused, submodules: $0.gitlinks,
                                       conflicts: $0.conflicts,
                                       arrivedConflicts: run.arrivedConflicts.map(ConflictEntryJSON.init)) }
        push = run.push.map { PushJSON(pushed: $0.pushed, head: $0.head) }
        warnings = run.warnings.map(\.description)
    }
}
