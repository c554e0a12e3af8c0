// The JSON documents about notes: `ls`, `show`, `tags`, `search`, `backlinks`, `log`, and what
// `write`/`append --if-match` report (docs/json.md). Kit's answers turned into stable field names.
import Foundation
import SheafCore

/// One note as `ls --json` lists it.
public struct NoteSummaryJSON: Codable, Sendable {
    public var path: String
    public var title: String
    public var id: String?
    public var tags: [String]
    public var created: Date
    public var modified: Date
    public var snippet: String

    public init(path: String, title: String, id: String?, tags: [String], created: Date, modified: Date, snippet: String) {
        self.path = path; self.title = title; self.id = id; self.tags = tags
        self.created = created; self.modified = modified; self.snippet = snippet
    }

    public init(_ n: NoteSummary) {
        self.init(path: n.path, title: n.title, id: n.id, tags: n.tags, created: n.created, modified: n.modified, snippet: n.snippet)
    }
}

/// `sheaf ls --json`.
public struct NoteListJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var notes: [NoteSummaryJSON]
    public init(notes: [NoteSummaryJSON]) { self.notes = notes }
}

/// A link of a note, with the vault path it reaches (null when it reaches nothing).
public struct LinkJSON: Codable, Sendable {
    public var kind: String
    public var target: String
    public var fragment: String?
    public var resolved: String?

    public init(kind: String, target: String, fragment: String?, resolved: String?) {
        self.kind = kind; self.target = target; self.fragment = fragment; self.resolved = resolved
    }

    // Written as null when absent, as docs/json.md shows them (the synthesized encoder leaves them out).
    private enum CodingKeys: String, CodingKey { case kind, target, fragment, resolved }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(target, forKey: .target)
        try container.encode(fragment, forKey: .fragment)
        try container.encode(resolved, forKey: .resolved)
    }
}

/// `sheaf show NOTE --json`.
public struct NoteJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var path: String
    public var id: String?
    public var title: String
    public var tags: [String]
    public var aliases: [String]
    public var created: Date
    public var modified: Date
    public var frontMatter: [String: JSONValue]
    public var links: [LinkJSON]
    public var body: String
    public var warnings: [String]
    /// The git blob id of the note's bytes, for `--if-match`.
    public var blob: String

    public init(path: String, id: String?, title: String, tags: [String], aliases: [String], created: Date, modified: Date,
                frontMatter: [String: JSONValue], links: [LinkJSON], body: String, warnings: [String], blob: String) {
        self.path = path; self.id = id; self.title = title; self.tags = tags; self.aliases = aliases
        self.created = created; self.modified = modified; self.frontMatter = frontMatter; self.links = links
        self.body = body; self.warnings = warnings; self.blob = blob
    }

    /// A note as read, its links resolved against `targets`, `blob` its bytes' id.
    public init(_ found: CatalogNote, targets: LinkTargets, blob: String) {
        let note = found.note
        self.init(path: found.path, id: note.id, title: note.title, tags: note.tags, aliases: note.aliases,
                  created: found.created, modified: found.modified,
                  frontMatter: Dictionary(note.frontMatter.entries.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { a, _ in a }),
                  links: note.links.map { LinkJSON(kind: $0.kind.rawValue, target: $0.target, fragment: $0.fragment,
                                                   resolved: targets.resolve($0, from: found.path)) },
                  body: note.body, warnings: note.warnings.map(\.description), blob: blob)
    }
}

/// A YAML value as JSON: scalars stay strings (as written), lists arrays, maps objects.
public enum JSONValue: Codable, Sendable, Equatable {
    case null, string(String), array([JSONValue]), object([String: JSONValue])

    public init(_ v: YAMLValue) {
        switch v {
        case .null: self = .null
        case .scalar(let s): self = .string(s)
        case .list(let items): self = .array(items.map(JSONValue.init))
        case .map(let pairs): self = .object(Dictionary(pairs.map { ($0.0, JSONValue($0.1)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null } else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) } else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

/// `sheaf write --json`, `sheaf append --if-match … --json`.
public struct GuardedWriteJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var path: String
    /// clean, merged or conflict.
    public var outcome: String
    public var blob: String
    public var conflictFile: String?

    public init(_ r: GuardedWriteReport) {
        path = r.path; outcome = r.outcome.rawValue; blob = r.blob; conflictFile = r.conflictFile
    }
}

public struct TagCountJSON: Codable, Sendable {
    public var tag: String
    public var count: Int
}

/// `sheaf tags --json`.
public struct TagListJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var tags: [TagCountJSON]
    public init(_ counts: [TagCount]) { tags = counts.map { TagCountJSON(tag: $0.tag, count: $0.count) } }
}

public struct SearchHitJSON: Codable, Sendable {
    public var path: String
    public var title: String
    public var modified: Date
    public var score: Double
    public var snippet: String
    public var highlights: [String]

    public init(_ hit: SearchHit) {
        path = hit.path; title = hit.title; modified = hit.modified; score = hit.score
        snippet = hit.snippet.map(\.text).joined()
        highlights = hit.snippet.filter(\.match).map(\.text)
    }
}

/// `sheaf search QUERY --json`.
public struct SearchJSON: Codable, Sendable {
    public var version = VaultJSON.version
    /// No note held all of the words; these hold some of them.
    public var partial: Bool
    public var hits: [SearchHitJSON]
    public init(partial: Bool, hits: [SearchHit]) { self.partial = partial; self.hits = hits.map(SearchHitJSON.init) }
}

/// `sheaf backlinks NOTE --json`.
public struct BacklinksJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var note: String
    public var backlinks: [String]
    public init(note: String, backlinks: [String]) { self.note = note; self.backlinks = backlinks }
}

/// `sheaf log [NOTE] --json`: `path` and `exists` only for a note's log.
public struct LogJSON: Codable, Sendable {
    public var version = VaultJSON.version
    public var path: String?
    public var exists: Bool?
    public var commits: [Entry]

    public struct Entry: Codable, Sendable {
        public var id: String
        public var time: Date
        public var author: String
        public var summary: String
        public var kind: String?
        public var path: String?
        public var oldPath: String?
    }

    /// `ofNote`: the log is one note's (else `exists` is left out).
    public init(_ history: History, ofNote: Bool) {
        path = history.path
        exists = ofNote ? history.exists : nil
        commits = history.entries.map {
            Entry(id: $0.commit.id, time: $0.commit.time, author: $0.commit.authorName, summary: $0.commit.summary,
                  kind: $0.kind?.committedWord, path: $0.path, oldPath: $0.oldPath)
        }
    }
}
