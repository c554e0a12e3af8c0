// An index that lives only in memory (`git_index_new`), loaded from a commit's tree: the sync
// engine edits it path by path and writes the result as a tree, never touching `.git/index`.
import CGit2
import Foundation

final class MemoryIndex {
    let handle: OpaquePointer
    unowned let repository: Repository

    /// Loads a commit's tree, or starts empty when `commit` is nil.
    init(repository: Repository, commit: String?) throws(GitError) {
        var index: OpaquePointer?
        try check(git_index_new(&index), "git_index_new")
        handle = index!
        self.repository = repository
        if let commit {
            try repository.withCommit(commit) { (c) throws(GitError) in
                var tree: OpaquePointer?
                try check(git_commit_tree(&tree, c), "git_commit_tree")
                defer { git_tree_free(tree) }
                try check(git_index_read_tree(handle, tree), "git_index_read_tree")
            }
        }
    }

    deinit { git_index_free(handle) }

    func apply(_ edit: TreeEdit) throws(GitError) {
        switch edit {
        case .remove(let path):
            let rc = git_index_remove(handle, path, 0)
            if rc != GIT_ENOTFOUND.rawValue { try check(rc, "git_index_remove") }
        case .put(let path, let blob, let mode):
            var entry = git_index_entry()
            entry.id = try Repository.oid(blob)
            entry.mode = mode
            let rc = path.withCString { p -> Int32 in
                entry.path = p
                return git_index_add(handle, &entry)
            }
            try check(rc, "git_index_add")
        }
    }

    func writeTree() throws(GitError) -> String {
        var oid = git_oid()
        try check(git_index_write_tree_to(&oid, handle, repository.handle), "git_index_write_tree_to")
        return Repository.hex(&oid)
    }

    func files() -> [(path: String, file: TreeFile)] {
        var result: [(path: String, file: TreeFile)] = []
        for i in 0..<git_index_entrycount(handle) {
            guard let entry = git_index_get_byindex(handle, i)?.pointee else { continue }
            var id = entry.id
            result.append((String(cString: entry.path), TreeFile(blob: Repository.hex(&id), mode: entry.mode)))
        }
        return result
    }
}

extension Repository {
    /// Makes `.git/index` match a commit's tree (libgit2's read_tree keeps the cached file stats
    /// of entries whose blob did not change, so `git status` stays fast), then refreshes the
    /// entries of `written` paths from the work tree when their bytes there are the commit's.
    /// Each written path is looked up in the index just read from the tree (no listing of the
    /// whole commit), and its entry gets the stat data taken before the file was hashed, so an
    /// edit made after that stat always differs from the entry and is seen by the next status.
    ///
    /// With `from` and `changes` (the diff from `from` to `id`), an index that holds exactly
    /// `from`'s tree (its cached tree ids say so) gets only those entries changed, as git's
    /// checkout does, instead of every tree of the commit read again; the result is checked
    /// against the commit's tree id, and anything else reads the whole tree as before.
    public func resetIndex(toCommit id: String, from: String? = nil, changes: [TreeChange]? = nil,
                           refreshing written: [String]) throws(GitError) {
        // Every entry added here names a blob of a commit already stored (its tree was read, or
        // the file was hashed to it): libgit2's check that the object exists (a header read per
        // entry, resolving deltas: 17 % of a 10k pull) is skipped for these adds only.
        _ = sheaf_git_set_strict_object_creation(0)
        defer { _ = sheaf_git_set_strict_object_creation(1) }
        try withIndex { (index) throws(GitError) in
            let target = try withCommit(id) { (c) throws(GitError) -> git_oid in git_commit_tree_id(c).pointee }
            if let from, let changes, try applyChanges(index, from: from, target: target, changes) {
                // The index is the commit's tree, cached tree ids included.
            } else {
                try withCommit(id) { (c) throws(GitError) in
                    var tree: OpaquePointer?
                    try check(git_commit_tree(&tree, c), "git_commit_tree")
                    defer { git_tree_free(tree) }
                    try check(git_index_read_tree(index, tree), "git_index_read_tree")
                }
            }
            guard let workTree else { return }
            for path in written {
                guard let entry = git_index_get_bypath(index, path, 0)?.pointee else { continue }
                var oid = entry.id
                let file = TreeFile(blob: Self.hex(&oid), mode: entry.mode)
                let full = workTree + "/" + path
                var info = stat()
                // A symlink keeps the tree's entry without stat data (git then compares its target).
                guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, !file.isSymlink else { continue }
                // Hashed in chunks: a file written from a large blob is never read whole.
                guard let hashed = try? Self.blobID(ofFile: full), hashed == file.blob else { continue }
                try Self.addEntry(index, path: path, file: file, info: info)
            }
            // The entries just refreshed invalidated the cached tree ids on their way; computing
            // them again (the trees are the commit's, already stored) keeps the next status from
            // reading HEAD's whole tree (`indexMatchesHead`).
            var tree = git_oid()
            try check(git_index_write_tree(&tree, index), "git_index_write_tree")
        }
    }

