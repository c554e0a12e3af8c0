// Recording the work tree as a commit: before `rm` (so the removed note is in history) and for
// the deletion itself. The message (`sheaf: <device>: 2 edited, 1 added`, the paths in the body;
// docs/sync.md, Commits) is written by `CommitMessage` (SheafSync), its one owner.
import Glibc
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

extension VaultSession {
    /// Stages everything git sees and commits it; nil when there was nothing to commit. Only a
    /// command holding `.sheaf/lock` commits (`proof`).
    /// With `settledFor` (seconds), a staged file whose ctime is younger than that is not
    /// committed: the commit throws `.unsettled` naming them, and nothing is committed. The check
    /// comes after staging, on what the commit would hold, so a save made after a caller looked
    /// (the background sync's own check) is caught too.
    @discardableResult
    func commitSnapshot(_ proof: borrowing WriterLock, settledFor: Double? = nil) throws(SheafError) -> VaultCommit? {
        let repo = try requireRepository()
        _ = try Self.addExcludes(gitDirectory: repo.gitDirectory)  // vaults made before a pattern was added
        // The files of shares are their own repositories' (VaultSession+Shares).
        let shares = shareList()
        let excluded: (String) -> Bool = { path in VaultPathGuard.isReserved(path) || shares.share(holding: path) != nil }
        return try commitWorkTree(repo, root: vault.root, excluding: excluded, scoped: !shares.shares.isEmpty, settledFor: settledFor)
    }

    /// Commits what is uncommitted in the repository that holds `path`: the vault's, or the
    /// joined share's whose folder or note it is. A command about to replace or delete a file
    /// the user may have edited since the last sync calls it first, so the bytes it replaces are
    /// in history (`rm`, `restore`, `resolve`).
    /// Returns that repository's head afterwards (where the file's last version now is). A
    /// share whose pull was killed half way (its journal is there) is left for its next sync to
    /// finish, not committed half applied; one whose folder is gone holds nothing to commit.
    @discardableResult
    func commitSnapshot(holding path: String, _ proof: borrowing WriterLock) throws(SheafError) -> String? {
        guard let share = shareList().share(holding: path) else {
            guard let repo = try repository() else { return nil }
            try commitSnapshot(proof)
            return try repo.headOrNil()
        }
        let zone = zone(share)
        guard zone.isJoined, access(zone.journal, F_OK) != 0, (try? zone.checkPlace()) != nil,
              access(zone.workTree, F_OK) == 0, let repo = try zone.open() else { return nil }
        _ = try commitWorkTree(repo, root: zone.workTree, excluding: zone.excluded, scoped: share.isNote, settledFor: nil)
        return try repo.headOrNil()
    }

    /// Stages what git sees in `repo`'s work tree at `root` but `excluded` paths, and commits it
    /// (the vault's repository, or a share's).
    /// `scoped`: the repository holds part of its work tree (the vault with shares, a note
    /// share): what its index holds outside that part (a share took it, a shared note moved, a
    /// `git add`) leaves the index, and the commit records it as gone; the files stay.
    func commitWorkTree(_ repo: Repository, root: String, excluding excluded: (String) -> Bool, scoped: Bool,
                        settledFor: Double?) throws(SheafError) -> VaultCommit? {
        let inVault: (String) -> String = { path in self.vault.relative(root + "/" + path) ?? path }
        do {
            if scoped { try repo.untrackAll { excluded($0) && !VaultPathGuard.isReserved($0) } }
            let staging = try repairingDamagedIndex(repo) { () throws(GitError) in try repo.stageAll(excluding: excluded) }
            // A path git cannot be given (not UTF-8) is named, and the rest is committed.
            for skipped in staging.skipped { emit(.warning(VaultWarning(path: inVault(skipped.path), message: skipped.reason))) }
            if staging.clean { return nil }  // the status compared HEAD, index and work tree already
            var changes = try repo.stagedChanges()
            // Nothing excluded is ever committed, however it reached the index (a `git add`, a
            // move staged into a share's folder): a share's files are its own repository's.
            let stray = changes.filter { $0.kind != .deleted && excluded($0.path) }.map(\.path)
            if !stray.isEmpty {
                try repo.untrack(stray)
                changes = try repo.stagedChanges()
            }
            guard !changes.isEmpty else { return nil }
            if let settledFor {
                let young = Self.changedWithin(settledFor, changes.filter { $0.kind != .deleted }.map(\.path), root: root)
                if !young.isEmpty {
                    throw SheafError("files were changed moments ago; nothing was committed", path: vault.root,
                                     details: young.keys.map { inVault($0.path) }.sorted(by: PathBytes.precedes), kind: .unsettled)
                }
            }
            let made = try repo.commitIndex(message: CommitMessage.snapshot(device: device, changes: changes), fallbackName: device)
            return VaultCommit(id: made.id, summary: made.summary)
        } catch let error as SheafError {
            throw error
        } catch {
            throw SheafError("cannot record the vault in git", path: root, cause: "\(error)")
        }
    }

    /// The files among `paths` whose ctime (which no tool sets back) is less than `seconds` old,
    /// each with its age: being written, perhaps. A ctime far ahead of the clock says the clock
    /// was set back, not that the file is new.
    static func changedWithin(_ seconds: Double, _ paths: [String], root: String) -> [PathKey: Double] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var ages: [PathKey: Double] = [:]  // by bytes: each twin has its own age
        for path in paths {
            var info = stat()
            guard stat(root + "/" + path, &info) == 0 else { continue }
            let age = Double(now.tv_sec - info.st_ctim.tv_sec) + Double(now.tv_nsec - info.st_ctim.tv_nsec) / 1e9
            if age < seconds && age > -1 { ages[PathKey(path)] = max(0, age) }
        }
        return ages
    }

    /// Whether `.git/index` is damaged: libgit2 cannot open it and its own checksum says so
    /// (GitIndexCheck); an index libgit2 merely cannot read is left alone.
    static func gitIndexIsDamaged(_ repo: Repository) -> Bool {
        repo.unopenableIndex().map(GitIndexCheck.isDamaged) ?? false
    }

    /// Runs `body`; when it fails because `.git/index` cannot be read (Repository+IndexRepair),
    /// rebuilds the index from the last commit, says so, and runs `body` once more. Writers only.
    func repairingDamagedIndex<T>(_ repo: Repository, _ body: () throws(GitError) -> T) throws(GitError) -> T {
        do { return try body() } catch {
            guard Self.gitIndexIsDamaged(repo) else { throw error }
            let kept = try repo.rebuildDamagedIndex()
            emit(.warning(VaultWarning(path: vault.relative(kept) ?? kept,
                                       message: "git's index (.git/index) could not be read (\(error.message)); it was rebuilt from the last commit and the damaged file kept here; the notes were not touched")))
            return try body()
        }
    }
}
