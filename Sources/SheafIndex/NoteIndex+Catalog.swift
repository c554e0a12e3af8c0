// The catalog tables read back for listings, tag counts, note-name lookups, backlinks and
// warnings: what `ls`, `tags`, `show`, `backlinks` and a page of backlinks need, without reading or parsing a note.
import Foundation
import GRDB
import SheafCore

/// A note as the catalog holds it.
public struct NoteSummary: Sendable {
    public let path: String
    public let title: String
    public let id: String?
    public let aliases: [String]
    /// Front-matter tags, then inline tags, as the note's parse ordered them.
    public let tags: [String]
    /// Front-matter `created`/`date`, else the file's mtime.
    public let created: Date
    /// Front-matter `modified`/`updated`, else the file's mtime.
    public let modified: Date
    public let snippet: String
    public let size: Int
    public let mtimeNanoseconds: Int64
    /// Why the note was read only in part (descriptions), empty when it was read whole.
    public let warnings: [String]

    public var handle: NoteHandle { NoteHandle(path: path, title: title, id: id, aliases: aliases) }
}

/// A link as the catalog holds it: enough to resolve it.
public struct StoredLink: Sendable {
    /// The path of the note holding the link.
    public let notePath: String
    public let kind: Link.Kind
    public let target: String
}

/// A stored link with where it is written: what a backlinks list needs to cut its line from the
/// linking note's text.
public struct StoredLinkPlace: Sendable {
    public let link: StoredLink
    /// The title of the note holding the link.
    public let noteTitle: String
    /// The content hash of that note when it was indexed (`GitBlobID.of(_:absolutePath:)`): the
    /// offset holds only while the file still has this hash.
    public let noteHash: String
    /// That note's file identity when it was indexed (inode 0 when it was racily clean, which no
    /// file has): a file that still has it has the same bytes, by the scan's own rule.
    public let noteFile: VaultFile
    /// Where the link's target starts in that note's text (`Note.linkOffsets`).
    public let offset: Int
}

extension NoteIndex {
    /// Every note of the catalog, in no particular order.
    public func summaries() throws(SheafError) -> [NoteSummary] {
        try summaries(filters: [])
    }

    /// What a name is looked up by (path, title, id, aliases) for every note: a summary's
    /// handle without its tags, dates and snippet, which every command naming a note paid for.
    public func handles() throws(SheafError) -> [NoteHandle] {
        try reading { db in try Self.handles(db, sql: "SELECT path, title, note_id, aliases FROM notes") }
    }

