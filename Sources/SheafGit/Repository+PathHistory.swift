// The history of one path, for `sheaf log NOTE`, `show NOTE@REV` and `restore`: the first-parent
// chain from HEAD (the vault's own line: a sync's merge commit stands for what it brought), each
// commit's file at the tracked path compared with its first parent's. When the path is absent in
// the parent, git's rename detection (`changes(from:to:)`) says where it came from, and the walk
// follows the old path (matched by bytes: an NFC/NFD twin renamed in the same commit is not it).
// A path absent at the start (a deleted note) is tracked from the newest commit whose parent
// still had it, so deleted notes have a history too.
import CGit2

/// One commit that changed the tracked path.
public struct PathChange: Sendable, Equatable {
    public typealias Kind = GitChangeKind
    public let kind: Kind
    public let commit: CommitDetails
    /// The path at this commit: for a deletion the path it had before; for a rename the new path.
    public let path: String
    /// The path before a rename.
    public let oldPath: String?
    /// The file at this commit, nil for a deletion.
    public let file: TreeFile?
}

extension Repository {
    /// The commits changing `path` (as named at `start`, default HEAD), newest first, following
    /// renames, at most `limit` of them.
    public func pathHistory(_ path: String, from start: String? = nil, limit: Int? = nil) throws(GitError) -> [PathChange] {
        var result: [PathChange] = []
        if limit == 0 { return result }
        try walkPath(path, from: start) { (_, _, change) in
            if let change { result.append(change) }
            return limit.map { result.count < $0 } ?? true
        }
        return result
    }

    /// The path that `path` (as named at `start`, default HEAD) had at `commit`, following renames;
    /// nil when the commit is not on the first-parent chain from `start`. The path need not exist
    /// there (ask `file(at:inCommit:)`).
    public func trackedPath(_ path: String, at commit: String, from start: String? = nil) throws(GitError) -> String? {
        var found: String?
        try walkPath(path, from: start) { (id, tracked, _) in
            if id == commit { found = tracked; return false }
            return true
        }
        return found
    }

    /// Whether one of the newest `commits` commits of the first-parent chain from HEAD held
    /// `blob` at `path` (as named at HEAD; renames followed, as `pathHistory` follows them).
    public func pathHeld(_ blob: String, at path: String, withinCommits commits: Int) throws(GitError) -> Bool {
        var held = false, seen = 0
        try walkPath(path, from: nil) { (id, tracked, change) throws(GitError) in
            seen += 1
            // A version introduced before the window is still held by its oldest commit.
            held = change?.file?.blob == blob
            if !held && seen == commits { held = try file(at: tracked, inCommit: id)?.blob == blob }
            return !held && seen < commits
        }
        return held
    }

    /// The first-parent chain from `start` (default HEAD), newest first, at most `limit` commits.
    public func firstParentLog(from start: String? = nil, limit: Int? = nil) throws(GitError) -> [CommitDetails] {
        var result: [CommitDetails] = []
        if limit == 0 { return result }
        try walkFirstParent(from: start) { (details) in
            result.append(details)
            return limit.map { result.count < $0 } ?? true
        }
        return result
    }

    /// Calls `visit` with each first-parent commit, the path tracked at it and the change the
    /// commit made to that path (nil when none), until `visit` returns false.
    func walkPath(_ path: String, from start: String?,
                  _ visit: (String, String, PathChange?) throws(GitError) -> Bool) throws(GitError) {
        var tracked = path
        var known: (commit: String, file: TreeFile?)?  // the file at `tracked`, learnt from the previous step
        try walkFirstParent(from: start) { (details) throws(GitError) -> Bool in
            let id = details.id
            let here: TreeFile?
            if let known, known.commit == id { here = known.file } else { here = try file(at: tracked, inCommit: id) }
            let parent = details.parents.first
            var before = try parent.map { (p) throws(GitError) in try file(at: tracked, inCommit: p) } ?? nil
            var change: PathChange?
            var next = tracked
            switch (here, before) {
            case (nil, nil):
                break
            case (nil, .some):
                // Gone here: renamed away, or deleted.
                let renamed = try changes(from: parent, to: id).first { $0.kind == .renamed && $0.oldPath.utf8.elementsEqual(tracked.utf8) }
                change = PathChange(kind: renamed == nil ? .deleted : .renamed, commit: details,
                                    path: renamed?.path ?? tracked, oldPath: renamed == nil ? nil : tracked,
                                    file: renamed?.newFile)
            case (.some(let now), nil):
                let renamed = try parent.map { (p) throws(GitError) in
                    try changes(from: p, to: id).first { $0.kind == .renamed && $0.path.utf8.elementsEqual(tracked.utf8) }
                } ?? nil
                if let renamed {
                    change = PathChange(kind: .renamed, commit: details, path: tracked, oldPath: renamed.oldPath, file: now)
                    next = renamed.oldPath
                    before = try file(at: next, inCommit: parent!)
                } else {
                    change = PathChange(kind: .added, commit: details, path: tracked, oldPath: nil, file: now)
                }
            case (.some(let now), .some(let old)):
                if now != old { change = PathChange(kind: .edited, commit: details, path: tracked, oldPath: nil, file: now) }
            }
            guard try visit(id, tracked, change) else { return false }
            tracked = next
            known = parent.map { ($0, before) }
            return true
        }
    }

    /// Calls `visit` with each commit of the first-parent chain from `start` (default HEAD; an
    /// unborn branch has none), newest first, until it returns false.
    func walkFirstParent(from start: String?, _ visit: (CommitDetails) throws(GitError) -> Bool) throws(GitError) {
        let headID = try head()?.id
        guard let first = start ?? headID else { return }
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, handle), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        try check(git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue), "git_revwalk_sorting")
        try check(git_revwalk_simplify_first_parent(walk), "git_revwalk_simplify_first_parent")
        var oid = try Self.oid(first)
        try check(git_revwalk_push(walk, &oid), "git_revwalk_push")
        while true {
            let rc = git_revwalk_next(&oid, walk)
            if rc == GIT_ITEROVER.rawValue { return }
            try check(rc, "git_revwalk_next")
            guard try visit(try commitDetails(Self.hex(&oid))) else { return }
        }
    }
}
