// A `.git/index` that cannot be read: a 0-byte or cut-off file left by a crash, a full disk or a
// tool that wrote it in place. libgit2 then fails every status, commit and checkout ("failed to
// read index"; git's CLI: "index file smaller than expected"), so every sync stops. The index is
// git's cache of the staged tree, never the only copy of a note: the commit it came from and the
// files in the work tree hold everything. So it is rebuilt from HEAD, as `git read-tree HEAD`
// would (the work tree is not touched, and the next status finds every file that differs from the
// last commit), and the damaged file is kept beside it, never deleted.
//
// Whether the file is damaged is for the caller to judge from its bytes (SheafFiles'
// GitIndexCheck: git's own checksum), since libgit2 1.5 also fails on indexes git reads fine.
import CGit2
import Foundation

extension Repository {
    /// The bytes of `.git/index` when it is a readable file that libgit2 cannot open (nil when
    /// there is none, it opens, or it cannot be read at all: an error to show, not damage).
    public func unopenableIndex() -> [UInt8]? {
        let path = gitDirectory + "/index"
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var index: OpaquePointer?
        let rc = git_index_open(&index, path)  // reads the file when it is there
        git_index_free(index)
        guard rc < 0 else { return nil }
        return FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// Writes a new `.git/index` holding HEAD's tree (empty before the first commit) in place of
    /// a damaged one, which stays as `index.damaged-<seconds since 1970>`. The new index is
    /// written beside it first and renamed over it last, so a failure (a full disk) leaves the
    /// damaged file where it was, never no index. Returns where the damaged file was kept.
    /// Refuses while `index.lock` is there: another git is writing the index.
    public func rebuildDamagedIndex() throws(GitError) -> String {
        let path = gitDirectory + "/index"
        guard access(path + ".lock", F_OK) != 0 else {
            throw GitError(function: "rebuildDamagedIndex", code: .locked,
                           message: "\(path).lock exists: another git is writing the index")
        }
        let fresh = path + ".sheaf-rebuild"
        unlink(fresh)
        do {
            var index: OpaquePointer?
            try check(git_index_open(&index, fresh), "git_index_open")
            defer { git_index_free(index) }
            if let head = try head()?.id {
                let tree = try commitTree(head)
                defer { git_tree_free(tree) }
                try check(git_index_read_tree(index, tree), "git_index_read_tree")
            }
            try Self.writeIndex(index!)
        } catch {
            unlink(fresh)
            throw error
        }
        let stamp = Int(Date().timeIntervalSince1970)
        var aside = "\(path).damaged-\(stamp)"
        var n = 1
        while access(aside, F_OK) == 0 { n += 1; aside = "\(path).damaged-\(stamp)-\(n)" }
        guard link(path, aside) == 0, rename(fresh, path) == 0 else {
            let cause = String(cString: strerror(errno))
            unlink(fresh)
            throw GitError(function: "rename", code: .other(-1), message: "cannot put a rebuilt index in place of \(path): \(cause)")
        }
        return aside
    }
}
