// A `.git/index` that cannot be read: a 0-byte or cut-off file left by a crash, a full disk or a
// tool that wrote it in place. libgit2 then fails every status, commit and checkout ("failed to
// read index"; git's CLI: "index file smaller than expected"), so every sync stops. The index is
// git's cache of the staged tree, never the only copy of a note: the commit it came from and the
// files in the work tree hold everything. So it is rebuilt from HEAD, as `git read-tree HEAD`
// would (the work tree is not touched, and the next status finds every file that differs from the
// last commit), and the damaged file is kept beside it, never deleted.
import CGit2
import Foundation

extension Repository {
    /// Whether `.git/index` is there but cannot be read.
    public func indexIsDamaged() -> Bool {
        let path = gitDirectory + "/index"
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        var index: OpaquePointer?
        let rc = git_index_open(&index, path)  // reads the file when it is there
        git_index_free(index)
        return rc < 0
    }

    /// Moves a damaged `.git/index` aside (`index.damaged-<seconds since 1970>`) and writes a new
    /// one holding HEAD's tree (empty before the first commit). Returns where the damaged file
    /// went. Refuses while `index.lock` is there: another git is writing the index.
    public func rebuildDamagedIndex() throws(GitError) -> String {
        let path = gitDirectory + "/index"
        guard access(path + ".lock", F_OK) != 0 else {
            throw GitError(function: "rebuildDamagedIndex", code: .locked,
                           message: "\(path).lock exists: another git is writing the index")
        }
        var aside = "\(path).damaged-\(Int(Date().timeIntervalSince1970))"
        var n = 1
        while access(aside, F_OK) == 0 { n += 1; aside = "\(path).damaged-\(Int(Date().timeIntervalSince1970))-\(n)" }
        guard rename(path, aside) == 0 else {
            throw GitError(function: "rename", code: .other(-1), message: "cannot move \(path) aside: \(String(cString: strerror(errno)))")
        }
        var index: OpaquePointer?
        try check(git_index_open(&index, path), "git_index_open")
        defer { git_index_free(index) }
        if let head = try head()?.id {
            let tree = try commitTree(head)
            defer { git_tree_free(tree) }
            try check(git_index_read_tree(index, tree), "git_index_read_tree")
        }
        try Self.writeIndex(index!)
        return aside
    }
}
