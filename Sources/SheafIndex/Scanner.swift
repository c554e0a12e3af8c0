// The incremental scan: a stat walk compared with the catalog. Only files whose identity
// (size, mtime_ns, inode) changed are read; a changed identity with the same content hash only
// updates the identity; the same content at a new path is a rename. Parsing and hashing run on
// all cores; SQLite has one writer and one transaction per batch. Paths are matched by their
// bytes (PathKey): `café.md` in NFC and in NFD are two files, two catalog rows (SQLite's TEXT
// compares bytes too); a name that is not UTF-8 never gets here (the walk skips and names it).
import Foundation
import GRDB
import SheafCore
import SheafFiles

/// What a scan did.
public struct ScanReport: Sendable {
    public var scanned = 0
    public var added = 0
    public var changed = 0
    public var removed = 0
    public var renamed = 0
    public var warnings: [(path: String, message: String)] = []
    /// The walk's own warnings (unreadable folders, links out of the vault), also in `warnings`.
    public var walkWarnings: [VaultWarning] = []
    public var seconds = 0.0
    public var rebuilt: RebuildReason?
    /// The FTS table was rebuilt from the files to drop its dead rows.
    public var compacted = false
    /// The paths whose catalog rows were added, changed, removed or renamed (notes and other
    /// files alike). A note touched but holding the same bytes is not in it; an attachment whose
    /// identity changed is (attachments are not read by a scan).
    public var changes = VaultChangeSet()
}

/// One note read from disk, ready to be written to the catalog.
struct IndexedNote: Sendable {
    let file: VaultFile
    let hash: String
    let note: Note
    /// The FTS columns, made while parsing (on all cores) rather than by the single writer.
    let text: [String]

    init(file: VaultFile, hash: String, note: Note) {
        self.file = file
        self.hash = hash
        self.note = note
        text = Self.ftsColumns(note, path: file.path)
    }

    /// title, aliases, tags, path, meta, body, cjk: Greek folded, tag and path parts as words.
    /// The file name joins the aliases when it differs from the title: people name a note by
    /// either (Obsidian shows the file name), so it ranks as a title does (`title:` still
    /// searches the title alone).
    static func ftsColumns(_ note: Note, path: String) -> [String] {
        let stem = VaultPath.stem(path)
        let names = stem.lowercased() == note.title.lowercased() ? note.aliases : note.aliases + [stem]
        let aliases = names.joined(separator: "\n")
        let meta = note.frontMatter.entries
            .filter { !["id", "title", "tags", "aliases"].contains($0.key) }
            .map { ([$0.key] + $0.value.flattenedText).joined(separator: " ") }
            .joined(separator: "\n")
        return [TextFolding.foldGreek(note.title), TextFolding.foldGreek(aliases),
                note.tags.map { $0.replacingOccurrences(of: "/", with: " ") }.joined(separator: " "),
                VaultPath.withoutNoteExtension(path).replacingOccurrences(of: "/", with: " "),
                TextFolding.foldGreek(meta), TextFolding.foldGreek(note.body),
                CJKBigrams.of([note.title, aliases, meta, note.body])]
    }
}

/// A catalog row's file identity. The content hash is fetched only for the rows a scan compares
/// (`storedHashes`): 100k hash strings allocated and freed were a tenth of a no-change scan.
struct StoredIdentity {
    let rowid: Int64
    let size: Int
    let mtimeNs: Int64
    let inode: UInt64

    func matches(_ f: VaultFile) -> Bool { size == f.size && mtimeNs == f.mtimeNanoseconds && inode == f.inode }
}

extension NoteIndex {
    static let batchSize = 500

