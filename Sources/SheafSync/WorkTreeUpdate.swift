// Moving the work tree from one commit to another, then the index and the branch. First the
// whole change is checked (every path through the vault-path guard; a folder that must become a
// file but holds files git does not track stops the update before anything is written). Then a
// journal (`from` and `to`) is written, files are written one by one through `VaultFileWriter`
// (a file the user saves meanwhile is merged, never overwritten), and the journal is removed last.
// A process killed half way leaves the journal, and the next command completes the update: every
// step is idempotent. An update that fails is rolled back (journal removed, branch not moved),
// so a vault can never be stuck replaying an update that cannot finish.
// An update from no commit into a folder that holds no files yet (a clone) writes through
// `FreshFolderWriter` instead: no user file can be there to protect, so files are created where
// nothing is and the disk is waited for once, before the branch moves. Its journal says `fresh`,
// and its replay after a crash takes a file that is a torn copy of the commit's for its own.
import Foundation
import SheafCore
import SheafFiles
import SheafGit

public struct WorkTreeUpdate {
    let repository: Repository
    let workTree: String
    let journal: String
    /// Paths whose file stays on disk when the commit no longer holds it: the files of a share
    /// the vault's tree handed over to the share's own repository (deleting them here would
    /// delete the share's notes). They pass to the share; nothing else is skipped.
    public var keepOnDisk: (@Sendable (String) -> Bool)?
    /// Called with each path as soon as its file holds the commit's bytes (written now, or found
    /// so), on the updating thread: what lets the index read the files while the rest are being
    /// written. The update's result still lists every path.
    public var onWritten: (@Sendable (String) -> Void)?

    public init(repository: Repository, workTree: String, journal: String) {
        self.repository = repository
        self.workTree = workTree
        self.journal = journal
    }

    public struct Result: Sendable {
        public var written: [String] = []
        /// Paths whose local edit (made before or during the update) was kept and merged in.
        public var keptLocalEdits: [String] = []
        /// Paths not written because the way there is unsafe here (a folder on the way is a symlink).
        public var refused: [RefusedPath] = []
        /// Submodules (gitlinks) of the commit: kept in git, not written here.
        public var gitlinks: [String] = []
        /// The vault paths the update moved from one commit to the other (gitlinks left out):
        /// what the index and the thumbnails take, so nothing walks the vault after a pull.
        public var changes = VaultChangeSet()
    }

    /// The change set of a commit diff: every path whose file the update adds, changes, removes
    /// or moves. Gitlinks are folders git keeps, not vault files, and are left out.
    /// A path `kept` says stays on disk is not removed (its file is still there).
    public static func changeSet(of changes: [TreeChange], keeping kept: ((String) -> Bool)? = nil) -> VaultChangeSet {
        var set = VaultChangeSet()
        for change in changes {
            let keptOld = change.oldFile != nil && kept?(change.oldPath) == true
            let old = keptOld ? nil : change.oldFile.flatMap { $0.mode == 0o160000 ? nil : $0 }
            let new = change.newFile.flatMap { $0.mode == 0o160000 ? nil : $0 }
            switch (old, new) {
            case (nil, nil): continue
            case (nil, _?): set.add(change.path)
            case (_?, nil): set.remove(change.oldPath)
            case (_?, _?) where change.kind == .renamed && change.oldPath != change.path:
                set.rename(from: change.oldPath, to: change.path)
            case (_?, _?): set.change(change.path)
            }
        }
        return set
    }

    /// Moves the work tree, `.git/index` and the current branch from `from` (nil: unborn) to `to`.
    @discardableResult
    public func run(from: String?, to: String) throws -> Result {
        try run(from: from, to: to, fresh: from == nil && FreshFolderWriter.holdsNoFiles(workTree))
    }

    private func run(from: String?, to: String, fresh: Bool) throws -> Result {
        let changes = try repository.changes(from: from, to: to)
        try checkObstacles(changes)
        try AtomicFile.write((from ?? "") + "\n" + to + "\n" + (fresh ? "fresh\n" : ""), to: journal)
        do {
            var result = try apply(changes, from: from, to: to, fresh: fresh)
            result.changes = Self.changeSet(of: changes, keeping: keepOnDisk)
            let head = try repository.head()?.id
            if head != to { try repository.moveBranch(to: to, expected: from, message: "sheaf: update to \(to.prefix(7))") }
            try? FileManager.default.removeItem(atPath: journal)
            return result
        } catch {
            try? FileManager.default.removeItem(atPath: journal)  // roll back: the branch stays at `from`
            throw error
        }
    }

