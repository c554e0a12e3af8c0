// Recording the staged tree as a commit on HEAD.
import CGit2

extension Repository {
    /// Commits the index on top of HEAD (or as the root commit of an unborn branch).
    /// The author comes from git config (user.name, user.email), else `fallbackName`.
    @discardableResult
    public func commitIndex(message: String, fallbackName: String) throws(GitError) -> CommitInfo {
        var treeID = git_oid()
        try withIndex { (index) throws(GitError) in
            try check(git_index_write_tree(&treeID, index), "git_index_write_tree")
        }
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, handle, &treeID), "git_tree_lookup")
        defer { git_tree_free(tree) }

        var signature: UnsafeMutablePointer<git_signature>?
        if git_signature_default(&signature, handle) < 0 {
            let email = "\(fallbackName)@sheaf.invalid"
            try check(git_signature_now(&signature, fallbackName, email), "git_signature_now")
        }
        defer { git_signature_free(signature) }

        let parent = try peeledHead(GIT_OBJECT_COMMIT)
        defer { if let parent { git_object_free(parent) } }

        var commitID = git_oid()
        var parents: [OpaquePointer?] = parent.map { [$0] } ?? []
        let created = parents.withUnsafeMutableBufferPointer { buffer in
            git_commit_create(&commitID, handle, "HEAD", signature, signature, "UTF-8", message,
                              tree, buffer.count, buffer.baseAddress)
        }
        try check(created, "git_commit_create")
        return CommitInfo(id: Self.hex(&commitID), summary: message.split(separator: "\n").first.map(String.init) ?? "")
    }
}