    /// The handles of the notes at exactly `paths` (byte for byte), in no particular order: what
    /// naming a note by its path needs, without reading every note's handle.
    public func handles(atPaths paths: [String]) throws(SheafError) -> [NoteHandle] {
        guard !paths.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: paths.count).joined(separator: ", ")
        return try reading { db in
            try Self.handles(db, sql: "SELECT path, title, note_id, aliases FROM notes WHERE path IN (\(marks))", arguments: StatementArguments(paths))
        }
    }

    private static func handles(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [NoteHandle] {
        var handles: [NoteHandle] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            let aliases: String = row[3]
            handles.append(NoteHandle(path: row[0], title: row[1], id: row[2],
                                      aliases: aliases.isEmpty ? [] : aliases.components(separatedBy: "\n")))
        }
        return handles
    }

    /// The notes every filter holds for, in no particular order: the same SQL conditions as
    /// `search` (`ls --folder F` is `search in:F`, `ls --tag t` is `search tag:t`).
    public func summaries(filters: [SearchFilter]) throws(SheafError) -> [NoteSummary] {
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        for f in filters { let (sql, args) = Self.condition(f); conditions.append(sql); arguments += args }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try reading { db in
            var tags: [Int64: [String]] = [:]
            let tagRows = try Row.fetchCursor(db, sql: conditions.isEmpty
                ? "SELECT note, tag FROM tags ORDER BY rowid"
                : "SELECT note, tag FROM tags WHERE note IN (SELECT n.rowid FROM notes n\(whereClause)) ORDER BY rowid",
                arguments: conditions.isEmpty ? [] : StatementArguments(arguments))
            while let row = try tagRows.next() { tags[row[0], default: []].append(row[1]) }
            var notes: [NoteSummary] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT n.rowid, n.path, n.title, n.note_id, n.aliases, n.created, n.modified, n.snippet, n.size, n.mtime_ns,
                    n.warnings FROM notes n\(whereClause)
                """, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let aliases: String = row[4], warnings: String = row[10]
                notes.append(NoteSummary(
                    path: row[1], title: row[2], id: row[3],
                    aliases: aliases.isEmpty ? [] : aliases.components(separatedBy: "\n"),
                    tags: tags[row[0]] ?? [],
                    created: Date(timeIntervalSince1970: row[5]), modified: Date(timeIntervalSince1970: row[6]),
                    snippet: row[7], size: row[8], mtimeNanoseconds: row[9],
                    warnings: warnings.isEmpty ? [] : warnings.components(separatedBy: "\n")))
            }
            return notes
        }
    }

    /// Every file path the catalog knows: notes and other files.
    public func allPaths() throws(SheafError) -> [String] {
        try reading { db in try String.fetchAll(db, sql: "SELECT path FROM notes UNION ALL SELECT path FROM files") }
    }

    /// The links that may reach a file at one of `paths`, or that a change to those files (added,
    /// removed, either end of a move) can concern, by the rule of `LinkTargets.Change`: a superset
    /// the caller resolves. Those whose target key is that of such a file's name or stem, and the
    /// few whose target ends in no file name (`Folder/`, `Note.md/.`), which only their whole path
    /// decides. Both by index: `backlinks`, `mv`, `rm` and `new` read these, never every link.
    public func links(concerning paths: [String]) throws(SheafError) -> [StoredLink] {
        try reading { db in
            let (sql, keys) = Self.concerning("n.path, l.kind, l.target", paths)
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(keys)).compactMap(Self.storedLink)
        }
    }

    /// `links(concerning:)`, each with the title, hash and identity of the note holding it and
    /// where it is written there, in the order the notes hold them: what a page of backlinks
    /// needs to show each link's line.
    public func linkPlaces(concerning paths: [String]) throws(SheafError) -> [StoredLinkPlace] {
        try reading { db in
            let (sql, keys) = Self.concerning("n.path, l.kind, l.target, n.title, n.hash, l.byte_offset, n.size, n.mtime_ns, n.inode, l.rowid", paths)
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(keys))
                .sorted { ($0[9] as Int64) < ($1[9] as Int64) }
                .compactMap { row in
                    Self.storedLink(row).map {
                        StoredLinkPlace(link: $0, noteTitle: row[3], noteHash: row[4], noteFile: VaultFile(
                            path: row[0], size: row[6], mtimeNanoseconds: row[7], inode: UInt64(bitPattern: row[8])), offset: row[5])
                    }
                }
        }
    }

    /// The query of `links(concerning:)`, selecting `columns` of `links l JOIN notes n`, and its
    /// arguments: the target keys of each path's file name and stem. Each side is answered from
    /// an index (`links_target_key`; the partial `links_not_a_name`); the sides do not overlap.
    private static func concerning(_ columns: String, _ paths: [String]) -> (String, [String]) {
        let keys = Array(Set(paths.flatMap { [linkKey($0), linkKey(VaultPath.stem($0))] }))
        let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return ("""
            SELECT \(columns) FROM links l JOIN notes n ON n.rowid = l.note WHERE l.target_key IN (\(marks)) AND l.no_name = 0
            UNION ALL
            SELECT \(columns) FROM links l JOIN notes n ON n.rowid = l.note WHERE l.no_name = 1
            """, keys)
    }

    /// Every link of every note (those with a target: not `[[#Heading]]` within a note).
    public func allLinks() throws(SheafError) -> [StoredLink] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT n.path, l.kind, l.target FROM links l JOIN notes n ON n.rowid = l.note").compactMap(Self.storedLink)
        }
    }

    private static func storedLink(_ row: Row) -> StoredLink? {
        Link.Kind(rawValue: row[1]).map { StoredLink(notePath: row[0], kind: $0, target: row[2]) }
    }

    func reading<T>(_ body: (Database) throws -> T) throws(SheafError) -> T {
        do { return try pool.read(body) }
        catch { throw SheafError("cannot read the index", path: path, cause: "\(error)", hint: "run `sheaf index --rebuild`") }
    }
}