    /// Completes an update a killed process left behind. Returns false when there was none.
    /// An update that cannot complete is rolled back and its error thrown once.
    public func resume() throws -> Bool {
        guard let text = try? String(contentsOfFile: journal, encoding: .utf8) else { return false }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[1].isEmpty else {
            try? FileManager.default.removeItem(atPath: journal)
            return false
        }
        let from = parts[0].isEmpty ? nil : parts[0], to = parts[1]
        let head = try? repository.head()?.id
        guard head == from || head == to else {
            // The branch moved some other way (plain git): the journal no longer applies.
            try? FileManager.default.removeItem(atPath: journal)
            return false
        }
        do {
            _ = try run(from: from, to: to, fresh: parts.count > 2 && parts[2] == "fresh")
        } catch {
            try? FileManager.default.removeItem(atPath: journal)
            throw error
        }
        return true
    }

    /// A folder where the update must write a file, holding files the update does not delete
    /// (ignored or untracked ones): nothing may be written; the user moves them first.
    private func checkObstacles(_ changes: [TreeChange]) throws {
        // By bytes: an untracked twin (`café.md` in NFD) of a file the update deletes is in the way.
        let deleted = Set(changes.filter { $0.kind == .deleted || $0.kind == .renamed }.map { PathKey($0.oldPath) })
        for change in changes where change.kind != .deleted {
            guard let new = change.newFile, new.mode != 0o160000 else { continue }
            switch VaultPathGuard.check(change.path, in: workTree) {
            case .success: break
            case .failure(.throughSymlink(let folder)), .failure(.notAFolder(let folder)):
                // A file or symlink of this vault where the commit needs a folder.
                guard !deleted.contains(PathKey(folder)) else { continue }
                throw SheafError("the remote has a folder where this vault has a file or a symlink", path: folder,
                                 cause: "the commit writes \(change.path)",
                                 hint: "move \(folder) elsewhere (or commit its removal), then sync again; nothing was changed")
            case .failure: continue
            }
            var info = stat()
            guard lstat(workTree + "/" + change.path, &info) == 0 else { continue }
            if let kind = Self.special(info.st_mode) {
                // Not a file git could have written: never opened (a FIFO blocks the opener).
                throw SheafError("this vault has a \(kind) where the remote has a file", path: change.path,
                                 hint: "move the \(kind) elsewhere, then sync again; nothing was changed")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else { continue }
            let kept = filesBelow(change.path).filter { !deleted.contains(PathKey($0)) }
            if let first = kept.first {
                throw SheafError("the remote turned a folder into a file, but the folder holds files git does not track",
                                 path: change.path, cause: "for example \(first) (\(kept.count) in all)",
                                 hint: "move those files elsewhere, then sync again; nothing was changed")
            }
        }
    }

    /// What a file that is neither a regular file, a symlink nor a folder is, by its mode.
    static func special(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: "FIFO"
        case S_IFSOCK: "socket"
        case S_IFCHR, S_IFBLK: "device file"
        default: nil
        }
    }

    private func filesBelow(_ folder: String) -> [String] {
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: workTree + "/" + folder) else { return [] }
        return names.compactMap { name in
            var info = stat()
            let path = folder + "/" + name
            guard lstat(workTree + "/" + path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
            return path
        }.sorted()
    }

