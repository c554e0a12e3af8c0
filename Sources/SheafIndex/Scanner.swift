// The incremental scan: a stat walk compared with the catalog. Only files whose identity
// (size, mtime_ns, inode) changed are read; a changed identity with the same content hash only
// updates the identity; the same content at a new path is a rename. Parsing and hashing run on
// all cores; SQLite has one writer and one transaction per batch.
import Foundation
import GRDB
import SheafCore

/// What a scan did.
public struct ScanReport: Sendable {
    public var scanned = 0
    public var added = 0
    public var changed = 0
    public var removed = 0
    public var renamed = 0
    public var warnings: [(path: String, message: String)] = []
    public var seconds = 0.0
    public var rebuilt: RebuildReason?
}

/// One note read from disk, ready to be written to the catalog.
struct IndexedNote: Sendable {
    let file: VaultFile
    let hash: String
    let note: Note
}

struct StoredIdentity {
    let rowid: Int64
    let size: Int
    let mtimeNs: Int64
    let inode: UInt64
    let hash: String

    func matches(_ f: VaultFile) -> Bool { size == f.size && mtimeNs == f.mtimeNanoseconds && inode == f.inode }
}

extension NoteIndex {
    static let batchSize = 500

    /// Brings the catalog up to date with the files. `progress` gets (done, total) of the files read.
    public func scan(vault: Vault, walker: VaultWalker,
                     progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ScanReport {
        let start = Date()
        var report = ScanReport()
        report.rebuilt = rebuildReason
        let (files, walkWarnings) = walker.files()
        report.warnings = walkWarnings.map { ($0.path, $0.message) }
        let noteFiles = files.filter(\.isNote)
        let otherFiles = files.filter { !$0.isNote }
        report.scanned = files.count

        do {
            var stored: [String: StoredIdentity] = [:]
            try pool.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT rowid, path, size, mtime_ns, inode, hash FROM notes")
                while let row = try rows.next() {
                    stored[row["path"]] = StoredIdentity(rowid: row["rowid"], size: row["size"], mtimeNs: row["mtime_ns"],
                                                         inode: UInt64(bitPattern: row["inode"]), hash: row["hash"])
                }
            }
            let present = Set(noteFiles.map(\.path))
            let toRead = noteFiles.filter { f in stored[f.path].map { !$0.matches(f) } ?? true }
            var gone = stored.filter { !present.contains($0.key) }

            let read = Self.readNotes(vault: vault, toRead, progress: progress)
            var writes: [IndexedNote] = []
            var touches: [(Int64, VaultFile)] = []
            var renames: [(Int64, IndexedNote)] = []
            var goneByHash: [String: [String]] = [:]
            for (path, id) in gone { goneByHash[id.hash, default: []].append(path) }
            for item in read {
                if let old = stored[item.file.path] {
                    if old.hash == item.hash { touches.append((old.rowid, item.file)) } else { writes.append(item); report.changed += 1 }
                } else if let oldPath = goneByHash[item.hash]?.popLast(), let old = gone.removeValue(forKey: oldPath) {
                    renames.append((old.rowid, item))
                    report.renamed += 1
                } else {
                    writes.append(item)
                    report.added += 1
                }
            }
            report.removed = gone.count

            // Warnings of every note read this time (unchanged notes were reported before).
            for item in read { report.warnings += item.note.warnings.map { (item.file.path, $0.description) } }

            try pool.write { db in
                for (rowid, file) in touches {
                    try db.execute(sql: "UPDATE notes SET size = ?, mtime_ns = ?, inode = ? WHERE rowid = ?",
                                   arguments: [file.size, file.mtimeNanoseconds, Int64(bitPattern: file.inode), rowid])
                }
                for (_, id) in gone { try db.execute(sql: "DELETE FROM notes WHERE rowid = ?", arguments: [id.rowid]) }
                try db.execute(sql: "UPDATE meta SET value = value + ? WHERE key = 'dead_fts_rows'", arguments: [gone.count])
                try Self.replaceFiles(db, otherFiles)
                try Self.recordAttachments(db, otherFiles)  // media: AttachmentCatalog.swift
            }
            // Renamed notes keep their rowid; their FTS row is replaced because the path is indexed.
            for (rowid, item) in renames { try pool.write { db in try Self.store(db, item, replacing: rowid) } }
            var i = 0
            while i < writes.count {
                let batch = writes[i..<min(i + Self.batchSize, writes.count)]
                try pool.write { db in
                    for item in batch {
                        let existing = try Int64.fetchOne(db, sql: "SELECT rowid FROM notes WHERE path = ?", arguments: [item.file.path])
                        try Self.store(db, item, replacing: existing)
                    }
                }
                i += Self.batchSize
            }
            if rebuildReason != nil { try pool.write { db in try clearRebuildMark(db) } }
        } catch let error as SheafError {
            throw error
        } catch {
            throw SheafError("cannot update the index", path: path, cause: "\(error)",
                             hint: "run `sheaf index --rebuild`")
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// Reads, hashes and parses files on all cores.
    static func readNotes(vault: Vault, _ files: [VaultFile], progress: (@Sendable (Int, Int) -> Void)?) -> [IndexedNote] {
        let results = ConcurrentSlots<IndexedNote>(count: files.count)
        let counter = ConcurrentSlots<Int>(count: 0)
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let file = files[i]
            // A file that vanished since the walk is simply skipped: the next scan removes it.
            guard let data = FileManager.default.contents(atPath: vault.absolute(file.path)) else { return }
            let bytes = [UInt8](data)
            results.set(i, IndexedNote(file: file, hash: ContentHash.of(bytes), note: Note(path: file.path, bytes: bytes)))
            if let progress { progress(counter.increment(), files.count) }
        }
        return results.values
    }

    /// Writes one note's catalog rows and a new FTS row; the old FTS row, if any, becomes dead.
    static func store(_ db: Database, _ item: IndexedNote, replacing rowid: Int64?) throws {
        let note = item.note
        let mtime = Double(item.file.mtimeNanoseconds) / 1e9
        let ftsRowid = (try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'next_fts_rowid'")) ?? 1
        try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('next_fts_rowid', ?)", arguments: [ftsRowid + 1])
        let values: [DatabaseValueConvertible?] = [
            item.file.path, VaultPath.folder(item.file.path), note.id, note.title, note.aliases.joined(separator: "\n"),
            (note.created?.timeIntervalSince1970 ?? mtime), (note.modified?.timeIntervalSince1970 ?? mtime),
            item.file.size, item.file.mtimeNanoseconds, Int64(bitPattern: item.file.inode), item.hash, note.snippet,
            note.warnings.map(\.description).joined(separator: "\n"), ConflictName.isConflict(item.file.path) ? 1 : 0, ftsRowid,
        ]
        let noteRow: Int64
        if let rowid {
            try db.execute(sql: """
                UPDATE notes SET path = ?, folder = ?, note_id = ?, title = ?, aliases = ?, created = ?, modified = ?,
                    size = ?, mtime_ns = ?, inode = ?, hash = ?, snippet = ?, warnings = ?, is_conflict = ?, fts_rowid = ?
                WHERE rowid = ?
                """, arguments: StatementArguments(values + [rowid]))
            try db.execute(sql: "DELETE FROM tags WHERE note = ?", arguments: [rowid])
            try db.execute(sql: "DELETE FROM links WHERE note = ?", arguments: [rowid])
            try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'dead_fts_rows'")
            noteRow = rowid
        } else {
            try db.execute(sql: """
                INSERT INTO notes (path, folder, note_id, title, aliases, created, modified, size, mtime_ns, inode,
                    hash, snippet, warnings, is_conflict, fts_rowid)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments(values))
            noteRow = db.lastInsertedRowID
        }
        for tag in note.tags {
            try db.execute(sql: "INSERT INTO tags (note, tag, key) VALUES (?, ?, ?)",
                           arguments: [noteRow, tag, tag.lowercased()])
        }
        for link in note.links where !link.target.isEmpty {
            try db.execute(sql: "INSERT INTO links (note, kind, target, target_key) VALUES (?, ?, ?, ?)",
                           arguments: [noteRow, link.kind.rawValue, link.target, Self.linkKey(link.target)])
        }
        let meta = note.frontMatter.entries
            .filter { !["id", "title", "tags", "aliases"].contains($0.key) }
            .map { ([$0.key] + $0.value.flattenedText).joined(separator: " ") }
            .joined(separator: "\n")
        let cjk = CJKBigrams.of([note.title, note.aliases.joined(separator: " "), meta, note.body])
        try db.execute(sql: "INSERT INTO note_fts (rowid, title, aliases, tags, path, meta, body, cjk) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       arguments: [ftsRowid, TextFolding.foldGreek(note.title), TextFolding.foldGreek(note.aliases.joined(separator: " ")),
                                   note.tags.map { $0.replacingOccurrences(of: "/", with: " ") }.joined(separator: " "),
                                   VaultPath.withoutNoteExtension(item.file.path).replacingOccurrences(of: "/", with: " "),
                                   TextFolding.foldGreek(meta), TextFolding.foldGreek(note.body), cjk])
    }

    /// The key a link target is looked up by: its file name, lower-cased, without a note extension.
    static func linkKey(_ target: String) -> String {
        VaultPath.withoutNoteExtension(VaultPath.fileName(target)).lowercased()
    }

    static func replaceFiles(_ db: Database, _ files: [VaultFile]) throws {
        try db.execute(sql: "DELETE FROM files")
        let statement = try db.makeStatement(sql: "INSERT INTO files (path, name_key, size, mtime_ns, inode) VALUES (?, ?, ?, ?, ?)")
        for f in files {
            try statement.execute(arguments: [f.path, VaultPath.fileName(f.path).lowercased(), f.size, f.mtimeNanoseconds,
                                              Int64(bitPattern: f.inode)])
        }
    }
}
