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

extension NoteIndex {
    /// Brings the catalog up to date with the files. `progress` gets (done, total) of the files read.
    /// A database found damaged on the way is rebuilt from the files, once.
    public func scan(vault: Vault, walker: VaultWalker,
                     progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ScanReport {
        try recoveringOnce { try scanOnce(vault: vault, walker: walker, progress: progress) }
            afterRebuild: { try scanOnce(vault: vault, walker: walker, progress: progress) }
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
        report.files = files

        let stored = try storedSlot.values[0].get()
        var toRead: [VaultFile] = []
        var kept: [Int64] = []  // the catalog rows whose path is still present
        kept.reserveCapacity(stored.count)
        for f in noteFiles {
            guard let old = stored[PathKey(f.path)] else { toRead.append(f); continue }
            kept.append(old.rowid)
            if !old.matches(f) { toRead.append(f) }
        }
        toRead.sort { PathBytes.precedes($0.path, $1.path) }  // warnings and catalog rows in path order, as before
        var gone: [PathKey: StoredIdentity] = [:]
        if kept.count < stored.count {
            // By row, not by path: a set of 10k rowids, not of 10k paths to hash again.
            let present = Set(kept)
            gone = stored.filter { !present.contains($0.value.rowid) }
        }
        let storedFiles = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM files") ?? 0 }
        if toRead.isEmpty && gone.isEmpty && otherFiles.count == storedFiles && rebuildReason == nil,
           try filesUnchanged(otherFiles) {
            report.seconds = Date().timeIntervalSince(start)
            return report  // nothing to write: the no-change walk takes no write lock
        }

        if rebuildReason != nil { try startFilling() }
        let rebuilding = rebuildReason != nil
        try writeNotes(vault: vault, toRead, stored: stored, gone: gone, report: &report, progress: progress) { db, changes in
            try Self.replaceFiles(db, otherFiles)
            try Self.recordAttachments(db, otherFiles, changes: &changes)  // media: AttachmentCatalog.swift
            if rebuilding { try self.clearRebuildMark(db) }
        }
        if report.rebuilt != nil {
            try writer().writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -2000") }
        }
        if try needsCompaction() {
            try compact(vault: vault)
            report.compacted = true
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// Filling an empty index: a crash leaves at worst a damaged file, which is rebuilt. A 64 MB
    /// page cache keeps FTS segment merges off the disk (10k: 3.9 s -> 3.5 s, peak RSS 52 -> 104
    /// MB). The scan that clears the rebuild mark sets both back.
    func startFilling() throws {
        try writer().writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA cache_size = -65536") }
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
}