    private func apply(_ changes: [TreeChange], from: String?, to: String, fresh: Bool) throws -> Result {
        var result = Result()
        let writer = VaultFileWriter.forNotes(root: workTree)
        let freshWriter = fresh ? FreshFolderWriter(root: workTree) : nil
        // Every file the update replaces or deletes is read first (an edit made here must not be
        // lost): the disk reads of those not in memory are started together now, not one by one.
        VaultFileWriter.readAhead(changes.compactMap { change in
            guard change.oldFile != nil, case .success(let path) = VaultPathGuard.check(change.oldPath, in: workTree) else { return nil }
            return path
        }, root: workTree)
        func guarded(_ path: String) -> SafePath? {
            switch VaultPathGuard.check(path, in: workTree) {
            case .success(let safe): return safe
            case .failure(let refusal):
                result.refused.append(RefusedPath(path: path, reason: refusal.description))
                return nil
            }
        }
        // Deletions first, so a rename onto a path that changes case works, then writes.
        for change in changes where change.kind == .deleted || change.kind == .renamed {
            guard let old = change.oldFile, old.mode != 0o160000, let path = guarded(change.oldPath) else { continue }
            if keepOnDisk?(path.path) == true { continue }
            if old.isSymlink {
                if isSymlink(path, to: try repository.blobBytes(old.blob)) { unlink(workTree + "/" + path.path) }
                removeEmptyFolders(above: path.path)
                continue
            }
            guard let onDisk = FileIdentity.of(path: workTree + "/" + path.path), onDisk.isRegularFile else { continue }
            // The file is compared by its blob id, hashed in chunks (it may be huge).
            let state = FileState(bytes: nil, identity: onDisk)
            if try Repository.blobID(ofFile: workTree + "/" + path.path) == old.blob, try writer.remove(path, base: state) {
                removeEmptyFolders(above: path.path)
            } else {
                result.keptLocalEdits.append(path.path)  // edited here: an edit beats a delete
            }
        }
        // Files are written ahead in windows (VaultFileWriter.Prepared): the disk writes of a
        // window go out together, and each file is still synced before it is swapped in.
        let writes = changes.filter { $0.kind != .deleted }
        // Keyed by position, never by path: Swift compares strings by canonical equivalence, so
        // two files whose names differ only in Unicode normalization would share one key.
        var ahead: [Int: VaultFileWriter.Prepared] = [:]
        var preparedUpTo = 0
        for (position, change) in writes.enumerated() {
            if let freshWriter, let new = change.newFile, new.mode != 0o160000, !new.isSymlink,
               try repository.blobSize(new.blob) <= Note.sizeLimit,
               try freshWriter.create(change.path, repository.blobBytes(new.blob), mode: new.isExecutable ? 0o755 : 0o644) {
                wrote(change.path, &result)
                continue
            }
            if freshWriter == nil, position >= preparedUpTo {
                preparedUpTo = min(writes.count, position + Self.writeAheadWindow)
                for index in position..<preparedUpTo {
                    // A file that cannot be written ahead is written by the loop as before (and fails there, if it must).
                    if let prepared = try? prepare(writes[index], writer: writer) { ahead[index] = prepared }
                }
            }
            let prepared = ahead.removeValue(forKey: position)
            guard let new = change.newFile else { continue }
            if new.mode == 0o160000 {
                result.gitlinks.append(change.path)
                if let path = guarded(change.path) { try? VaultPathGuard.makeFolders(of: path, in: workTree); mkdir(workTree + "/" + path.path, 0o755) }
                continue
            }
            guard let path = guarded(change.path) else { continue }
            if new.isSymlink {
                try writeSymlink(path, target: try repository.blobBytes(new.blob), replacing: change.oldFile, result: &result)
                continue
            }
            let expected = change.kind == .added ? nil : change.oldFile
            let onDisk = FileIdentity.of(path: workTree + "/" + path.path)
            // (A file written ahead was checked against the size limit then.)
            if try (prepared == nil && repository.blobSize(new.blob) > Note.sizeLimit) || (onDisk?.size ?? 0) > Int64(Note.sizeLimit) {
                try updateLarge(path, to: new, expected: expected, onDisk: onDisk, result: &result)
                continue
            }
            let target = try prepared?.bytes ?? repository.blobBytes(new.blob)
            let state = try writer.read(path)
            if let disk = state.bytes {
                let diskID = try Repository.blobID(of: disk)
                if diskID == new.blob { wrote(path.path, &result); continue }
                // A fresh update's replay: what a crash left of its own write is not a save.
                let torn = fresh && expected == nil && FreshFolderWriter.isTornCopy(disk, of: target)
                if diskID != expected?.blob, !torn {
                    // Changed by the user before the update reached it: merge, the user's side first.
                    let base = try expected.map { (f) throws in try repository.blobBytes(f.blob) }
                    let merged = try NoteMerge.merge(base: base, ours: disk, theirs: target, isNote: VaultPath.isNote(path.path))
                    try writer.replace(path, base: state, with: merged.merged)
                    result.keptLocalEdits.append(path.path)
                    continue
                }
            }
            let outcome = try writer.replace(path, base: state, with: target, mode: new.isExecutable ? 0o755 : nil,
                                             prepared: prepared)
            if outcome == .reconciled { result.keptLocalEdits.append(path.path) } else { wrote(path.path, &result) }
        }
        try writer.finish()
        try freshWriter?.sync()
        for path in writer.reconciledPaths where !result.keptLocalEdits.contains(where: { PathBytes.same($0, path) }) {
            result.keptLocalEdits.append(path)
            result.written.removeAll { PathBytes.same($0, path) }
        }
        try repository.resetIndex(toCommit: to, from: from, changes: changes, refreshing: result.written)
        return result
    }

    private func wrote(_ path: String, _ result: inout Result) {
        result.written.append(path)
        onWritten?(path)
    }

    /// How many files are written ahead at a time (bounded memory: each is at most a note's size).
    static let writeAheadWindow = 64

