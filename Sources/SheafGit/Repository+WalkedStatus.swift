// The work tree's status without libgit2's status: libgit2 refuses a work tree whose folders
// nest deeper than 100 ("directory nesting too deep"), which would block every commit of the
// vault, while `git add -A` copes. This walk (readdir and lstat, byte paths) compares the work
// tree with `.git/index` as git does: a tracked file whose cached stat differs is hashed, an
// untracked one counts unless git's ignore rules ignore it, and index entries with no file are
// deletions. Only used when libgit2's status fails that way.
import CGit2
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// HEAD against the work tree, from a walk of the work tree and `.git/index` (no renames
    /// between index and work tree; HEAD-to-index renames come from `stagedChanges`).
    func walkedStatus() throws(GitError) -> WorkTreeStatus {
        guard let workTree else { return WorkTreeStatus() }
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        try check(git_index_read(index, 0), "git_index_read")

        struct Tracked { let size: UInt32; let seconds: Int32; let nanoseconds: UInt32; var id: git_oid }
        var tracked: [[UInt8]: Tracked] = [:]
        var trackedFolders = Set<[UInt8]>()
        for i in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, i)?.pointee, git_index_entry_stage(git_index_get_byindex(index, i)) == 0 else { continue }
            let path = GitPath.bytes(entry.path)
            tracked[path] = Tracked(size: entry.file_size, seconds: entry.mtime.seconds, nanoseconds: entry.mtime.nanoseconds, id: entry.id)
            for (i, byte) in path.enumerated() where byte == UInt8(ascii: "/") { trackedFolders.insert(Array(path[..<i])) }
        }

        var status = WorkTreeStatus()
        var seen = Set<[UInt8]>()
        var failure: GitError?
        func record(_ kind: StagedChange.Kind, _ path: [UInt8]) {
            if let text = GitPath.string(path) { status.changes.append(.init(kind: kind, path: text, oldPath: nil)) }
            else { status.skipped.append(SkippedPath(path: GitPath.display(path), reason: GitPath.notUTF8)) }
        }
        func ignored(_ path: [UInt8]) -> Bool {
            var answer: Int32 = 0
            let rc = (path + [0]).withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { git_ignore_path_is_ignored(&answer, handle, $0.baseAddress) }
            }
            if rc < 0 { failure = failure ?? GitError.last("git_ignore_path_is_ignored", rc) }
            return answer != 0
        }
        /// Whether the file's bytes are still the indexed blob (its stat changed).
        func sameContent(_ absolute: [UInt8], _ entry: Tracked) -> Bool {
            guard let text = GitPath.string(absolute), let data = FileManager.default.contents(atPath: text) else {
                return false  // not UTF-8 or unreadable: counted as edited (staging then names or reads it)
            }
            var id = entry.id
            return (try? Self.blobID(of: Array(data))) == Self.hex(&id)
        }
        func walk(_ folder: [UInt8]) {
            let absolute = Array(workTree.utf8) + (folder.isEmpty ? [] : [UInt8(ascii: "/")] + folder)
            guard let dir = (absolute + [0]).withUnsafeBufferPointer({ p in
                p.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
            }) else { return }
            defer { closedir(dir) }
            let fd = dirfd(dir)
            var subfolders: [[UInt8]] = []
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { GitPath.bytes($0) }
                }
                if name == [46] || name == [46, 46] || name == Array(".git".utf8) { continue }
                let path = folder.isEmpty ? name : folder + [UInt8(ascii: "/")] + name
                var info = stat()
                guard (name + [0]).withUnsafeBufferPointer({ p in
                    p.withMemoryRebound(to: CChar.self) { fstatat(fd, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
                }) == 0 else { continue }
                let type = info.st_mode & S_IFMT
                if type == S_IFDIR {
                    if trackedFolders.contains(path) || !ignored(path + [UInt8(ascii: "/")]) { subfolders.append(path) }
                } else if type == S_IFREG || type == S_IFLNK {
                    seen.insert(path)
                    if let entry = tracked[path] {
                        let stale = entry.size != UInt32(truncatingIfNeeded: info.st_size)
                            || entry.seconds != Int32(truncatingIfNeeded: info.st_mtim.tv_sec)
                            || entry.nanoseconds != UInt32(truncatingIfNeeded: info.st_mtim.tv_nsec)
                        if stale && (type == S_IFLNK || !sameContent(absolute + [UInt8(ascii: "/")] + name, entry)) {
                            record(.edited, path)
                        }
                    } else if !ignored(path) {
                        record(.added, path)
                    }
                }
            }
            for sub in subfolders { walk(sub) }
        }
        walk([])
        if let failure { throw failure }
        for path in tracked.keys where !seen.contains(path) { record(.deleted, path) }
        // What is staged already (HEAD to index) and not changed again in the work tree.
        let listed = Set(status.changes.map { Array($0.path.utf8) })
        for change in try stagedChanges() where !listed.contains(Array(change.path.utf8)) { status.changes.append(change) }
        status.changes.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return status
    }
}
