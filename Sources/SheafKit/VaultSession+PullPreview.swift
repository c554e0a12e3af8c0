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
    /// What a pull would do in each joined share (vault paths).
    public var shares: [SharePreview] = []
}

/// What `pull --dry-run` found in one share.
public struct SharePreview: Sendable {
    public let path: String
    public var pull: PullReport?
    public var uncommitted: [String] = []
    /// Why this share could not be previewed (the others and the vault were).
    public var error: SheafError?
}

extension VaultSession {
    public func previewPull(_ options: SyncOptions) throws(SheafError) -> PullPreview {
        try withWriterLock { (_) throws(SheafError) -> PullPreview in
            let repo = try requireRepository()
            let remote = options.remote ?? config["remote"] ?? "origin"
            var syncer = Syncer(repository: repo, workTree: vault.root, journal: syncJournal, device: device,
                                remote: remote, transfer: options.transfer)
            syncer.allowUnrelated = options.allowUnrelated
            let shares = shareList()
            let vault: (PullReport, [String])
            do {
                vault = try preview(repo, syncer, excluding: { path in VaultPathGuard.isReserved(path) || shares.share(holding: path) != nil })
            }
            var result = PullPreview(remote: remote, pull: vault.0, uncommitted: vault.1)
            for share in shares.shares {
                let zone = zone(share)
                guard zone.isJoined else { continue }
                var preview = SharePreview(path: share.path)
                do throws(SheafError) {
                    guard let shareRepo = try zone.open() else { continue }
                    var shareSyncer = Syncer(repository: shareRepo, workTree: zone.workTree, journal: zone.journal, device: device,
                                             remote: "origin", transfer: options.transfer)
                    shareSyncer.scope = zone.scope
                    let (pull, uncommitted) = try self.preview(shareRepo, shareSyncer, excluding: zone.excluded)
                    preview.pull = pull.rerooted(share)
                    preview.uncommitted = uncommitted.map(share.vaultPath)
                } catch {
                    preview.error = error
                }
                result.shares.append(preview)
            }
            return result
        }
    }

    /// One repository's preview: a commit of what its pull would commit first (the same status,
    /// the same exclusions), merged with the remote's commit by `Syncer.preview`.
    private func preview(_ repo: Repository, _ syncer: Syncer, excluding excluded: (String) -> Bool) throws(SheafError) -> (PullReport, [String]) {
        let changes: [StagedChange]
        let snapshot: String?
        do throws(GitError) {
            let status = try repo.workTreeStatus()
            for skipped in status.skipped { emit(.warning(VaultWarning(path: skipped.path, message: skipped.reason))) }
            changes = status.changes.filter { !excluded($0.path) && !($0.oldPath.map(excluded) ?? false) }
            let head = try repo.head()?.id
            snapshot = changes.isEmpty ? nil
                : try repo.commit(ofWorkTree: changes, onTop: head, message: "sheaf: \(device): preview", fallbackName: device)
        } catch {
            throw SheafError("cannot read the uncommitted changes", path: repo.workTree ?? vault.root, cause: error.description)
        }
        do throws(SyncError) {
            return (PullReport(try syncer.preview(local: snapshot)), changes.map(\.path).sorted(by: PathBytes.sortsBefore))
        } catch {
            throw describe(error)
        }
    }
}
