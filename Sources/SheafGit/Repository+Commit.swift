// Recording the staged tree as a commit on the current branch.
import CGit2

extension Repository {
    /// Commits the index on top of HEAD (or as the root commit of an unborn branch). The author
    /// comes from git config (user.name, user.email), else `fallbackName`.
    @discardableResult
    public func commitIndex(message: String, fallbackName: String) throws(GitError) -> CommitInfo {
        var treeID = git_oid()
        _ = try withIndex { (index) throws(GitError) in
            try check(git_index_write_tree(&treeID, index), "git_index_write_tree")
        }
        let parent = try head()?.id
        let id = try createCommit(tree: Self.hex(&treeID), parents: parent.map { [$0] } ?? [], message: message,
                                  fallbackName: fallbackName)
        let summary = message.split(separator: "\n").first.map(String.init) ?? ""
        try moveBranch(to: id, expected: parent, message: "commit: \(summary)")
        return CommitInfo(id: id, summary: summary)
    }
}
