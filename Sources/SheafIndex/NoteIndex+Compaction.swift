// Compaction: a contentless FTS table cannot delete a row whose text is gone, so rows of edited,
// renamed and removed notes stay dead until their count passes a quarter of the live ones; then
// the table is emptied and every note's text indexed again from its file.
import GRDB
import SheafCore

extension NoteIndex {
    /// Whether dead FTS rows (of edited, renamed and removed notes whose old text was not at hand,
    /// FTSDeletes.swift) passed a quarter of the live ones.
    func needsCompaction() throws -> Bool {
        try pool.read { db in
            let dead = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'") ?? 0
            let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") ?? 0
            return dead >= compactionMinimum && dead * 4 > live
        }
    }

    /// Empties the contentless FTS table ('delete-all') and indexes every note's text again from
    /// its file, at the FTS rowid the catalog already holds. One transaction: readers see the old
    /// table until it commits. The caller holds the vault's lock, as for any scan. A note whose
    /// file changed since it was indexed (or is gone) keeps its catalog row until the next scan,
    /// with an empty hash: its FTS row is no longer made from the version the hash names.
    func compact(vault: Vault) throws {
        var stored: [PathKey: (ftsRowid: Int64, hash: String?)] = [:]
        let files = try pool.read { db in
            var files: [VaultFile] = []
            // In FTS rowid order: rows written below the previous one each flush a segment (`delete`).
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, mtime_ns, inode, fts_rowid, hash FROM notes ORDER BY fts_rowid")
            while let row = try rows.next() {
                files.append(VaultFile(path: row[0], size: row[1], mtimeNanoseconds: row[2], inode: UInt64(bitPattern: row[3])))
                stored[PathKey(row[0])] = (row[4], row[5])
            }
            return files
        }
        try writer().writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO note_fts(note_fts) VALUES('delete-all')")
                try Self.emptiedRows(db)
                var remade = Set<PathKey>()
                let stale = try db.makeStatement(sql: "UPDATE notes SET hash = '' WHERE path = ?")
                try Self.readNotes(vault: vault, files, progress: nil) { batch in
                    for item in batch {
                        let key = PathKey(item.file.path)
                        try BatchWriter.insertText(db, item, ftsRowid: stored[key]!.ftsRowid)
                        if item.hash == stored[key]!.hash { remade.insert(key) }
                    }
                }
                for file in files where !remade.contains(PathKey(file.path)) { try stale.execute(arguments: [file.path]) }
                try db.execute(sql: "UPDATE meta SET value = 0 WHERE key = 'dead_fts_rows'")
                return .commit
            }
        }
    }
}
