// Recording the work tree as a commit: before `rm` (so the removed note is in history) and for
// the deletion itself. The message (`sheaf: <device>: 2 edited, 1 added`, the paths in the body;
// docs/sync.md, Commits) is written by `CommitMessage` (SheafSync), its one owner.
import SheafCore
import SheafGit
import SheafSync

extension VaultSession {
    /// Stages everything git sees and commits it; nil when there was nothing to commit. Only a
    /// command holding `.sheaf/lock` commits (`proof`).
    @discardableResult
    func commitSnapshot(_ proof: borrowing WriterLock) throws(SheafError) -> VaultCommit? {
        let repo = try requireRepository()
        _ = try Self.addExcludes(gitDirectory: repo.gitDirectory)  // vaults made before a pattern was added
        do {
            let staging = try repairingDamagedIndex(repo) { () throws(GitError) in try repo.stageAll(excluding: VaultPathGuard.isReserved) }
            // A path git cannot be given (not UTF-8) is named, and the rest is committed.
            for skipped in staging.skipped { emit(.warning(VaultWarning(path: skipped.path, message: skipped.reason))) }
            if staging.clean { return nil }  // the status compared HEAD, index and work tree already
            let changes = try repo.stagedChanges()
            guard !changes.isEmpty else { return nil }
            let made = try repo.commitIndex(message: CommitMessage.snapshot(device: device, changes: changes), fallbackName: device)
            return VaultCommit(id: made.id, summary: made.summary)
        } catch {
            throw SheafError("cannot record the vault in git", path: vault.root, cause: error.description)
        }
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
