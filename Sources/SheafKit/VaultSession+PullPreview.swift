// `sheaf pull --dry-run`: fetch, then work out what a pull would do to each path (merged,
// conflict, resurrected, renamed, added, deleted, updated) without a commit, a write to the work
// tree or a move of the branch. A pull commits uncommitted changes first; the preview merges the
// last commit and names the uncommitted paths, whose outcome it cannot know. The remote's commit
// is checked as the pull checks it (`Syncer.preview`): refused paths are reported, not previewed.
import Foundation
import SheafCore
import SheafGit
import SheafSync

/// What `pull --dry-run` found.
public struct PullPreview: Sendable {
    public var remote: String
    public var pull: PullReport
    /// Paths with changes not yet committed (a real pull commits them first).
    public var uncommitted: [String]
}

extension VaultSession {
    public func previewPull(_ options: SyncOptions) throws(SheafError) -> PullPreview {
        try withWriterLock { (_) throws(SheafError) -> PullPreview in
            let repo = try requireRepository()
            let remote = options.remote ?? config["remote"] ?? "origin"
            var transfer = TransferOptions(acceptNewHost: options.acceptNewHost, progress: options.progress)
            transfer.credential = options.credential
            transfer.user = options.user
            var syncer = Syncer(repository: repo, workTree: vault.root, journal: syncJournal, device: device,
                                remote: remote, transfer: transfer)
            syncer.allowUnrelated = options.allowUnrelated
            let report = Result { () throws(SyncError) in try syncer.preview() }
            switch report {
            case .success(let pull):
                let uncommitted = ((try? repo.workTreeChanges()) ?? [])
                    .map(\.path).filter { !VaultPathGuard.isReserved($0) }.sorted()
                return PullPreview(remote: remote, pull: pull, uncommitted: uncommitted)
            case .failure(let error):
                throw describe(error)
            }
        }
    }
}
