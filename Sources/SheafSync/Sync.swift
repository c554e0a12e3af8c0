// pull, push and sync: fetch the remote branch, merge it into the local branch (fast-forward,
// or a merge commit with both parents built by `TreeMerge`), update the work tree through
// `WorkTreeUpdate`, and push. A push the remote rejects makes `sync` fetch and merge again, up
// to three more times. The caller holds `.sheaf/lock` and has committed local changes first.
import Foundation
import SheafCore
import SheafGit

/// How a sync command failed, in the terms the CLI reports (and the exit code it uses).
public enum SyncError: Error, Sendable {
    case noRemote
    case unknownRemote(String)
    case detachedHead
    case unrelatedHistories(remote: String)
    /// The remote could not be reached; `waiting` local commits are not on it yet.
    case unreachable(remote: String, url: String, waiting: Int, cause: String)
    case transfer(remote: String, url: String, failure: TransferFailure, cause: String)
    case stillRejected(remote: String, attempts: Int)
    /// The remote is a folder here whose branch is locked (a push to it is under way, or one was
    /// killed on another device): retrying cannot help.
    case remoteLocked(remote: String, lock: String)
    case git(GitError)
}

/// What a pull did.
public struct PullReport: Sendable {
    public enum Kind: String, Sendable, Codable { case upToDate = "up-to-date", fastForward = "fast-forward", merged, remoteEmpty = "remote-empty" }
    public var kind: Kind
    public var remoteCommit: String?
    public var head: String?
    public var outcomes: [PathOutcome] = []
    /// Files an editor changed while the pull wrote them: the edit was kept and merged in.
    public var keptLocalEdits: [String] = []
    /// Paths of the remote's commit not taken because they are unsafe (see TreeSafety), or not
    /// written because the way there is unsafe here.
    public var refused: [RefusedPath] = []
    /// Submodules of the remote's commit, kept in git but not written into the vault.
    public var gitlinks: [String] = []
    /// The vault paths the pull added, changed, removed or moved in the work tree (from the
    /// commit diff it applied): what the index and thumbnails are updated from.
    public var changes = VaultChangeSet()
    public var conflicts: Int { outcomes.filter { $0.kind == .conflict }.count }
}

/// What a push did.
public struct PushReport: Sendable {
    public var pushed: Int
    public var head: String?
}

public struct Syncer {
    public let repository: Repository
    public let workTree: String
    public let journal: String
    public let device: String
    public let remote: String
    public var transfer: TransferOptions
    public var allowUnrelated = false
    /// The paths this repository holds, when it does not hold everything under its work tree
    /// (see SyncScope): a path of the remote's commit this remote may not write is refused and
    /// reported like an unsafe one; a file the vault hands to a share stays on disk.
    public var scope: SyncScope?
    /// Called with each path a pull's work-tree update has written (WorkTreeUpdate.onWritten).
    public var onWritten: (@Sendable (String) -> Void)?
    /// Waits between push attempts after a rejection (docs/sync.md, "Push and sync": 0.5 s, 1 s, 2
    /// s).
    public var retryDelays: [Double] = [0.5, 1, 2]

    public init(repository: Repository, workTree: String, journal: String, device: String, remote: String,
                transfer: TransferOptions) {
        self.repository = repository
        self.workTree = workTree
        self.journal = journal
        self.device = device
        self.remote = remote
        self.transfer = transfer
    }

    /// The branch being synced: the current branch, which the remote's branch of that name mirrors.
    public func branch() throws(SyncError) -> String {
        let reference: String
        do { reference = try repository.currentBranchReference() } catch { throw .detachedHead }
        return String(reference.dropFirst("refs/heads/".count))
    }

    /// Fetches and merges the remote branch into the local one. With `fetched` (started by
    /// `startFetch` while the local changes were committed), that fetch's result is merged.
    public func pull(_ fetched: PendingFetch? = nil) throws(SyncError) -> PullReport {
        try fetchAndMerge(dryRun: false, fetched: fetched)
    }

    /// Fetches and works out what `pull` would do to each path, without making a commit, writing
    /// the work tree or moving the branch (`pull --dry-run`). The local side is `local` (a commit
    /// of the uncommitted work on top of HEAD, as the pull would make it first), else HEAD. The
    /// remote's commit passes the pull's own tree safety: what the pull would refuse is reported as
    /// refused (never as an outcome), submodules as kept in git. `head` is HEAD.
    public func preview(local: String? = nil) throws(SyncError) -> PullReport {
        try fetchAndMerge(dryRun: true, local: local)
    }

