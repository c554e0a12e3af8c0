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

    func files() -> [String: TreeFile] {
        var result: [String: TreeFile] = [:]
        for i in 0..<git_index_entrycount(handle) {
            guard let entry = git_index_get_byindex(handle, i)?.pointee else { continue }
            var id = entry.id
            result[String(cString: entry.path)] = TreeFile(blob: Repository.hex(&id), mode: entry.mode)
        }
        return result
    }
}

extension Repository {
    /// Makes `.git/index` match a commit's tree (libgit2's read_tree keeps the cached file stats
    /// of entries whose blob did not change, so `git status` stays fast), then refreshes the
    /// entries of `written` paths from the work tree when their bytes there are the commit's.
    public func resetIndex(toCommit id: String, refreshing written: [String]) throws(GitError) {
        let wanted = try files(inCommit: id)
        try withIndex { (index) throws(GitError) in
            try withCommit(id) { (c) throws(GitError) in
                var tree: OpaquePointer?
                try check(git_commit_tree(&tree, c), "git_commit_tree")
                defer { git_tree_free(tree) }
                try check(git_index_read_tree(index, tree), "git_index_read_tree")
            }
            for path in written {
                guard let file = wanted[path], let workTree,
                      let bytes = FileManager.default.contents(atPath: workTree + "/" + path),
                      try Self.blobID(of: Array(bytes)) == file.blob else { continue }
                try check(git_index_add_bypath(index, path), "git_index_add_bypath")
            }
        }
    }
}
