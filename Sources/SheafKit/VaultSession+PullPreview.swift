// `sheaf pull --dry-run`: fetch, then work out what a pull would do to each path (merged,
// conflict, resurrected, renamed, added, deleted, updated) without a commit, a write to the work
// tree or a move of the branch. A pull commits uncommitted changes first: the preview merges a
// commit of them on top of HEAD (made without `.git/index` or a branch moving), so it says what
// the pull will do to them too. The remote's commit is checked as the pull checks it
// (`Syncer.preview`): refused paths are reported, not previewed.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

/// What `pull --dry-run` found.
public struct PullPreview: Sendable {
    public var remote: String
    public var pull: PullReport
    /// Paths with changes not yet committed: a real pull commits them first, and the preview's
    /// outcomes include them.
    public var uncommitted: [String]
}

extension VaultSession {
    public func previewPull(_ options: SyncOptions) throws(SheafError) -> PullPreview {
        try withWriterLock { (_) throws(SheafError) -> PullPreview in
            let repo = try requireRepository()
            let remote = options.remote ?? config["remote"] ?? "origin"
            var syncer = Syncer(repository: repo, workTree: vault.root, journal: syncJournal, device: device,
                                remote: remote, transfer: options.transfer)
            syncer.allowUnrelated = options.allowUnrelated
            // What the pull's own commit-first would record: the same status, the same exclusions.
            let changes: [StagedChange]
            let snapshot: String?
            do throws(GitError) {
                let status = try repo.workTreeStatus()
                for skipped in status.skipped { emit(.warning(VaultWarning(path: skipped.path, message: skipped.reason))) }
                changes = status.changes.filter { !VaultPathGuard.isReserved($0.path) && !($0.oldPath.map(VaultPathGuard.isReserved) ?? false) }
                let head = try repo.head()?.id
                snapshot = changes.isEmpty ? nil
                    : try repo.commit(ofWorkTree: changes, onTop: head, message: "sheaf: \(device): preview", fallbackName: device)
            } catch {
                throw SheafError("cannot read the vault's uncommitted changes", path: vault.root, cause: error.description)
            }
            let report = Result { () throws(SyncError) in try syncer.preview(local: snapshot) }
            switch report {
            case .success(let pull):
                let uncommitted = changes.map(\.path).sorted()
                return PullPreview(remote: remote, pull: PullReport(pull), uncommitted: uncommitted)
            case .failure(let error):
                throw describe(error)
            }
        }
    }
}