    /// Fetches the remote branch into its tracking ref and nothing else (no commit, merge or
    /// push). It touches only the remote's packs and its tracking ref, so it needs no writer
    /// lock: the background sync fetches first, and takes the lock only once the remote has
    /// answered (an unreachable or silent remote never holds up the vault's other commands).
    /// Gives the remote branch's commit, nil when the remote has none.
    @discardableResult
    public func fetchOnly() throws(SyncError) -> String? {
        let branch = try branch()
        let url = try remoteURL()
        do {
            return try repository.fetch(remote: remote, branch: branch, options: transfer)
        } catch {
            let local = try git { () throws(GitError) in try repository.head()?.id }
            throw try transferError(error, url: url, local: local, branch: branch)
        }
    }

    private func fetchAndMerge(dryRun: Bool, fetched pending: PendingFetch? = nil, local snapshot: String? = nil) throws(SyncError) -> PullReport {
        let branch: String, url: String
        if let pending { (branch, url) = (pending.branch, pending.url) } else { (branch, url) = (try self.branch(), try remoteURL()) }
        let head = try git { () throws(GitError) in try repository.head()?.id }
        let local = snapshot ?? head
        let fetched: String?
        do {
            if let pending { fetched = try pending.wait().get() }
            else { fetched = try repository.fetch(remote: remote, branch: branch, options: transfer) }
        } catch {
            throw try transferError(error, url: url, local: local, branch: branch)
        }
        guard let theirs = fetched else { return PullReport(kind: .remoteEmpty, remoteCommit: nil, head: head) }
        var report = try merge(local: local, theirs: theirs, branch: branch, dryRun: dryRun)
        if dryRun { report.head = head }
        return report
    }

    /// Merges `theirs` into the local branch and updates the work tree; with `dryRun`, only
    /// reports what that would do (head stays the local commit).
    func merge(local: String?, theirs: String, branch: String, dryRun: Bool = false) throws(SyncError) -> PullReport {
        let diverged = try local.map { (l) throws(SyncError) in
            try git { () throws(GitError) -> Bool in
                let behind = try repository.isAncestor(theirs, of: l)
                let ahead = try repository.isAncestor(l, of: theirs)
                return !behind && !ahead
            }
        } ?? false
        let base = diverged ? try ancestor(local!, theirs) : nil
        return try git { () throws(GitError) -> PullReport in
            if let local, try repository.isAncestor(theirs, of: local) {
                return PullReport(kind: .upToDate, remoteCommit: theirs, head: local)
            }
            // The remote's commit is taken apart before anything of it is merged, previewed or
            // written: what Sheaf refuses is left out of a commit on top of it, and all that follows
            // works from that commit. The merge never meets a path git cannot index, and it records
            // that commit as its remote parent, so later merges find the refused entries absent on
            // both sides, never deleted here.
            let incoming = try sanitized(Target(commit: theirs, ownParents: nil, message: nil), branch: branch, accepted: local)
            var report: PullReport
            var target = incoming
            let fastForward = try local.map { (l) throws(GitError) in try repository.isAncestor(l, of: theirs) } ?? true
            if fastForward {
                report = PullReport(kind: .fastForward, remoteCommit: theirs, head: incoming.commit,
                                    outcomes: try outcomes(from: local, to: incoming.commit), refused: incoming.refused)
            } else {
                let details = try repository.commitDetails(theirs)
                let merge = TreeMerge(repository: repository, remoteTime: details.time, remoteDevice: Self.device(of: details))
                let merged = try merge.merge(base: base, ours: local!, theirs: incoming.commit)
                report = PullReport(kind: .merged, remoteCommit: theirs, head: local, outcomes: merged.outcomes, refused: incoming.refused)
                if !dryRun {
                    // The merge makes files of its own (merged texts and symlinks, conflict files):
                    // its commit passes the same check.
                    let parents = [local!, incoming.commit]
                    let message = CommitMessage.merge(device: device, remote: self.remote, branch: branch, outcomes: merged.outcomes)
                    let commit = try repository.createCommit(tree: merged.tree, parents: parents, message: message, fallbackName: device)
                    target = try sanitized(Target(commit: commit, ownParents: parents, message: message), branch: branch, accepted: local)
                    report.refused += target.refused
                    let refusedPaths = Set(target.refused.map { PathKey($0.path) })  // a refused twin is not its twin
                    report.outcomes.removeAll { refusedPaths.contains(PathKey($0.path)) }
                }
            }
            if dryRun {
                report.head = local
                report.gitlinks = try gitlinks(from: local, to: incoming.commit)
                return report
            }
            report.head = target.commit
            var update = WorkTreeUpdate(repository: repository, workTree: workTree, journal: journal)
            update.keepOnDisk = scope?.keepOnDisk
            update.onWritten = onWritten
            let result = try wrap { try update.run(from: local, to: target.commit) }
            report.keptLocalEdits = result.keptLocalEdits
            report.refused += result.refused
            report.gitlinks = result.gitlinks
            report.changes = result.changes
            return report
        }
    }

