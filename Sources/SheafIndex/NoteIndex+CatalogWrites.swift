// Writing what a scan or an applied change set found: notes added, changed, renamed (same hash at
// a new path keeps its rowid) or removed, and the non-note files' rows. The scan and
// `apply` (NoteIndex+ChangeSet.swift) both write through here; `BatchWriter` does the statements.
import GRDB
import SheafCore

extension NoteIndex {
    /// Reads `toRead` (on all cores), writes them to the catalog against the `stored` rows of
    /// their paths (same hash: identity only; another path's `gone` row of the same hash: a
    /// rename, which keeps its rowid), deletes the `gone` rows left, then runs `finally` in the
    /// last write transaction. What changed is recorded in `report` (counts and `changes`).
    func writeNotes(vault: Vault, _ toRead: [VaultFile], stored: [PathKey: StoredIdentity],
                    gone initiallyGone: [PathKey: StoredIdentity], report: inout ScanReport,
                    progress: (@Sendable (Int, Int) -> Void)?,
                    finally: (Database, inout VaultChangeSet) throws -> Void) throws {
        var gone = initiallyGone
        var goneByHash: [String: [PathKey]] = [:]
        let hashes = try storedHashes(toRead.compactMap { stored[PathKey($0.path)]?.rowid } + gone.values.map(\.rowid))
        for (path, id) in gone { goneByHash[hashes[id.rowid] ?? "", default: []].append(path) }
        // Several gone notes with one hash: the rename pairs them in byte order, whatever the hashing.
        for key in goneByHash.keys { goneByHash[key]!.sort { PathBytes.precedes($1.path, $0.path) } }
        var writer = try BatchWriter(pool: try self.writer())
        var changes = report.changes
        var counts = (changed: 0, renamed: 0, added: 0)
        var warnings: [(path: String, message: String)] = []
        // Files are read and parsed on all cores one batch ahead of the single writer.
        try Self.readNotes(vault: vault, toRead, progress: progress) { read in
            var batch = BatchWriter.Batch()
            for item in read {
                warnings += item.note.warnings.map { (item.file.path, $0.description) }
                if let old = stored[PathKey(item.file.path)] {
                    if hashes[old.rowid] == item.hash { batch.touches.append((old.rowid, item)) }
                    else { batch.writes.append((old.rowid, item)); counts.changed += 1; changes.change(item.file.path) }
                } else if let oldPath = goneByHash[item.hash]?.popLast(), let old = gone.removeValue(forKey: oldPath) {
                    // Renamed notes keep their rowid; their FTS row is replaced because the path is indexed.
                    batch.writes.append((old.rowid, item))
                    counts.renamed += 1
                    changes.rename(from: oldPath.path, to: item.file.path)
                } else {
                    batch.writes.append((nil, item))
                    counts.added += 1
                    changes.add(item.file.path)
                }
            }
            // The FTS rows the rewritten notes leave: deleted when their text can be made again.
            try writer.write(batch, deleting: try ftsRowsToDelete(batch.writes.compactMap(\.0)))
        }
        report.warnings += warnings
        report.changed += counts.changed
        report.renamed += counts.renamed
        report.added += counts.added
        report.removed += gone.count
        for key in gone.keys { changes.remove(key.path) }
        let goneRows = try ftsRowsToDelete(gone.values.map(\.rowid))
        try self.writer().write { db in
            let deleted = try Self.delete(goneRows.values, db) ? goneRows.count : 0
            for (_, id) in gone { try db.execute(sql: "DELETE FROM notes WHERE rowid = ?", arguments: [id.rowid]) }
            try db.execute(sql: "UPDATE meta SET value = value + ? WHERE key = 'dead_fts_rows'", arguments: [gone.count - deleted])
            try finally(db, &changes)
        }
        report.changes = changes
    }

    static func replaceFiles(_ db: Database, _ files: [VaultFile]) throws {
        try db.execute(sql: "DELETE FROM files")
        try insertFiles(db, files)
    }

    static func insertFiles(_ db: Database, _ files: [VaultFile]) throws {
        let statement = try db.makeStatement(sql: "INSERT INTO files (path, name_key, size, mtime_ns, inode) VALUES (?, ?, ?, ?, ?)")
        for f in files {
            try statement.execute(arguments: [f.path, nameKey(f.path), f.size, f.mtimeNanoseconds,
                                              Int64(bitPattern: f.inode)])
        }
    }
}
