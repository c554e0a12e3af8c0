// Applying a change set to the index without walking the vault: only the paths it names are
// looked at (one stat each, plus the folders on their way; a path to recheck also with every
// catalog row and every file under it), read and parsed when they are
// notes whose identity differs from the catalog's, and removed when they no longer hold a file
// the walk would list. What is on disk decides, not what the change set claims: a path said to
// be removed that still holds a file (an edit kept over a delete) is indexed, a path said to be
// added that holds nothing is dropped. The catalog rows of other paths are neither read nor
// compared, so the result equals a full scan's as far as the named paths go.
import Foundation
import GRDB
import SheafCore
import SheafFiles

extension NoteIndex {
    /// Brings the catalog rows of the paths `changes` names up to date with the files, without
    /// a walk. `walker` gives the walk's rules (ignore rules, dot-names, symlinks) for each path.
    /// An index that must be rebuilt first (`rebuildReason`) is scanned whole instead. The
    /// report's `changes` says what changed in the catalog.
    ///
    /// `reread`: read every named note even when its size, mtime and inode are the ones the
    /// catalog holds (its content hash then decides). The watcher asks for it: the kernel said
    /// the file was written, and a write of the same size within one tick of the clock, or one
    /// that puts the old mtime back (`cp -p`, `rsync -t`, `touch -r`), leaves the identity alone.
    ///
    /// `namedOnly`: the named paths only, even in an index being built from nothing: their rows
    /// are written and the index stays marked for the scan that fills it, which then reads only
    /// what does not match what was written here (a pull's early pass, IndexWhileWriting). A
    /// damaged index is not rebuilt then: the error is thrown.
    public func apply(_ changes: VaultChangeSet, vault: Vault, walker: VaultWalker,
                      reread: Bool = false, namedOnly: Bool = false) throws(SheafError) -> ScanReport {
        if rebuildReason != nil && !namedOnly { return try scan(vault: vault, walker: walker) }
        if namedOnly {
            // Damage stops an early pass instead of rebuilding mid-update (a scan then would walk
            // a half-written tree with the rules from before it): the update of the whole change
            // set meets the damage after the update and rebuilds from the files as they are then.
            do { return try applyOnce(changes, vault: vault, walker: walker, reread: reread) }
            catch let error as SheafError { throw error }
            catch { throw Self.describe(error, path: path, writing: true) }
        }
        return try recoveringOnce { try applyOnce(changes, vault: vault, walker: walker, reread: reread) }
            afterRebuild: { try scan(vault: vault, walker: walker) }  // rebuilt: every file again
    }

    private func applyOnce(_ changes: VaultChangeSet, vault: Vault, walker: VaultWalker, reread: Bool) throws -> ScanReport {
        let start = Date()
        var report = ScanReport()
        let keys = try pathsToLookAt(changes, walker: walker)
        guard !keys.isEmpty else { return report }
        if rebuildReason != nil { try startFilling() }  // the scan that completes the build ends it
        var noteFiles: [VaultFile] = []
        var otherFiles: [VaultFile] = []
        for file in walker.files(at: keys.map(\.path)) {
            if file.isNote { noteFiles.append(file) } else { otherFiles.append(file) }
        }
        report.scanned = noteFiles.count + otherFiles.count
        let stored = try storedIdentities(of: keys)
        let present = Set(noteFiles.map { PathKey($0.path) })
        let toRead = reread ? noteFiles : noteFiles.filter { file in stored[PathKey(file.path)].map { !$0.matches(file) } ?? true }
        let gone = stored.filter { !present.contains($0.key) }
        try writeNotes(vault: vault, toRead, stored: stored, gone: gone, report: &report, progress: nil) { db, changes in
            let delete = try db.cachedStatement(sql: "DELETE FROM files WHERE path = ?")
            for key in keys { try delete.execute(arguments: [key.path]) }
            try Self.insertFiles(db, otherFiles)
            try Self.recordAttachments(db, otherFiles, changes: &changes, only: keys)
        }
        if try needsCompaction() {
            try compact(vault: vault)
            report.compacted = true
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// The paths `changes` names and, for each path to recheck, every catalog row under it and
    /// every file the walk finds under it now; in byte order.
    private func pathsToLookAt(_ changes: VaultChangeSet, walker: VaultWalker) throws -> [PathKey] {
        guard !changes.recheck.isEmpty else { return changes.paths }
        var keys = Set(changes.paths).union(changes.recheck)
        try pool.read { db in
            let rows = try db.makeStatement(sql: """
                SELECT path FROM notes WHERE path > ?1 AND path < ?2 UNION ALL
                SELECT path FROM files WHERE path > ?1 AND path < ?2 UNION ALL
                SELECT path FROM attachments WHERE path > ?1 AND path < ?2
                """)
            for key in changes.recheck {
                // The paths below `key/` in byte order ('0' follows '/'); below the root, all.
                let bounds: StatementArguments = key.path.isEmpty ? ["", "\u{10FFFF}"] : [key.path + "/", key.path + "0"]
                for path in try String.fetchAll(rows, arguments: bounds) { keys.insert(PathKey(path)) }
            }
        }
        for key in changes.recheck {
            for file in walker.files(under: key.path) { keys.insert(PathKey(file.path)) }
        }
        return keys.sorted { PathBytes.precedes($0.path, $1.path) }
    }

    /// The catalog's file identities of `paths` (those it has a row for).
    func storedIdentities(of paths: [PathKey]) throws -> [PathKey: StoredIdentity] {
        try pool.read { db in
            let statement = try db.makeStatement(sql: "SELECT path, rowid, size, mtime_ns, inode FROM notes WHERE path = ?")
            var stored: [PathKey: StoredIdentity] = [:]
            for key in paths {
                guard let row = try Row.fetchOne(statement, arguments: [key.path]) else { continue }
                stored[PathKey(row[0])] = StoredIdentity(rowid: row[1], size: row[2], mtimeNs: row[3],
                                                         inode: UInt64(bitPattern: row[4]))
            }
            return stored
        }
    }
}