    /// The submodules (gitlinks) `to` brings that `from` does not hold as they are: what a pull
    /// keeps in git without writing them.
    private func gitlinks(from: String?, to: String) throws(GitError) -> [String] {
        let entries: [TreeEntry]
        if let from { entries = try repository.changedEntries(from: from, to: to) } else { entries = try repository.treeEntries(inCommit: to) }
        return entries.filter(\.isGitlink).map { String(decoding: $0.path, as: UTF8.self) }
    }

    /// The commit a pull moves to: its own merge commit, or the remote's commit.
    struct Target {
        let commit: String
        /// Set when the commit is Sheaf's own merge commit (it may be remade).
        let ownParents: [String]?
        let message: String?
    }

    /// The target without the entries Sheaf refuses to write (see TreeSafety): Sheaf's own merge
    /// commit is remade without them; a remote's commit gets a commit on top that leaves them
    /// out, so neither the merge, the work tree nor `.git/index` ever holds them and the next push
    /// drops them. A refused entry at a path the local commit `accepted` holds keeps the local
    /// entry there (a refused change is no deletion). Entries `accepted` holds as they are are not
    /// checked again.
    private func sanitized(_ target: Target, branch: String, accepted: String?) throws(GitError) -> (commit: String, refused: [RefusedPath]) {
        var verdict = try TreeSafety(repository: repository).check(commit: target.commit, accepted: accepted)
        if let scope, let refusal = scope.refusal {
            // The entries that differ from the local commit when the scope's paths are never in
            // it (the vault's tree holds no share's file), else the whole tree (a note share's
            // is one file).
            let refusedBefore = !verdict.refused.isEmpty
            let candidates: [TreeEntry]
            if refusedBefore {
                candidates = verdict.safe
            } else if scope.localCommitHoldsNoRefusedPath, let changed = verdict.changed {
                candidates = changed
            } else {
                candidates = try repository.treeEntries(inCommit: target.commit)
            }
            var outside = Set<[UInt8]>()
            for entry in candidates {
                let path = String(decoding: entry.path, as: UTF8.self)
                guard let reason = refusal(path) else { continue }
                verdict.refused.append(RefusedPath(path: path, reason: reason))
                outside.insert(entry.path)
            }
            if !outside.isEmpty {
                let whole = refusedBefore ? verdict.safe : try repository.treeEntries(inCommit: target.commit)
                verdict.safe = whole.filter { !outside.contains($0.path) }
            }
        }
        guard !verdict.refused.isEmpty else { return (target.commit, []) }
        let built = try repository.tree(from: verdict.safe)
        let refused = verdict.refused + built.rejected.map {
            RefusedPath(path: String(decoding: $0.path, as: UTF8.self), reason: "git refuses this path")
        }
        if let parents = target.ownParents, let message = target.message {
            let commit = try repository.createCommit(tree: built.tree, parents: parents, message: message + CommitMessage.refusedLines(refused),
                                                     fallbackName: device)
            return (commit, refused)
        }
        let message = CommitMessage.leftOut(device: device, remote: remote, branch: branch, refused: refused)
        let commit = try repository.createCommit(tree: built.tree, parents: [target.commit], message: message, fallbackName: device)
        return (commit, refused)
    }

    /// Pushes the local branch. A rejection is `.transfer(... .rejected ...)`.
    public func push() throws(SyncError) -> PushReport {
        let branch = try branch()
        let url = try remoteURL()
        guard let local = try git({ () throws(GitError) in try repository.head()?.id }) else {
            return PushReport(pushed: 0, head: nil)
        }
        let tracking = "refs/remotes/\(remote)/\(branch)"
        let known = try git { () throws(GitError) in try repository.referenceTarget(tracking) }
        let waiting = try git { () throws(GitError) in try repository.commitCount(local, excluding: known) }
        if waiting == 0 { return PushReport(pushed: 0, head: local) }
        do {
            try repository.push(remote: remote, branch: branch, options: transfer)
        } catch {
            let failure = try transferError(error, url: url, local: local, branch: branch)
            // A lock on the remote's branch, not a newer commit there, refused the push: no
            // pull and retry can help.
            if case .transfer(_, _, .rejected, _) = failure,
               let lock = Repository.localGitDirectory(url, from: workTree).flatMap({ Repository.refLocks(in: $0).first }) {
                throw .remoteLocked(remote: remote, lock: lock)
            }
            throw failure
        }
        // The remote has the commits. The tracking ref only notes where the remote is: one that
        // cannot be written (another fetch holding its lock past the wait) loses nothing, and the
        // next fetch sets it.
        try? repository.setReference(tracking, to: local, message: CommitMessage.pushReflog)
        return PushReport(pushed: waiting, head: local)
    }

