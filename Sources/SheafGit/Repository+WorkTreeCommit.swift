// A commit of the work tree as it is, made without `.git/index` and without moving a branch: what
// `pull --dry-run` merges as the local side, since a real pull commits the uncommitted work first.
import CGit2
import Foundation

extension Repository {
    /// A commit on top of `parent` holding the work tree's `changes` (from `workTreeStatus`): files
    /// and symlinks are written as blobs (a file streamed from disk), deletions removed. Neither
    /// `.git/index` nor any reference changes; the commit is an object nothing names.
    public func commit(ofWorkTree changes: [StagedChange], onTop parent: String?, message: String,
                       fallbackName: String) throws(GitError) -> String {
        guard let root = workTree else { throw GitError(function: "commit(ofWorkTree:)", code: .notFound, message: "the repository has no work tree") }
        var edits: [TreeEdit] = []
        for change in changes {
            if let old = change.oldPath { edits.append(.remove(path: old)) }
            if change.kind == .deleted { edits.append(.remove(path: change.path)); continue }
            let file = root + "/" + change.path
            var info = stat()
            guard lstat(file, &info) == 0 else { edits.append(.remove(path: change.path)); continue }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(file, &target, target.count - 1)
                guard n >= 0 else { continue }
                edits.append(.put(path: change.path, blob: try createBlob(target[..<n].map { UInt8(bitPattern: $0) }), mode: 0o120000))
            case S_IFREG:
                var oid = git_oid()
                try check(git_blob_create_from_disk(&oid, handle, file), "git_blob_create_from_disk")
                let executable = info.st_mode & S_IXUSR != 0
                edits.append(.put(path: change.path, blob: Self.hex(&oid), mode: executable ? 0o100755 : 0o100644))
            default:
                continue  // what git would not stage (a FIFO, a socket) is not in the commit either
            }
        }
        let tree = try self.tree(applying: edits, toCommit: parent)
        return try createCommit(tree: tree, parents: parent.map { [$0] } ?? [], message: message, fallbackName: fallbackName)
    }
}
