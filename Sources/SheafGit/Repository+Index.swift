// Staging: the moves and deletions that `sheaf mv` and `sheaf rm` make, and the whole-tree
// snapshot that becomes a commit.
import CGit2
import Foundation

extension Repository {
    /// Runs `body` with the repository's index, then writes the index back to disk.
    func withIndex<T>(_ body: (OpaquePointer) throws(GitError) -> T) throws(GitError) -> T {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        try check(git_index_read(index, 0), "git_index_read")
        let result = try body(index!)
        try Self.writeIndex(index!)
        return result
    }

    /// Writes the index, waiting out another git's brief hold on `index.lock` (an editor's git
    /// plugin or a shell prompt runs `git status` every few seconds, and status takes the lock
    /// for a moment to refresh the index): up to 40 tries, 25 ms apart, then the error.
    static func writeIndex(_ index: OpaquePointer) throws(GitError) {
        var tries = 0
        while true {
            do {
                try check(git_index_write(index), "git_index_write")
                return
            } catch where error.code == .locked && tries < 40 {
                tries += 1
                usleep(25_000)
            }
        }
    }

    /// Whether `path` (relative to the work tree) is in the index.
    public func isTracked(_ path: String) throws(GitError) -> Bool {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        return git_index_get_bypath(index, path, 0) != nil
    }

    /// Removes `paths` from the index, as `git rm --cached` does: the files stay in the work tree.
    public func untrack(_ paths: [String]) throws(GitError) {
        try withIndex { (index) throws(GitError) in
            for path in paths { try Self.unstage(index, path) }
        }
    }

    /// Removes from the index every path `excluded` claims (the files stay in the work tree),
    /// and gives them: one pass over the index's entries, which is written back only when one
    /// was removed (a vault's shares leave its repository this way at every commit).
    @discardableResult
    public func untrackAll(where excluded: (String) -> Bool) throws(GitError) -> [String] {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        try check(git_index_read(index, 0), "git_index_read")
        var leaving: [String] = []
        for i in 0..<git_index_entrycount(index) {
            guard let raw = git_index_get_byindex(index, i)?.pointee.path else { continue }
            let path = String(cString: raw)
            // Conflict stages repeat a path; an NFC/NFD twin beside it is another path (bytes).
            if excluded(path), leaving.last.map({ !$0.utf8.elementsEqual(path.utf8) }) ?? true { leaving.append(path) }
        }
        guard !leaving.isEmpty else { return [] }
        for path in leaving { try Self.unstage(index!, path) }
        try Self.writeIndex(index!)
        return leaving
    }

    /// Records in the index that `from` was moved to `to` (as `git mv` does), when `from` was tracked.
    public func stageMove(from: String, to: String) throws(GitError) {
        try withIndex { (index) throws(GitError) in
            guard git_index_get_bypath(index, from, 0) != nil else { return }
            try check(git_index_remove_bypath(index, from), "git_index_remove_bypath")
            try check(git_index_add_bypath(index, to), "git_index_add_bypath")
        }
    }

    /// Stages everything git would see in the work tree: new files (ignore rules respected),
    /// edits and deletions. One status pass finds what changed (libgit2 trusts the index's
    /// cached stats, as git does), and only those paths are staged; when nothing changed the
    /// index file is not rewritten. Paths Sheaf cannot name (not UTF-8) are left out and listed
    /// in the report, so one odd file never blocks the commit of the rest. `excluded` paths are
    /// never staged (the vault's own state, whatever ignore rules say).
    @discardableResult
    public func stageAll(excluding excluded: (String) -> Bool = { _ in false }) throws(GitError) -> StagingReport {
        var status = try workTreeStatus()
        if status.changes.isEmpty && status.skipped.isEmpty { return StagingReport(staged: false, skipped: [], clean: true) }
        // A rename with one side excluded is, for this repository, a deletion or an addition.
        status.changes = status.changes.compactMap { change in
            let newOut = excluded(change.path), oldOut = change.oldPath.map(excluded) ?? false
            guard change.kind == .renamed, let old = change.oldPath, newOut != oldOut else {
                return newOut || oldOut ? nil : change
            }
            return newOut ? StagedChange(kind: .deleted, path: old, oldPath: nil) : StagedChange(kind: .added, path: change.path, oldPath: nil)
        }
        guard !status.changes.isEmpty else { return StagingReport(staged: false, skipped: status.skipped) }
        try withIndex { (index) throws(GitError) in
            for change in status.changes {
                switch change.kind {
                case .deleted:
                    try Self.unstage(index, change.path)
                case .renamed:
                    if let old = change.oldPath { try Self.unstage(index, old) }
                    try stage(index, change.path)
                case .added, .edited:
                    try stage(index, change.path)
                }
            }
        }
        return StagingReport(staged: true, skipped: status.skipped)
    }

