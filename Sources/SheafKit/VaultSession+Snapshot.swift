// Recording the work tree as a commit: before `rm` (so the removed note is in history) and for the
// deletion itself. The message is docs/sync.md's (Commits): `sheaf: <device>: 2 edited, 1 added`,
// with the paths in the body.
import SheafCore
import SheafGit

extension VaultSession {
    /// Stages everything git sees and commits it; nil when there was nothing to commit.
    @discardableResult
    func commitSnapshot() throws(SheafError) -> CommitInfo? {
        let repo = try requireRepository()
        _ = try Self.addExcludes(gitDirectory: repo.gitDirectory)  // vaults made before a pattern was added
        do {
            let staging = try repo.stageAll(excluding: VaultPathGuard.isReserved)
            // A path git cannot be given (not UTF-8) is named, and the rest is committed.
            for skipped in staging.skipped { onWarning?(VaultWarning(path: skipped.path, message: skipped.reason)) }
            let changes = try repo.stagedChanges()
            guard !changes.isEmpty else { return nil }
            return try repo.commitIndex(message: Self.commitMessage(device: device, changes: changes), fallbackName: device)
        } catch {
            throw SheafError("cannot record the vault in git", path: vault.root, cause: error.description)
        }
    }

    static func commitMessage(device: String, changes: [StagedChange]) -> String {
        var counts: [StagedChange.Kind: Int] = [:]
        for c in changes { counts[c.kind, default: 0] += 1 }
        let order: [StagedChange.Kind] = [.edited, .added, .deleted, .renamed]
        let summary = order.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
        let body = changes.map { change -> String in
            switch change.kind {
            case .renamed: return "renamed: \(change.oldPath ?? "") -> \(change.path)"
            default: return "\(change.kind.rawValue): \(change.path)"
            }
        }
        return "sheaf: \(device): \(summary)\n\n" + body.joined(separator: "\n") + "\n"
    }
}
