// The index's single writer: parsed notes into the catalog and the FTS table, one transaction per
// batch, and the racily-clean rule for the inode a row records.
import Foundation
import GRDB
import SheafCore

/// Writes parsed notes into the catalog and the FTS table, one transaction per batch, with
/// prepared statements and FTS rowids counted here (stored in `meta` once per batch).
struct BatchWriter {
    struct Batch {
        /// Same bytes, new identity: the identity is updated, and the dates a note without them
        /// in its front matter takes from its file's mtime (as `store` gives them).
        var touches: [(Int64, IndexedNote)] = []
        /// Notes to store, with the catalog row they replace (a changed or renamed note).
        var writes: [(Int64?, IndexedNote)] = []
    }

    let pool: any DatabaseWriter
    private var nextFtsRowid: Int64
    /// When this writer started (nanoseconds since 1970), before it read any file. A file modified
    /// within one tick of the file system's clock of being read is "racily clean", as git calls
    /// it: a write in place in the same tick would keep size, mtime and inode, and the catalog
    /// would keep the old text and links for good (`mv` reads the links from it). Such rows get
    /// inode 0, which no file has, so the next scan reads them again (`recordedInode`).
    let startNs: Int64

    init(pool: any DatabaseWriter) throws {
        self.pool = pool
        nextFtsRowid = try pool.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'next_fts_rowid'") } ?? 1
        startNs = Self.nowNs()
    }

    /// `deleting`: by catalog rowid, the FTS rows of replaced notes whose text is known
    /// (`NoteIndex.ftsRowsToDelete`); the others become dead rows.
    mutating func write(_ batch: Batch, deleting: [Int64: FTSRow] = [:]) throws {
        guard !batch.touches.isEmpty || !batch.writes.isEmpty else { return }
        var next = nextFtsRowid
        try pool.write { db in
            let deleted = try NoteIndex.delete(deleting.values, db) ? Set(deleting.keys) : []
            if !batch.writes.isEmpty { try NoteIndex.addingRows(db) }
            let touch = try db.cachedStatement(sql: "UPDATE notes SET size = ?, mtime_ns = ?, inode = ?, created = ?, modified = ? WHERE rowid = ?")
            for (rowid, item) in batch.touches {
                let (created, modified) = Self.dates(item)
                try touch.execute(arguments: [item.file.size, item.file.mtimeNanoseconds, recordedInode(item.file), created, modified, rowid])
            }
            var dead = 0
            for (rowid, item) in batch.writes {
                try Self.store(db, item, inode: recordedInode(item.file), replacing: rowid, ftsRowid: next)
                next += 1
                if let rowid, !deleted.contains(rowid) { dead += 1 }
            }
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'next_fts_rowid'", arguments: [next])
            if dead > 0 { try db.execute(sql: "UPDATE meta SET value = value + ? WHERE key = 'dead_fts_rows'", arguments: [dead]) }
        }
        nextFtsRowid = next
    }

    /// The inode a note's row records: 0 for a racily clean file, read again by the next scan.
    /// The tick is taken as 2 s for a clock that records whole seconds (FAT's two, ext3's and
    /// HFS+'s one), else 100 ms (ext4 moves in jiffies, exFAT in 10 ms): a file modified from
    /// then before this writer started until now (it was read in between) is racy. A tighter
    /// window matters: right after a clone or a pull every file is seconds old, and 2 s for all
    /// made the next scan read every note again.
    func recordedInode(_ file: VaultFile) -> Int64 {
        let tick: Int64 = file.mtimeNanoseconds % 1_000_000_000 == 0 ? 2_000_000_000 : 100_000_000
        let racy = file.mtimeNanoseconds >= startNs - tick && file.mtimeNanoseconds <= Self.nowNs() + tick
        return racy ? 0 : Int64(bitPattern: file.inode)
    }

    static func nowNs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Writes one note's catalog rows (with `inode`, from `recordedInode`) and its FTS row; the
    /// old FTS row, if any, becomes dead.
    static func store(_ db: Database, _ item: IndexedNote, inode: Int64, replacing rowid: Int64?, ftsRowid: Int64) throws {
        let note = item.note
        let (created, modified) = dates(item)
        let aliases = note.aliases.joined(separator: "\n")
        let values: [DatabaseValueConvertible?] = [
            item.file.path, VaultPath.folder(item.file.path), note.id, note.title, aliases, created, modified,
            item.file.size, item.file.mtimeNanoseconds, inode, item.hash, note.snippet,
            note.warnings.map(\.description).joined(separator: "\n"), ConflictName.isConflict(item.file.path) ? 1 : 0, ftsRowid,
        ]
        let noteRow: Int64
        if let rowid {
            try db.cachedStatement(sql: """
                UPDATE notes SET path = ?, folder = ?, note_id = ?, title = ?, aliases = ?, created = ?, modified = ?,
                    size = ?, mtime_ns = ?, inode = ?, hash = ?, snippet = ?, warnings = ?, is_conflict = ?, fts_rowid = ?
                WHERE rowid = ?
                """).execute(arguments: StatementArguments(values + [rowid]))
            try db.cachedStatement(sql: "DELETE FROM tags WHERE note = ?").execute(arguments: [rowid])
            try db.cachedStatement(sql: "DELETE FROM links WHERE note = ?").execute(arguments: [rowid])
            noteRow = rowid
        } else {
            try db.cachedStatement(sql: """
                INSERT INTO notes (path, folder, note_id, title, aliases, created, modified, size, mtime_ns, inode,
                    hash, snippet, warnings, is_conflict, fts_rowid)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: StatementArguments(values))
            noteRow = db.lastInsertedRowID
        }
        if !note.tags.isEmpty {
            let insertTag = try db.cachedStatement(sql: "INSERT INTO tags (note, tag, key) VALUES (?, ?, ?)")
            for tag in note.tags { try insertTag.execute(arguments: [noteRow, tag, NoteIndex.tagKey(tag)]) }
        }
        let insertLink = try db.cachedStatement(sql: "INSERT INTO links (note, kind, target, target_key, byte_offset, no_name) VALUES (?, ?, ?, ?, ?, ?)")
        for (link, offset) in zip(note.links, note.linkOffsets) where !link.target.isEmpty {
            try insertLink.execute(arguments: [noteRow, link.kind.rawValue, link.target, NoteIndex.linkKey(link.target), offset,
                                               LinkTargets.endsInNoFileName(link.target) ? 1 : 0])
        }
        try insertText(db, item, ftsRowid: ftsRowid)
    }

    /// A note's created and modified dates: its front matter's, else its file's mtime.
    static func dates(_ item: IndexedNote) -> (created: Double, modified: Double) {
        let mtime = Double(item.file.mtimeNanoseconds) / 1e9
        return (item.note.created?.timeIntervalSince1970 ?? mtime, item.note.modified?.timeIntervalSince1970 ?? mtime)
    }

    /// Writes a note's FTS row.
    static func insertText(_ db: Database, _ item: IndexedNote, ftsRowid: Int64) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO note_fts (rowid, title, aliases, tags, path, meta, body, cjk) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        try statement.execute(arguments: StatementArguments([ftsRowid] + item.text))
    }
}