    /// Stages one path; a file that vanished since the status pass (an editor's swap file, a
    /// temporary file renamed away) is staged as gone, not an error that blocks the commit.
    /// A file read while an editor rewrites it may fail to read once: it is tried again.
    private func stage(_ index: OpaquePointer, _ path: String) throws(GitError) {
        for attempt in 0..<3 {
            let rc = git_index_add_bypath(index, path)
            if rc == 0 { return }
            if let workTree, !FileManager.default.fileExists(atPath: workTree + "/" + path) {
                return try Self.unstage(index, path)  // gone since the status pass
            }
            if attempt == 2 { try check(rc, "git_index_add_bypath") }
        }
    }

    private static func unstage(_ index: OpaquePointer, _ path: String) throws(GitError) {
        let rc = git_index_remove_bypath(index, path)
        if rc != GIT_ENOTFOUND.rawValue { try check(rc, "git_index_remove_bypath") }
    }

    /// The staged changes against HEAD's tree, with renames detected at git's default 50 %.
    public func stagedChanges() throws(GitError) -> [StagedChange] {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        let tree = try peeledHead(GIT_OBJECT_TREE)
        defer { git_tree_free(tree) }
        var diff: OpaquePointer?
        try check(git_diff_tree_to_index(&diff, handle, tree, index, nil), "git_diff_tree_to_index")
        defer { git_diff_free(diff) }
        var find = git_diff_find_options()
        try check(git_diff_find_options_init(&find, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION)),
                  "git_diff_find_options_init")
        find.flags = GIT_DIFF_FIND_RENAMES.rawValue
        try check(git_diff_find_similar(diff, &find), "git_diff_find_similar")
        var changes: [StagedChange] = []
        for i in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, i)?.pointee else { continue }
            let newPath = String(cString: delta.new_file.path)
            let oldPath = String(cString: delta.old_file.path)
            switch delta.status {
            case GIT_DELTA_ADDED: changes.append(.init(kind: .added, path: newPath, oldPath: nil))
            case GIT_DELTA_DELETED: changes.append(.init(kind: .deleted, path: oldPath, oldPath: nil))
            case GIT_DELTA_RENAMED: changes.append(.init(kind: .renamed, path: newPath, oldPath: oldPath))
            default: changes.append(.init(kind: .edited, path: newPath, oldPath: nil))
            }
        }
        return changes
    }
}

extension Repository {
    /// What `git status` shows, HEAD against the work tree: edits, additions (untracked files
    /// git does not ignore), deletions and renames, without touching the index. Paths that are
    /// not UTF-8 are left out (see `workTreeStatus`).
    public func workTreeChanges() throws(GitError) -> [StagedChange] {
        try workTreeStatus().changes
    }