    /// Pull then push; a rejected push fetches, merges and pushes again, up to 3 more times.
    /// The first pull merges `fetched` when given (see `pull`). `beforePush` runs after each pull
    /// (the vault commits there the hand-over of paths its shares hold).
    public func sync(_ fetched: PendingFetch? = nil, beforePush: () throws(SyncError) -> Void = {}) throws(SyncError) -> (pull: PullReport, push: PushReport) {
        var pending = fetched
        var attempt = 0
        var outcomes: [PathOutcome] = []
        var kept: [String] = []
        var changes = VaultChangeSet()
        while true {
            var pulled = try pull(pending)
            pending = nil
            outcomes += pulled.outcomes
            kept += pulled.keptLocalEdits
            changes = changes.followed(by: pulled.changes)
            try beforePush()
            do {
                let pushed = try push()
                pulled.outcomes = outcomes
                pulled.keptLocalEdits = kept
                pulled.changes = changes
                return (pulled, pushed)
            } catch SyncError.transfer(_, _, .rejected, _) {
                guard attempt < retryDelays.count else { throw .stillRejected(remote: remote, attempts: attempt + 1) }
                Thread.sleep(forTimeInterval: retryDelays[attempt])
                attempt += 1
            }
        }
    }

    // MARK: - Helpers

    func remoteURL() throws(SyncError) -> String {
        guard let url = try git({ () throws(GitError) in try repository.remoteURL(remote) }) else {
            let any = try git { () throws(GitError) in try repository.remotes() }
            throw any.isEmpty ? .noRemote : .unknownRemote(remote)
        }
        return url
    }

    /// The common ancestor; several merge bases are merged into one virtual ancestor first.
    private func ancestor(_ a: String, _ b: String) throws(SyncError) -> String? {
        var bases = try git { () throws(GitError) in try repository.mergeBases(a, b) }
        if bases.isEmpty {
            if allowUnrelated { return nil }
            throw .unrelatedHistories(remote: remote)
        }
        while bases.count > 1 {
            let x = bases.removeFirst(), y = bases.removeFirst()
            let inner = try ancestor(x, y)
            let virtual = try git { () throws(GitError) in
                let merge = TreeMerge(repository: repository, remoteTime: Date(timeIntervalSince1970: 0), remoteDevice: "ancestor")
                let tree = try merge.merge(base: inner, ours: x, theirs: y).tree
                return try repository.createCommit(tree: tree, parents: [x, y], message: CommitMessage.virtualAncestor,
                                                   fallbackName: device)
            }
            bases.insert(virtual, at: 0)
        }
        return bases[0]
    }

    /// The remote-side changes of a fast-forward, as outcomes.
    private func outcomes(from: String?, to: String) throws(GitError) -> [PathOutcome] {
        try repository.changes(from: from, to: to).map { change in
            switch change.kind {
            case .added: return PathOutcome(kind: .added, path: change.path)
            case .deleted: return PathOutcome(kind: .deleted, path: change.path)
            case .edited: return PathOutcome(kind: .updated, path: change.path)
            case .renamed: return PathOutcome(kind: .renamed, path: change.path, oldPath: change.oldPath)
            }
        }
    }

    private func transferError(_ error: GitError, url: String, local: String?, branch: String) throws(SyncError) -> SyncError {
        let failure = error.failure
        guard failure == .unreachable else {
            return .transfer(remote: remote, url: url, failure: failure, cause: error.message)
        }
        let known = try git { () throws(GitError) in try repository.referenceTarget("refs/remotes/\(remote)/\(branch)") }
        let waiting = try local.map { (l) throws(SyncError) in
            try git { () throws(GitError) in try repository.commitCount(l, excluding: known) }
        } ?? 0
        return .unreachable(remote: remote, url: url, waiting: waiting, cause: error.message)
    }

    /// The device that made a commit: from Sheaf's message `sheaf: <device>: ...`, else the author.
    static func device(of commit: CommitDetails) -> String {
        if let name = CommitMessage.device(inSummary: commit.summary) { return name }
        return commit.authorName.isEmpty ? "remote" : commit.authorName
    }

    private func git<T>(_ body: () throws(GitError) -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw .git(error) }
    }

    /// Runs a step that throws any error, keeping SyncErrors and GitErrors as they are.
    private func wrap<T>(_ body: () throws -> T) throws(GitError) -> T {
        do { return try body() } catch let error as GitError { throw error } catch {
            throw GitError(function: "work tree update", code: .other(-1), message: "\(error)")
        }
    }
}
