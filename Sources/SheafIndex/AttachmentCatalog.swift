// Attachments in the catalog: every vault file that is not a note, with its media type, and,
// once a thumbnailing command has looked at it, its content hash, dimensions and thumbnail (or
// why it has none). The scan only records files (cheap: no file is read), so a search never
// waits for images; `attach`, `index`, `thumb` and a pull make the thumbnails and write back here.
import Foundation
import GRDB
import SheafCore

/// Whether an attachment has its thumbnail.
public enum ThumbnailState: String, Sendable, Codable {
    /// A format Sheaf thumbnails, not looked at since it was added or changed.
    case pending
    /// The thumbnail is made.
    case ready
    /// libvips could not make one (damaged, not what its name says, refused); `error` says why.
    case failed
    /// Not an image format Sheaf thumbnails.
    case none
}

/// One attachment as the catalog knows it.
public struct AttachmentRecord: Sendable, Equatable {
    public let path: String
    public let type: String
    public let size: Int
    public let mtimeNanoseconds: Int64
    public let inode: UInt64
    public let state: ThumbnailState
    public let hash: String?
    public let width: Int?
    public let height: Int?
    /// The thumbnail's file name in `.sheaf/thumbnails/`.
    public let thumbnail: String?
    public let error: String?

    /// Whether the file on disk is still the one this record describes.
    public func matches(_ file: VaultFile) -> Bool {
        size == file.size && mtimeNanoseconds == file.mtimeNanoseconds && inode == file.inode
    }
}

/// What a thumbnailing run found out about one attachment.
public struct ThumbnailOutcome: Sendable {
    public let path: String
    /// The identity of the file that was read; the result is kept only if the file still has it.
    public let size: Int
    public let mtimeNanoseconds: Int64
    public let inode: UInt64
    public let hash: String?
    public let type: String?
    public let width: Int?
    public let height: Int?
    public let thumbnail: String?
    public let error: String?

    public init(record: AttachmentRecord, hash: String?, type: String?, width: Int?, height: Int?,
                thumbnail: String?, error: String?) {
        path = record.path; size = record.size; mtimeNanoseconds = record.mtimeNanoseconds; inode = record.inode
        self.hash = hash; self.type = type; self.width = width; self.height = height
        self.thumbnail = thumbnail; self.error = error
    }
}

/// A link from a note to some file, as written.
enum AttachmentSchema {
    /// The columns the media issue needs on the v1 placeholder table. Self-contained: it only
    /// touches `attachments`, and the next scan fills the table from `files`' walk.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-attachments") { db in
            try db.execute(sql: """
                ALTER TABLE attachments ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE attachments ADD COLUMN mtime_ns INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE attachments ADD COLUMN inode INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE attachments ADD COLUMN state TEXT NOT NULL DEFAULT 'pending';
                ALTER TABLE attachments ADD COLUMN error TEXT;
                CREATE INDEX attachments_state ON attachments(state);
                CREATE INDEX attachments_thumbnail ON attachments(thumbnail);
                """)
        }
    }
}

extension NoteIndex {
    /// Brings the attachments table in line with the walk's non-note files (part of the scan's
    /// write transaction). A new or changed file becomes `pending`; nothing is read from disk.
    /// With `only`, just the rows of those paths are compared (a change set applied without a
    /// walk: `files` are the ones of those paths that exist). Added, changed and removed
    /// attachments are recorded in `changes`.
    static func recordAttachments(_ db: Database, _ files: [VaultFile], changes: inout VaultChangeSet,
                                  only paths: [PathKey]? = nil) throws {
        var stored: [PathKey: (size: Int, mtime: Int64, inode: Int64)] = [:]
        if let paths {
            let statement = try db.cachedStatement(sql: "SELECT path, size, mtime_ns, inode FROM attachments WHERE path = ?")
            for key in paths {
                if let row = try Row.fetchOne(statement, arguments: [key.path]) {
                    stored[PathKey(row["path"])] = (row["size"], row["mtime_ns"], row["inode"])
                }
            }
        } else {
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, mtime_ns, inode FROM attachments")
            while let row = try rows.next() { stored[PathKey(row["path"])] = (row["size"], row["mtime_ns"], row["inode"]) }
        }
        let upsert = try db.makeStatement(sql: """
            INSERT OR REPLACE INTO attachments (path, type, size, mtime_ns, inode, state, hash, width, height, thumbnail, error)
            VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL)
            """)
        for f in files where !VaultPath.isObsidianDocument(f.path) {
            let inode = Int64(bitPattern: f.inode)
            let old = stored.removeValue(forKey: PathKey(f.path))
            if let old, old == (f.size, f.mtimeNanoseconds, inode) { continue }
            if old == nil { changes.add(f.path) } else { changes.change(f.path) }
            let type = MediaType.of(f.path)
            let state: ThumbnailState = MediaType.thumbnailed.contains(type) ? .pending : .none
            try upsert.execute(arguments: [f.path, type, f.size, f.mtimeNanoseconds, inode, state.rawValue])
        }
        let delete = try db.makeStatement(sql: "DELETE FROM attachments WHERE path = ?")
        for key in stored.keys {
            try delete.execute(arguments: [key.path])  // by bytes: keys are PathKeys
            changes.remove(key.path)
        }
    }