    /// The commit's bytes for `change` written ahead, when it is a plain file both in the commit
    /// and on disk (or absent), within the note size limit, on a path the guard accepts; nil
    /// otherwise (the write loop then handles it as before). The mode is the one `replace` will
    /// give the file.
    private func prepare(_ change: TreeChange, writer: VaultFileWriter) throws -> VaultFileWriter.Prepared? {
        guard let new = change.newFile, new.mode != 0o160000, !new.isSymlink,
              case .success(let path) = VaultPathGuard.check(change.path, in: workTree),
              try repository.blobSize(new.blob) <= Note.sizeLimit else { return nil }
        let onDisk = FileIdentity.of(path: workTree + "/" + path.path)
        if let onDisk, !onDisk.isRegularFile || onDisk.size > Int64(Note.sizeLimit) { return nil }
        let mode: mode_t = new.isExecutable ? 0o755 : onDisk.map { mode_t($0.mode) } ?? 0o644
        return try writer.prepare(path, try repository.blobBytes(new.blob), mode: mode)
    }

    /// A file over the note size limit on either side is never held in memory: compared by its
    /// blob id (hashed in chunks), written by streaming the blob, and never merged by content:
    /// a large file the user changed keeps their version (the remote's is in the merge commit).
    private func updateLarge(_ path: SafePath, to new: TreeFile, expected: TreeFile?, onDisk: FileIdentity?,
                             result: inout Result) throws {
        let full = workTree + "/" + path.path
        if let onDisk {
            guard onDisk.isRegularFile else { result.keptLocalEdits.append(path.path); return }
            let diskID = try Repository.blobID(ofFile: full)
            if diskID == new.blob { wrote(path.path, &result); return }
            guard diskID == expected?.blob else { result.keptLocalEdits.append(path.path); return }
        }
        try VaultPathGuard.makeFolders(of: path, in: workTree)
        let temp = VaultFileWriter.temporaryName(beside: full)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, new.isExecutable ? 0o755 : 0o644)
        guard fd >= 0 else { throw SheafError("cannot write", path: path.path, cause: String(cString: strerror(errno))) }
        do {
            try repository.writeBlob(new.blob, toFileDescriptor: fd)
            guard fsync(fd) == 0 else { throw SheafError("cannot write", path: path.path, cause: String(cString: strerror(errno))) }
        } catch {
            close(fd); unlink(temp)
            throw error
        }
        close(fd)
        // The check right before the rename: a save meanwhile keeps the user's file.
        let now = FileIdentity.of(path: full)
        guard onDisk.map({ $0.matches(now) }) ?? (now == nil) else {
            unlink(temp)
            result.keptLocalEdits.append(path.path)
            return
        }
        guard rename(temp, full) == 0 else {
            let cause = String(cString: strerror(errno))
            unlink(temp)
            throw SheafError("cannot replace", path: path.path, cause: cause)
        }
        wrote(path.path, &result)
    }

    private func isSymlink(_ path: SafePath, to target: [UInt8]) -> Bool {
        guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: workTree + "/" + path.path) else { return false }
        return Array(link.utf8) == target
    }

    /// A symlink from the commit (its target was checked to stay inside the vault). It replaces
    /// only an old symlink or an unedited file, never a folder or an edited file.
    private func writeSymlink(_ path: SafePath, target: [UInt8], replacing old: TreeFile?, result: inout Result) throws {
        let full = workTree + "/" + path.path
        if isSymlink(path, to: target) { wrote(path.path, &result); return }
        var info = stat()
        if lstat(full, &info) == 0 {
            let type = info.st_mode & S_IFMT
            let unedited: Bool
            if type == S_IFLNK {
                unedited = true
            } else if type == S_IFREG, let old, let bytes = FileManager.default.contents(atPath: full) {
                unedited = try Repository.blobID(of: Array(bytes)) == old.blob
            } else {
                unedited = false
            }
            guard unedited else { result.keptLocalEdits.append(path.path); return }
        }
        try VaultPathGuard.makeFolders(of: path, in: workTree)
        let temp = TemporaryName.beside(full, scratch: true)
        guard symlink(String(decoding: target, as: UTF8.self), temp) == 0 else {
            throw SheafError("cannot write", path: path.path, cause: String(cString: strerror(errno)))
        }
        guard rename(temp, full) == 0 else {
            let e = errno
            unlink(temp)
            throw SheafError("cannot write", path: path.path, cause: String(cString: strerror(e)))
        }
        wrote(path.path, &result)
    }

    private func removeEmptyFolders(above path: String) {
        var folder = VaultPath.folder(path)
        while !folder.isEmpty {
            guard rmdir(workTree + "/" + folder) == 0 else { return }
            folder = VaultPath.folder(folder)
        }
    }
}
