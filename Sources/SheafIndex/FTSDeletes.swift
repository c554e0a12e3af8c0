// Forgetting a note's FTS row for good. The FTS table is contentless (the text lives in the
// files), and SQLite 3.40 removes a row from such a table only when told the exact text the row
// was made from (FTS5's 'delete' command). A row whose text is not known stays behind as a dead
// row, skipped by every query, until a compaction reads every note again (seconds at 10k notes).
// The text is known when the version the row was made from is at hand: the catalog keeps each
// note's content hash, which is git's blob id, so a version that was committed (every note a pull
// replaces, every note synced before it was edited) is read back from the repository, and one a
// command's own write replaced is taken from what that command kept (`NoteIndex.previousVersion`,
// which Kit provides), and its text made again.
//
// A delete with the wrong text would corrupt the table, so it is made only when sure:
// - the bytes read back have the row's hash (content-addressed: the same bytes the row was made
//   from) and are under `Note.sizeLimit` (a larger note's row was made from its head only);
// - the catalog's hash is the hash of what the row was made from (a compaction that found a file
//   changed or gone leaves the row's hash empty: nothing is deleted for it);
// - the text rules are this binary's for every row of the table: `meta.fts_rules` is set when the
//   table is emptied and becomes 'mixed' as soon as a binary under other rules adds a row.
import Foundation
import GRDB
import SheafCore
import SheafFiles

/// An FTS row to delete: its rowid and the text it was made from.
struct FTSRow {
    let rowid: Int64
    let text: [String]
}

extension NoteIndex {
    /// The rules a note's FTS text is made under: Sheaf's own (`IndexedNote.ftsColumns`: any
    /// change to them comes with a schema migration that empties the table), SQLite's (its
    /// tokenizers) and this Foundation's diacritic folding of Greek.
    static func textRules(_ db: Database) throws -> String {
        "text 2, sqlite \(try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?"), greek \(greekFolding)"
    }

    /// The fingerprint of the Greek folding: every Greek letter, folded, hashed.
    private static let greekFolding: String = {
        var probe = String.UnicodeScalarView()
        for value in Array(0x0370...0x03FF) + Array(0x1F00...0x1FFF) {
            if let scalar = Unicode.Scalar(value) { probe.append(scalar) }
        }
        return GitBlobID.of(Array(TextFolding.foldGreek(String(probe)).utf8))
    }()

    /// Whether every FTS row was made under this binary's text rules.
    static func rowsFollowOurRules(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'fts_rules'") == textRules(db)
    }

    /// Before this binary adds FTS rows: under other rules than the table's, the table is mixed.
    static func addingRows(_ db: Database) throws {
        try db.execute(sql: "UPDATE meta SET value = 'mixed' WHERE key = 'fts_rules' AND value != ?", arguments: [textRules(db)])
    }

    /// After the FTS table was emptied: every row from now on is made under this binary's rules.
    static func emptiedRows(_ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_rules', ?)", arguments: [textRules(db)])
    }

    /// The FTS rows of catalog rows `rowids` that can be deleted: those whose version can be
    /// read back (`previousVersion`) with the text made again. The others are not in the answer.
    func ftsRowsToDelete(_ rowids: [Int64]) throws -> [Int64: FTSRow] {
        guard let previousVersion, !rowids.isEmpty else { return [:] }
        let stored: [(rowid: Int64, path: String, hash: String, ftsRowid: Int64)] = try pool.read { db in
            guard try Self.rowsFollowOurRules(db) else { return [] }
            let statement = try db.makeStatement(sql: "SELECT path, hash, fts_rowid FROM notes WHERE rowid = ?")
            return try rowids.compactMap { rowid in
                guard let row = try Row.fetchOne(statement, arguments: [rowid]), let hash = row[1] as String?, !hash.isEmpty else { return nil }
                return (rowid, row[0], hash, row[2])
            }
        }
        // Read back on this thread (the repository handle is not shared), parsed on all cores.
        let versions = stored.compactMap { old in previousVersion(old.hash).map { (old, $0) } }
        let rows = ConcurrentSlots<(Int64, FTSRow)>(count: versions.count)
        DispatchQueue.concurrentPerform(iterations: versions.count) { i in
            let (old, bytes) = versions[i]
            guard bytes.count <= Note.sizeLimit, GitBlobID.of(bytes) == old.hash else { return }
            let text = IndexedNote.ftsColumns(Note(path: old.path, bytes: bytes), path: old.path)
            rows.set(i, (old.rowid, FTSRow(rowid: old.ftsRowid, text: text)))
        }
        return Dictionary(rows.values, uniquingKeysWith: { first, _ in first })
    }

    /// Deletes FTS rows (in the write transaction that replaces or removes their notes); false
    /// when the table's rules changed since they were looked up (they stay as dead rows).
    ///
    /// FTS rows go in rowid order, lowest first, within a transaction: FTS5 holds a transaction's
    /// terms in memory and writes them as one segment at commit, unless a write names a rowid
    /// below the previous write's (or the same rowid twice), which first flushes what it holds
    /// as a segment of its own (sqlite3Fts5IndexBeginWrite, SQLite 3.40): deleted in hash order,
    /// n old rows made about n/2 segments. Every deleted row is older than the rows inserted
    /// after it (counted up from `next_fts_rowid`), so deletes sorted here, then inserts, keep
    /// the order.
    static func delete(_ rows: some Collection<FTSRow>, _ db: Database) throws -> Bool {
        guard !rows.isEmpty else { return true }
        guard try rowsFollowOurRules(db) else { return false }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO note_fts (note_fts, rowid, title, aliases, tags, path, meta, body, cjk)
            VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in rows.sorted(by: { $0.rowid < $1.rowid }) {
            try statement.execute(arguments: StatementArguments([row.rowid] + row.text))
        }
        return true
    }
}