    /// Brings the catalog up to date with the files. `progress` gets (done, total) of the files read.
    /// A database found damaged on the way is rebuilt from the files, once.
    public func scan(vault: Vault, walker: VaultWalker,
                     progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ScanReport {
        try recoveringOnce { try scanOnce(vault: vault, walker: walker, progress: progress) }
            afterRebuild: { try scanOnce(vault: vault, walker: walker, progress: progress) }
    }

    /// Runs `attempt`; a database found damaged is started over once and `afterRebuild` runs
    /// instead (a scan of every file). Other failures become errors naming the index.
    func recoveringOnce<T>(_ attempt: () throws -> T, afterRebuild: () throws -> T) throws(SheafError) -> T {
        do {
            return try attempt()
        } catch let error where Self.isCorruption(error) {
            try startOver()
        } catch let error as SheafError {
            throw error
        } catch {
            throw Self.describe(error, path: path, writing: true)
        }
        do {
            return try afterRebuild()
        } catch let error as SheafError {
            throw error
        } catch {
            throw Self.describe(error, path: path, writing: true)
        }
    }

    /// The catalog's file identities by path, read with one statement.
    func storedIdentities() throws -> [PathKey: StoredIdentity] {
        try pool.read { db in
            var stored: [PathKey: StoredIdentity] = [:]
            stored.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") ?? 0)
            let statement = try db.makeStatement(sql: "SELECT path, rowid, size, mtime_ns, inode FROM notes")
            let rows = try Row.fetchCursor(statement)
            while let row = try rows.next() {
                stored[PathKey(row[0])] = StoredIdentity(rowid: row[1], size: row[2], mtimeNs: row[3],
                                                inode: UInt64(bitPattern: row[4]))
            }
            return stored
        }
    }

    /// The content hashes of the catalog rows `rowids`.
    func storedHashes(_ rowids: [Int64]) throws -> [Int64: String] {
        guard !rowids.isEmpty else { return [:] }
        return try pool.read { db in
            let statement = try db.makeStatement(sql: "SELECT hash FROM notes WHERE rowid = ?")
            var hashes: [Int64: String] = [:]
            for rowid in rowids { hashes[rowid] = try String.fetchOne(statement, arguments: [rowid]) }
            return hashes
        }
    }

    private func scanOnce(vault: Vault, walker: VaultWalker, progress: (@Sendable (Int, Int) -> Void)?) throws -> ScanReport {
        let start = Date()
        var report = ScanReport()
        report.rebuilt = rebuildReason
        // The catalog's identities are read on another core while the walk stats the files.
        let storedSlot = ConcurrentSlots<Result<[PathKey: StoredIdentity], any Error>>(count: 1)
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) { storedSlot.set(0, Result { try self.storedIdentities() }) }
        let (files, walkWarnings) = walker.files(sorted: false)
        reading.wait()
        report.warnings = walkWarnings.map { ($0.path, $0.message) }
        report.walkWarnings = walkWarnings
        var noteFiles: [VaultFile] = []
        var otherFiles: [VaultFile] = []
        for f in files { if f.isNote { noteFiles.append(f) } else { otherFiles.append(f) } }
        report.scanned = files.count

        let stored = try storedSlot.values[0].get()
        var toRead: [VaultFile] = []
        var kept = 0  // catalog paths still present
        for f in noteFiles {
            guard let old = stored[PathKey(f.path)] else { toRead.append(f); continue }
            kept += 1
            if !old.matches(f) { toRead.append(f) }
        }
        toRead.sort { PathBytes.precedes($0.path, $1.path) }  // warnings and catalog rows in path order, as before
        var gone: [PathKey: StoredIdentity] = [:]
        if kept < stored.count {
            let present = Set(noteFiles.map { PathKey($0.path) })
            gone = stored.filter { !present.contains($0.key) }
        }
        let storedFiles = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM files") ?? 0 }
        if toRead.isEmpty && gone.isEmpty && otherFiles.count == storedFiles && rebuildReason == nil,
           try filesUnchanged(otherFiles) {
            report.seconds = Date().timeIntervalSince(start)
            return report  // nothing to write: the no-change walk takes no write lock
        }

        if rebuildReason != nil {
            // Filling an empty index: a crash leaves at worst a damaged file, which is rebuilt.
            // A 64 MB page cache keeps FTS segment merges off the disk (10k: 3.9 s -> 3.5 s,
            // peak RSS 52 -> 104 MB).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA cache_size = -65536") }
        }
        let rebuilding = rebuildReason != nil
        try writeNotes(vault: vault, toRead, stored: stored, gone: gone, report: &report, progress: progress) { db, changes in
            try Self.replaceFiles(db, otherFiles)
            try Self.recordAttachments(db, otherFiles, changes: &changes)  // media: AttachmentCatalog.swift
            if rebuilding { try self.clearRebuildMark(db) }
        }
        if report.rebuilt != nil {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -2000") }
        }
        if try needsCompaction() {
            try compact(vault: vault)
            report.compacted = true
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

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
        var writer = try BatchWriter(pool: pool)
        var changes = report.changes
        var counts = (changed: 0, renamed: 0, added: 0)
        var warnings: [(path: String, message: String)] = []
        // Files are read and parsed on all cores one batch ahead of the single writer.
        try Self.readNotes(vault: vault, toRead, progress: progress) { read in
            var batch = BatchWriter.Batch()
            for item in read {
                warnings += item.note.warnings.map { (item.file.path, $0.description) }
                if let old = stored[PathKey(item.file.path)] {
                    if hashes[old.rowid] == item.hash { batch.touches.append((old.rowid, item.file)) }
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
        try pool.write { db in
            let deleted = try Self.delete(goneRows.values, db) ? goneRows.count : 0
            for (_, id) in gone { try db.execute(sql: "DELETE FROM notes WHERE rowid = ?", arguments: [id.rowid]) }
            try db.execute(sql: "UPDATE meta SET value = value + ? WHERE key = 'dead_fts_rows'", arguments: [gone.count - deleted])
            try finally(db, &changes)
        }
        report.changes = changes
    }

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
        try pool.writeWithoutTransaction { db in
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

    /// Whether the non-note files are exactly the ones the catalog holds (their count is equal).
    func filesUnchanged(_ files: [VaultFile]) throws -> Bool {
        guard !files.isEmpty else { return true }
        var byPath: [PathKey: VaultFile] = [:]
        for f in files { byPath[PathKey(f.path)] = f }
        return try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, mtime_ns, inode FROM files")
            while let row = try rows.next() {
                guard let f = byPath[PathKey(row[0])], f.size == row[1] as Int, f.mtimeNanoseconds == row[2] as Int64,
                      f.inode == UInt64(bitPattern: row[3] as Int64) else { return false }
            }
            return true
        }
    }

    /// Reads, hashes and parses files on all cores, a batch at a time; `consume` gets each batch
    /// (on the calling thread, in order) while the next one is being read.
    static func readNotes(vault: Vault, _ files: [VaultFile], progress: (@Sendable (Int, Int) -> Void)?,
                          consume: ([IndexedNote]) throws -> Void) throws {
        let counter = ConcurrentSlots<Int>(count: 0)
        @Sendable func read(_ range: Range<Int>) -> [IndexedNote] {
            let results = ConcurrentSlots<IndexedNote>(count: range.count)
            DispatchQueue.concurrentPerform(iterations: range.count) { i in
                let file = files[range.lowerBound + i]
                // A file that vanished since the walk is simply skipped: the next scan removes it.
                // Read in bounded memory: a note over 10 MB is read only as far as its title.
                let absolute = vault.absolute(file.path)
                guard let read = NoteBytes.read(absolute), let hash = GitBlobID.of(read, absolutePath: absolute) else { return }
                results.set(i, IndexedNote(file: file, hash: hash, note: Note(path: file.path, read: read)))
                if let progress { progress(counter.increment(), files.count) }
            }
            return results.values
        }
        let ranges = stride(from: 0, to: files.count, by: batchSize).map { $0..<min($0 + batchSize, files.count) }
        guard !ranges.isEmpty else { return }
        var current = read(ranges[0])
        for next in ranges.dropFirst() {
            let ahead = ConcurrentSlots<[IndexedNote]>(count: 1)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { ahead.set(0, read(next)) }
            defer { group.wait() }
            try consume(current)
            group.wait()
            current = ahead.values.first ?? []
        }
        try consume(current)
    }

    /// The key a link target is looked up by: its file name, lower-cased, without a note extension.
    static func linkKey(_ target: String) -> String {
        VaultPath.withoutNoteExtension(VaultPath.fileName(target)).lowercased()
    }

    static func replaceFiles(_ db: Database, _ files: [VaultFile]) throws {
        try db.execute(sql: "DELETE FROM files")
        try insertFiles(db, files)
    }

    static func insertFiles(_ db: Database, _ files: [VaultFile]) throws {
        let statement = try db.makeStatement(sql: "INSERT INTO files (path, name_key, size, mtime_ns, inode) VALUES (?, ?, ?, ?, ?)")
        for f in files {
            try statement.execute(arguments: [f.path, VaultPath.fileName(f.path).lowercased(), f.size, f.mtimeNanoseconds,
                                              Int64(bitPattern: f.inode)])
        }
    }
}

/// Writes parsed notes into the catalog and the FTS table, one transaction per batch, with
/// prepared statements and FTS rowids counted here (stored in `meta` once per batch).
struct BatchWriter {
    struct Batch {
        /// Same bytes, new identity: only the identity is updated.
        var touches: [(Int64, VaultFile)] = []
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
            let touch = try db.cachedStatement(sql: "UPDATE notes SET size = ?, mtime_ns = ?, inode = ? WHERE rowid = ?")
            for (rowid, file) in batch.touches {
                try touch.execute(arguments: [file.size, file.mtimeNanoseconds, recordedInode(file), rowid])
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
        let mtime = Double(item.file.mtimeNanoseconds) / 1e9
        let aliases = note.aliases.joined(separator: "\n")
        let values: [DatabaseValueConvertible?] = [
            item.file.path, VaultPath.folder(item.file.path), note.id, note.title, aliases,
            (note.created?.timeIntervalSince1970 ?? mtime), (note.modified?.timeIntervalSince1970 ?? mtime),
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
            for tag in note.tags { try insertTag.execute(arguments: [noteRow, tag, tag.lowercased()]) }
        }
        let insertLink = try db.cachedStatement(sql: "INSERT INTO links (note, kind, target, target_key) VALUES (?, ?, ?, ?)")
        for link in note.links where !link.target.isEmpty {
            try insertLink.execute(arguments: [noteRow, link.kind.rawValue, link.target, NoteIndex.linkKey(link.target)])
        }
        try insertText(db, item, ftsRowid: ftsRowid)
    }

    /// Writes a note's FTS row.
    static func insertText(_ db: Database, _ item: IndexedNote, ftsRowid: Int64) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO note_fts (rowid, title, aliases, tags, path, meta, body, cjk) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        try statement.execute(arguments: StatementArguments([ftsRowid] + item.text))
    }
}
