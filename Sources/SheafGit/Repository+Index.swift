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
        try check(git_index_write(index), "git_index_write")
        return result
    }

    /// Whether `path` (relative to the work tree) is in the index.
    public func isTracked(_ path: String) throws(GitError) -> Bool {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        return git_index_get_bypath(index, path, 0) != nil
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
    /// edits and deletions.
    public func stageAll() throws(GitError) {
        try withIndex { (index) throws(GitError) in
            var pattern = strdup("*")
            defer { free(pattern) }
            var paths = git_strarray(strings: &pattern, count: 1)
            try check(git_index_add_all(index, &paths, GIT_INDEX_ADD_DEFAULT.rawValue, nil, nil),
                      "git_index_add_all")
            try check(git_index_update_all(index, &paths, nil, nil), "git_index_update_all")
        }
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
