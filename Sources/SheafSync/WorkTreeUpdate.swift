// Moving the work tree from one commit to another, file by file with atomic writes, then the
// index and the branch. A journal (`from` and `to` commit ids) is written first and removed last,
// so a process killed at any point leaves a state the next sync completes: every step is
// idempotent (a file already holding the target bytes is skipped). A file the user changed since
// Sheaf read it is never overwritten: the user's version is merged with the target three ways.
import Foundation
import SheafCore
import SheafGit

public struct WorkTreeUpdate {
    let repository: Repository
    let workTree: String
    let journal: String

    public init(repository: Repository, workTree: String, journal: String) {
        self.repository = repository
        self.workTree = workTree
        self.journal = journal
    }

    /// Paths whose local edit, made during the update, was kept (merged into the file).
    public struct Result: Sendable {
        public var written: [String] = []
        public var keptLocalEdits: [String] = []
        /// Paths of the commit not written because they are unsafe here (a `.git` component,
        /// `..`, or a folder on the way that is a symlink): a remote is not trusted.
        public var refused: [String] = []
    }

    /// Moves the work tree, `.git/index` and the current branch from `from` (nil: unborn) to `to`.
    @discardableResult
    public func run(from: String?, to: String) throws -> Result {
        try AtomicFile.write((from ?? "") + "\n" + to + "\n", to: journal)
        let result = try apply(from: from, to: to)
        let head = try repository.head()?.id
        if head != to { try repository.moveBranch(to: to, expected: from, message: "sheaf: update to \(to.prefix(7))") }
        try? FileManager.default.removeItem(atPath: journal)
        return result
    }

    /// Completes an update a killed process left behind. Returns false when there was none.
    public func resume() throws -> Bool {
        guard let text = try? String(contentsOfFile: journal, encoding: .utf8) else { return false }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[1].isEmpty else {
            try? FileManager.default.removeItem(atPath: journal)
            return false
        }
        let from = parts[0].isEmpty ? nil : parts[0], to = parts[1]
        let head = try repository.head()?.id
        guard head == from || head == to else {
            // The branch moved some other way (plain git): the journal no longer applies.
            try? FileManager.default.removeItem(atPath: journal)
            return false
        }
        try run(from: from, to: to)
        return true
    }

    private func apply(from: String?, to: String) throws -> Result {
        var result = Result()
        let changes = try repository.changes(from: from, to: to)
        // Deletions first, so a rename onto a path that changes case works, then writes.
        for change in changes where change.kind == .deleted || change.kind == .renamed {
            guard let old = change.oldFile else { continue }
            let path = change.kind == .renamed ? change.oldPath : change.path
            guard isSafe(path) else { result.refused.append(path); continue }
            let full = workTree + "/" + path
            guard exists(full), let diskID = try? Repository.blobID(ofFile: full) else { continue }
            if diskID == old.blob {
                try FileManager.default.removeItem(atPath: full)
                removeEmptyFolders(above: path)
            } else {
                result.keptLocalEdits.append(path)  // edited during the update: edit beats delete
            }
        }
        for change in changes where change.kind != .deleted {
            guard let new = change.newFile else { continue }
            let path = change.path
            guard isSafe(path) else { result.refused.append(path); continue }
            let full = workTree + "/" + path
            let expected = change.kind == .modified ? change.oldFile : nil
            // A blob over the note size limit is streamed to its file, never held in memory.
            let large = try repository.blobSize(new.blob) > Note.sizeLimit && new.mode != 0o120000
            if exists(full) {
                let diskID = try Repository.blobID(ofFile: full)
                if diskID == new.blob { result.written.append(path); continue }
                if diskID != expected?.blob {
                    result.keptLocalEdits.append(path)
                    // Large files are not merged by content: the user's file stays, the remote
                    // version is in the merge commit.
                    var info = stat()
                    guard !large, lstat(full, &info) == 0, Int(info.st_size) <= Note.sizeLimit, let disk = read(full) else { continue }
                    // Changed by the user since Sheaf read it: merge, the user's side first.
                    let base = try expected.map { (f) throws in try repository.blobBytes(f.blob) }
                    let merged = try NoteMerge.merge(base: base, ours: disk, theirs: try repository.blobBytes(new.blob),
                                                     isNote: VaultPath.isNote(path))
                    try AtomicFile.write(merged.merged, to: full)
                    continue
                }
            }
            if large {
                try writeStreaming(new.blob, mode: new.mode, to: full)
            } else {
                try write(try repository.blobBytes(new.blob), mode: new.mode, to: full)
            }
            result.written.append(path)
        }
        try repository.resetIndex(toCommit: to, refreshing: result.written)
        return result
    }

    /// Whether writing `path` stays inside the work tree and out of `.git`: no empty, `.` or `..`
    /// component, no `.git` (in any case), and no folder on the way that is a symlink.
    func isSafe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return false }
        for part in parts where part.isEmpty || part == "." || part == ".." || part.lowercased() == ".git" {
            return false
        }
        var folder = workTree
        for part in parts.dropLast() {
            folder += "/" + part
            var info = stat()
            if lstat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK { return false }
        }
        return true
    }

    private func read(_ full: String) -> [UInt8]? {
        var info = stat()
        guard lstat(full, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: full)).map { Array($0.utf8) }
        }
        return FileManager.default.contents(atPath: full).map(Array.init)
    }

    private func exists(_ full: String) -> Bool {
        var info = stat()
        return lstat(full, &info) == 0
    }

    /// Writes a blob as AtomicFile writes bytes (a temporary file beside the target, fsync,
    /// rename), streaming it from the object database.
    private func writeStreaming(_ blob: String, mode: UInt32, to full: String) throws {
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temp = folder + "/.sheaf-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-" + (full as NSString).lastPathComponent
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode == 0o100755 ? 0o755 : 0o644)
        guard fd >= 0 else { throw SheafError("cannot write", path: full, cause: String(cString: strerror(errno))) }
        do {
            try repository.writeBlob(blob, toFileDescriptor: fd)
            guard fsync(fd) == 0 else { throw SheafError("cannot write", path: full, cause: String(cString: strerror(errno))) }
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        close(fd)
        guard rename(temp, full) == 0 else {
            let cause = String(cString: strerror(errno))
            unlink(temp)
            throw SheafError("cannot replace", path: full, cause: cause)
        }
    }

    private func write(_ bytes: [UInt8], mode: UInt32, to full: String) throws {
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if mode == 0o120000 {
            try? FileManager.default.removeItem(atPath: full)
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: String(decoding: bytes, as: UTF8.self))
            return
        }
        try AtomicFile.write(bytes, to: full)
        if mode == 0o100755 { chmod(full, 0o755) }
    }

    private func removeEmptyFolders(above path: String) {
        var folder = VaultPath.folder(path)
        while !folder.isEmpty {
            guard rmdir(workTree + "/" + folder) == 0 else { return }
            folder = VaultPath.folder(folder)
        }
    }
}