    /// The work tree's changes, and the paths left out because they are not UTF-8 (Swift would
    /// read `caf\xE9.md` as `caf\u{FFFD}.md`, a name no file has, or its twin's). When libgit2's
    /// status cannot descend (folders nested deeper than 100), the changes come from
    /// `walkedStatus`, which has no depth limit, as `git add -A` has none.
    public func workTreeStatus() throws(GitError) -> WorkTreeStatus {
        var status: WorkTreeStatus
        do {
            status = try libgit2Status()
        } catch let error where error.isNestingLimit || error.code == .locked {
            // libgit2 gives up on the whole status for one file it may not open (EACCES, which it
            // reports as GIT_ELOCKED); the walk skips that file and goes on, as `git status` does.
            status = try walkedStatus()
        }
        guard let root = workTree else { return status }
        status = holdingBack(status) { Self.stillThere(root + "/" + $0).map { $0 + "; not committed as deleted" } }
        // A file Sheaf may not read cannot be staged: left out with a warning, never blocking
        // the commit of the rest (git's `add -A` stops at it).
        var blind = false
        status.changes.removeAll { change in
            guard change.kind != .deleted, let why = Self.unreadable(root + "/" + change.path) else { return false }
            status.skipped.append(SkippedPath(path: change.path, reason: why + "; not committed"))
            blind = true
            return true
        }
        // A deleted note may have moved where Sheaf cannot see: into a folder it may not read
        // (libgit2's status passes over such a folder without a word), or to a file it may not
        // read. While that is so, no deletion is committed: it would delete the note everywhere.
        guard status.changes.contains(where: { $0.kind == .deleted || $0.kind == .renamed }) else { return status }
        let hidden = blind ? nil : Self.unreadableFolder(in: root)
        guard blind || hidden != nil else { return status }
        let because = hidden.map { "while \($0) cannot be read (it may hold this note); not committed as deleted" }
            ?? "while a file here cannot be read (it may be this note); not committed as deleted"
        return holdingBack(status) { _ in because }
    }

    /// The status with the deletions `reason` has a reason for held back: listed as skipped with
    /// it, and a rename of such a path kept as its new path added. libgit2's status (and the walk)
    /// report as deleted every tracked file they cannot see: those in a folder Sheaf may not read
    /// (`chmod 000`), a note replaced by a FIFO. Committed, such a deletion would delete the files
    /// on every other device; git's own `add -A` leaves them alone with a warning, and so does
    /// Sheaf (`stillThere` says which are still there).
    func holdingBack(_ status: WorkTreeStatus, _ reason: (String) -> String?) -> WorkTreeStatus {
        var result = WorkTreeStatus(changes: [], skipped: status.skipped)
        for change in status.changes {
            let old = change.kind == .deleted ? change.path : change.kind == .renamed ? change.oldPath : nil
            guard let old, let why = reason(old) else {
                result.changes.append(change)
                continue
            }
            result.skipped.append(SkippedPath(path: old, reason: why))
            if change.kind == .renamed { result.changes.append(StagedChange(kind: .added, path: change.path, oldPath: nil)) }
        }
        return result
    }