    /// Edits an index that holds `from`'s tree into the one of `target` by the diff's entries
    /// (their stat data left empty, as `git_index_read_tree` leaves changed entries). False,
    /// with the index to be read from the tree instead, when the index is not `from`'s tree or
    /// the edited index is not `target`'s tree.
    private func applyChanges(_ index: OpaquePointer, from: String, target: git_oid, _ changes: [TreeChange]) throws(GitError) -> Bool {
        guard git_index_has_conflicts(index) == 0 else { return false }
        let start = try withCommit(from) { (c) throws(GitError) -> git_oid in git_commit_tree_id(c).pointee }
        // The cached ids answer without writing (a backend-less store fails any write).
        var odb: OpaquePointer?, sink: OpaquePointer?
        guard git_odb_new(&odb) == 0 else { return false }
        defer { git_odb_free(odb) }
        guard git_repository_wrap_odb(&sink, odb) == 0 else { return false }
        defer { git_repository_free(sink) }
        var current = git_oid()
        var wanted = start
        guard git_index_write_tree_to(&current, index, sink) == 0, git_oid_equal(&current, &wanted) != 0 else { return false }
        for change in changes {
            if change.oldFile != nil && (change.newFile == nil || change.oldPath != change.path) {
                let rc = git_index_remove(index, change.oldPath, 0)
                if rc != GIT_ENOTFOUND.rawValue { try check(rc, "git_index_remove") }
            }
            guard let file = change.newFile else { continue }
            var entry = git_index_entry()
            entry.id = try Self.oid(file.blob)
            entry.mode = file.mode
            let rc = change.path.withCString { raw -> Int32 in
                entry.path = raw
                return git_index_add(index, &entry)
            }
            try check(rc, "git_index_add")
        }
        // The new trees are the commit's, already stored: computing them writes nothing new.
        var result = git_oid()
        wanted = target
        try check(git_index_write_tree(&result, index), "git_index_write_tree")
        return git_oid_equal(&result, &wanted) != 0
    }

    /// Adds an index entry for `path`, whose bytes are the blob of `file`, with the stat data
    /// git uses to tell an unchanged file (times, device, inode, ids, size).
    private static func addEntry(_ index: OpaquePointer, path: String, file: TreeFile, info: stat) throws(GitError) {
        var entry = git_index_entry()
        entry.ctime = git_index_time(seconds: Int32(truncatingIfNeeded: info.st_ctim.tv_sec), nanoseconds: UInt32(info.st_ctim.tv_nsec))
        entry.mtime = git_index_time(seconds: Int32(truncatingIfNeeded: info.st_mtim.tv_sec), nanoseconds: UInt32(info.st_mtim.tv_nsec))
        entry.dev = UInt32(truncatingIfNeeded: info.st_dev)
        entry.ino = UInt32(truncatingIfNeeded: info.st_ino)
        entry.mode = file.mode
        entry.uid = info.st_uid
        entry.gid = info.st_gid
        entry.file_size = UInt32(truncatingIfNeeded: info.st_size)
        entry.id = try oid(file.blob)
        let rc = path.withCString { raw in
            entry.path = raw
            return git_index_add(index, &entry)
        }
        try check(rc, "git_index_add")
    }
}
