// History questions the sync engine asks: merge bases, ancestry, how far two commits diverged,
// and the changes between two commits with renames detected the way git detects them.
import CGit2

/// One path's change between two commits.
public struct TreeChange: Sendable, Equatable {
    public typealias Kind = GitChangeKind
    public let kind: Kind
    /// The path after the change (before it for a deletion).
    public let path: String
    /// The path before the change (equal to `path` except for renames).
    public let oldPath: String
    public let oldFile: TreeFile?
    public let newFile: TreeFile?
}

extension Repository {
    /// The merge bases of two commits: one in a plain history, several after criss-cross merges,
    /// none when the histories are unrelated.
    public func mergeBases(_ a: String, _ b: String) throws(GitError) -> [String] {
        var one = try Self.oid(a), two = try Self.oid(b)
        var bases = git_oidarray()
        let rc = git_merge_bases(&bases, handle, &one, &two)
        if rc == GIT_ENOTFOUND.rawValue { return [] }
        try check(rc, "git_merge_bases")
        defer { git_oidarray_dispose(&bases) }
        return (0..<bases.count).map { Self.hex(bases.ids + $0) }
    }

    /// Whether `ancestor` is `commit` or one of its ancestors.
    public func isAncestor(_ ancestor: String, of commit: String) throws(GitError) -> Bool {
        if ancestor == commit { return true }
        var a = try Self.oid(ancestor), c = try Self.oid(commit)
        return try check(git_graph_descendant_of(handle, &c, &a), "git_graph_descendant_of") == 1
    }

    /// Commits in `local` not in `upstream`, and the reverse.
    public func aheadBehind(local: String, upstream: String) throws(GitError) -> (ahead: Int, behind: Int) {
        var l = try Self.oid(local), u = try Self.oid(upstream)
        var ahead = 0, behind = 0
        try check(git_graph_ahead_behind(&ahead, &behind, handle, &l, &u), "git_graph_ahead_behind")
        return (ahead, behind)
    }

    /// The changes from one commit's tree to another's (`from` nil: the empty tree), with renames
    /// detected at git's default 50 % similarity.
    public func changes(from: String?, to: String) throws(GitError) -> [TreeChange] {
        let old = try from.map { (id) throws(GitError) in try commitTree(id) }
        defer { if let old { git_tree_free(old) } }
        let new = try commitTree(to)
        defer { git_tree_free(new) }
        var diff: OpaquePointer?
        try check(git_diff_tree_to_tree(&diff, handle, old, new, nil), "git_diff_tree_to_tree")
        defer { git_diff_free(diff) }
        // Rename detection reads both blobs of every added/deleted pair whole: files over the
        // limit are left out of it (exact renames aside) and listed as added and deleted.
        var large: [TreeChange] = []
        var others: [String] = []
        for i in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, i)?.pointee else { continue }
            let change = Self.change(delta)
            // (A submodule's entry names a commit, not a blob.)
            if change.kind == .added || change.kind == .deleted, let file = change.newFile ?? change.oldFile,
               file.mode != 0o160000, try blobSize(file.blob) > Self.similarityLimit {
                large.append(change)
            } else {
                others.append(change.path)
            }
        }
        if large.isEmpty { return try Self.changes(in: diff!) }
        var rest: [TreeChange] = []
        if !others.isEmpty {
            var options = git_diff_options()
            try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
            options.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH.rawValue
            var restDiff: OpaquePointer?
            try Self.withStrings(others) { (paths) throws(GitError) in
                options.pathspec = paths
                try check(git_diff_tree_to_tree(&restDiff, handle, old, new, &options), "git_diff_tree_to_tree")
            }
            defer { git_diff_free(restDiff) }
            rest = try Self.changes(in: restDiff!)
        }
        return (rest + Self.pairExactRenames(large)).sorted { $0.path < $1.path }
    }

    /// Blobs over this size (the note size limit) take no part in similarity rename detection.
    public static let similarityLimit = 10_000_000

    /// Pairs deleted and added files holding the same blob as renames.
    static func pairExactRenames(_ changes: [TreeChange]) -> [TreeChange] {
        var added: [String: [TreeChange]] = [:]
        for c in changes where c.kind == .added { added[c.newFile!.blob, default: []].append(c) }
        var result: [TreeChange] = []
        for c in changes where c.kind == .deleted {
            if let a = added[c.oldFile!.blob]?.popLast() {
                result.append(TreeChange(kind: .renamed, path: a.path, oldPath: c.path, oldFile: c.oldFile, newFile: a.newFile))
            } else {
                result.append(c)
            }
        }
        return result + added.values.flatMap { $0 }
    }

    func commitTree(_ id: String) throws(GitError) -> OpaquePointer {
        try withCommit(id) { (c) throws(GitError) in
            var tree: OpaquePointer?
            try check(git_commit_tree(&tree, c), "git_commit_tree")
            return tree!
        }
    }

    static func changes(in diff: OpaquePointer) throws(GitError) -> [TreeChange] {
        var find = git_diff_find_options()
        try check(git_diff_find_options_init(&find, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION)), "git_diff_find_options_init")
        find.flags = GIT_DIFF_FIND_RENAMES.rawValue
        try check(git_diff_find_similar(diff, &find), "git_diff_find_similar")
        var result: [TreeChange] = []
        for i in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, i)?.pointee else { continue }
            result.append(change(delta))
        }
        return result
    }

    static func change(_ delta: git_diff_delta) -> TreeChange {
        var oldID = delta.old_file.id, newID = delta.new_file.id
        let oldFile = TreeFile(blob: hex(&oldID), mode: UInt32(delta.old_file.mode))
        let newFile = TreeFile(blob: hex(&newID), mode: UInt32(delta.new_file.mode))
        let oldPath = String(cString: delta.old_file.path), newPath = String(cString: delta.new_file.path)
        switch delta.status {
        case GIT_DELTA_ADDED:
            return TreeChange(kind: .added, path: newPath, oldPath: newPath, oldFile: nil, newFile: newFile)
        case GIT_DELTA_DELETED:
            return TreeChange(kind: .deleted, path: oldPath, oldPath: oldPath, oldFile: oldFile, newFile: nil)
        case GIT_DELTA_RENAMED:
            return TreeChange(kind: .renamed, path: newPath, oldPath: oldPath, oldFile: oldFile, newFile: newFile)
        default:
            return TreeChange(kind: .edited, path: newPath, oldPath: oldPath, oldFile: oldFile, newFile: newFile)
        }
    }
}

extension Repository {
    /// How many commits `commit` has (itself and its ancestors), or how many of them are not in
    /// `excluding`.
    public func commitCount(_ commit: String, excluding: String? = nil) throws(GitError) -> Int {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, handle), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        var start = try Self.oid(commit)
        try check(git_revwalk_push(walk, &start), "git_revwalk_push")
        if let excluding {
            var hide = try Self.oid(excluding)
            try check(git_revwalk_hide(walk, &hide), "git_revwalk_hide")
        }
        var count = 0
        var oid = git_oid()
        while git_revwalk_next(&oid, walk) == 0 { count += 1 }
        return count
    }
}