    /// The first folder of the work tree at `root` (`.git` aside, symlinks not followed) that
    /// cannot be listed, relative to `root`; nil when every folder can.
    static func unreadableFolder(in root: String) -> String? {
        var pending = [""]
        while let folder = pending.popLast() {
            guard let dir = opendir(folder.isEmpty ? root : root + "/" + folder) else {
                if errno == EACCES || errno == EPERM { return folder.isEmpty ? "." : folder }
                continue
            }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let type = entry.pointee.d_type
                guard type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN) else { continue }
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name == "." || name == ".." || (folder.isEmpty && (name == ".git" || name == ".sheaf")) { continue }
                let path = folder.isEmpty ? name : folder + "/" + name
                if type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(root + "/" + path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                }
                pending.append(path)
            }
        }
        return nil
    }

    /// Why the regular file at `path` cannot be read; nil when it can (or is not a regular file).
    static func unreadable(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, R_OK) != 0 else { return nil }
        return "cannot be read (\(String(cString: strerror(errno))))"
    }

    /// Why the tracked file at `path` is not gone although the status did not see it; nil when
    /// it is gone (no such file, or its folder now a file) or a folder now (its files are new).
    static func stillThere(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? nil : "cannot be read (\(String(cString: strerror(errno))))"
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return nil  // a folder now: its files are new
        // Readable: the status did not report it missing from the work tree, so this deletion was
        // staged (`git rm --cached`, `doctor --untrack` untracking an ignored file) and stands.
        case S_IFREG, S_IFLNK: return access(path, R_OK) == 0 ? nil : "cannot be read (\(String(cString: strerror(errno))))"
        default: return "is not a file (a FIFO, socket or device)"
        }
    }

    /// Whether the index holds exactly HEAD's tree (nothing staged), told by the index's cached
    /// tree ids (git's TREE extension, which `resetIndex` keeps valid) without reading HEAD's
    /// whole tree. The root id is asked of a repository whose object store has no backend: a
    /// valid cache answers without writing, an invalid one fails to write (no tree is left
    /// behind in `.git`) and the answer is no, as for any doubt (conflicts, an unborn branch).
    func indexMatchesHead() -> Bool {
        guard let head = try? peeledHead(GIT_OBJECT_TREE) else { return false }
        defer { git_tree_free(head) }
        var index: OpaquePointer?
        guard git_repository_index(&index, handle) == 0 else { return false }
        defer { git_index_free(index) }
        guard git_index_read(index, 0) == 0, git_index_has_conflicts(index) == 0 else { return false }
        var odb: OpaquePointer?, sink: OpaquePointer?
        guard git_odb_new(&odb) == 0 else { return false }
        defer { git_odb_free(odb) }
        guard git_repository_wrap_odb(&sink, odb) == 0 else { return false }
        defer { git_repository_free(sink) }
        var indexTree = git_oid()
        guard git_index_write_tree_to(&indexTree, index, sink) == 0 else { return false }
        return git_oid_equal(&indexTree, git_tree_id(head)) != 0
    }

    private func libgit2Status() throws(GitError) -> WorkTreeStatus {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        // HEAD against the index reads every tree of HEAD; when the index's cached tree is HEAD's
        // there is nothing to find there, and only the index is compared with the work tree.
        options.show = indexMatchesHead() ? GIT_STATUS_SHOW_WORKDIR_ONLY : GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_RENAMES_HEAD_TO_INDEX.rawValue | GIT_STATUS_OPT_RENAMES_INDEX_TO_WORKDIR.rawValue
            | GIT_STATUS_OPT_RENAMES_FROM_REWRITES.rawValue | GIT_STATUS_OPT_SORT_CASE_SENSITIVELY.rawValue
        var list: OpaquePointer?
        try check(git_status_list_new(&list, handle, &options), "git_status_list_new")
        defer { git_status_list_free(list) }
        var status = WorkTreeStatus()
        for i in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, i)?.pointee else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            guard let d = delta?.pointee else { continue }
            let s = entry.status.rawValue
            // Bytes first: a path that is not UTF-8 is reported, never repaired into another name.
            let newPath = GitPath.string(d.new_file.path), oldPath = GitPath.string(d.old_file.path)
            func skip(_ raw: UnsafePointer<CChar>) {
                status.skipped.append(SkippedPath(path: GitPath.display(raw), reason: GitPath.notUTF8))
            }
            if s & (GIT_STATUS_WT_RENAMED.rawValue | GIT_STATUS_INDEX_RENAMED.rawValue) != 0 {
                switch (newPath, oldPath) {
                case let (new?, old?): status.changes.append(.init(kind: .renamed, path: new, oldPath: old))
                case let (new?, nil): skip(d.old_file.path); status.changes.append(.init(kind: .added, path: new, oldPath: nil))
                case let (nil, old?): skip(d.new_file.path); status.changes.append(.init(kind: .deleted, path: old, oldPath: nil))
                case (nil, nil): skip(d.new_file.path)
                }
            } else if s & (GIT_STATUS_WT_NEW.rawValue | GIT_STATUS_INDEX_NEW.rawValue) != 0 {
                if let newPath { status.changes.append(.init(kind: .added, path: newPath, oldPath: nil)) } else { skip(d.new_file.path) }
            } else if s & (GIT_STATUS_WT_DELETED.rawValue | GIT_STATUS_INDEX_DELETED.rawValue) != 0 {
                if let oldPath { status.changes.append(.init(kind: .deleted, path: oldPath, oldPath: nil)) } else { skip(d.old_file.path) }
            } else if s & GIT_STATUS_IGNORED.rawValue == 0 && s != 0 {
                if let newPath { status.changes.append(.init(kind: .edited, path: newPath, oldPath: nil)) } else { skip(d.new_file.path) }
            }
        }
        return status
    }
}