    /// Every attachment, or those at `paths`, sorted by path.
    public func attachments(at paths: [String]? = nil) throws(SheafError) -> [AttachmentRecord] {
        try reading { db in
            var sql = "SELECT * FROM attachments"
            var arguments = StatementArguments()
            if let paths {
                sql += " WHERE path IN (SELECT value FROM json_each(?))"
                arguments = [String(decoding: try JSONEncoder().encode(paths), as: UTF8.self)]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY path", arguments: arguments).map(Self.record)
        }
    }

    /// The attachments that still need a thumbnail (new, changed, or whose thumbnail file is gone).
    public func attachmentsNeedingThumbnails(thumbnailExists: (String) -> Bool) throws(SheafError) -> [AttachmentRecord] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM attachments WHERE state IN ('pending', 'ready') ORDER BY path")
                .map(Self.record)
                .filter { $0.state == .pending || !($0.thumbnail.map(thumbnailExists) ?? false) }
        }
    }

    /// Writes what thumbnailing found, for files that have not changed since they were read.
    public func record(_ outcomes: [ThumbnailOutcome]) throws(SheafError) {
        do {
            try writer().write { db in
                for o in outcomes {
                    try db.execute(sql: """
                        UPDATE attachments SET hash = ?, type = COALESCE(?, type), width = ?, height = ?, thumbnail = ?,
                            error = ?, state = ?
                        WHERE path = ? AND size = ? AND mtime_ns = ? AND inode = ?
                        """, arguments: [o.hash, o.type, o.width, o.height, o.thumbnail, o.error,
                                         (o.thumbnail != nil ? ThumbnailState.ready : .failed).rawValue,
                                         o.path, o.size, o.mtimeNanoseconds, Int64(bitPattern: o.inode)])
                }
            }
        } catch {
            throw SheafError("cannot update the index", path: path, cause: "\(error)", hint: "run `sheaf index --rebuild`")
        }
    }

    /// The thumbnail file names some attachment uses (what `sheaf gc` keeps).
    public func thumbnailsInUse() throws(SheafError) -> Set<String> {
        try reading { db in Set(try String.fetchAll(db, sql: "SELECT thumbnail FROM attachments WHERE thumbnail IS NOT NULL")) }
    }

    /// Links from notes whose target's file name is that of some attachment, as written; the
    /// caller resolves them (Obsidian's rules) against `allPaths`.
    public func linksToAttachments() throws(SheafError) -> [StoredLink] {
        try reading { db in
            try Row.fetchAll(db, sql: """
                SELECT n.path, l.kind, l.target FROM links l JOIN notes n ON n.rowid = l.note
                WHERE l.target_key IN (SELECT name_key FROM files) ORDER BY n.path
                """).compactMap { row in
                    Link.Kind(rawValue: row[1]).map { StoredLink(notePath: row[0], kind: $0, target: row[2]) }
                }
        }
    }


    static func record(_ row: Row) -> AttachmentRecord {
        AttachmentRecord(path: row["path"], type: row["type"] ?? "application/octet-stream", size: row["size"],
                         mtimeNanoseconds: row["mtime_ns"], inode: UInt64(bitPattern: row["inode"]),
                         state: ThumbnailState(rawValue: row["state"]) ?? .pending, hash: row["hash"],
                         width: row["width"], height: row["height"], thumbnail: row["thumbnail"], error: row["error"])
    }
}
