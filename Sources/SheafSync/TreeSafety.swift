// A remote's tree is untrusted: before any of it reaches `.git/index` or the work tree, every
// entry passes the vault-path guard (no `..`, no `.git` or `.sheaf` in any spelling, names that
// fit the file system, UTF-8), has a mode Sheaf knows, and, for a symlink, points somewhere
// inside the vault and out of `.git`/`.sheaf`. What fails is refused: left out of the commit
// Sheaf merges or moves to (a file the local commit holds at that path stays as it was),
// reported, never written. Gitlinks (submodules) are kept in the tree but never written into the
// work tree.
import SheafCore
import SheafFiles
import SheafGit

/// A path of a remote's commit that Sheaf did not take, and why.
public struct RefusedPath: Sendable, Equatable, Codable {
    /// The path as text (bytes that are not UTF-8 shown as U+FFFD).
    public let path: String
    public let reason: String
}

struct TreeSafety {
    let repository: Repository

    struct Verdict {
        var safe: [TreeEntry] = []
        var refused: [RefusedPath] = []
    }

    static let knownModes: Set<UInt32> = [0o100644, 0o100755, 0o120000, 0o160000]

    /// Sorts a commit's entries into those that may be written and those refused. With
    /// `accepted` (the local commit the pull starts from, whose entries were written or checked
    /// already), only the entries that differ from it are checked: an entry the local tree holds
    /// with the same path, mode and blob gets the same verdict, so it is not looked at again (at
    /// 10k notes the whole-tree check was a quarter of a pull's CPU). `safe` is filled only when
    /// something is refused (the tree is then rebuilt without it). A refusal never costs the vault
    /// a file: at a refused path `accepted` holds, `accepted`'s entry stays, and a file the commit
    /// moved onto a refused path (git's rename detection) stays where it was.
    func check(commit: String, accepted: String? = nil) throws(GitError) -> Verdict {
        guard let accepted else { return try checkAll(commit: commit) }
        var verdict = Verdict()
        var refusedPaths = Set<[UInt8]>()
        for entry in try repository.changedEntries(from: accepted, to: commit) {
            guard let reason = try refusal(entry) else { continue }
            verdict.refused.append(RefusedPath(path: String(decoding: entry.path, as: UTF8.self), reason: reason))
            refusedPaths.insert(entry.path)
        }
        guard !refusedPaths.isEmpty else { return verdict }
        var kept = refusedPaths
        let refusedTexts = Set(verdict.refused.map { Array($0.path.utf8) })  // as the diff spells them
        for change in try repository.changes(from: accepted, to: commit)
        where change.kind == .renamed && refusedTexts.contains(Array(change.path.utf8)) {
            kept.insert(Array(change.oldPath.utf8))
        }
        verdict.safe = try repository.treeEntries(inCommit: commit).filter { !refusedPaths.contains($0.path) }
            + repository.treeEntries(inCommit: accepted).filter { kept.contains($0.path) }
        return verdict
    }

    /// Every entry of the commit checked (a first pull into an empty branch).
    private func checkAll(commit: String) throws(GitError) -> Verdict {
        var verdict = Verdict()
        for entry in try repository.treeEntries(inCommit: commit) {
            if let reason = try refusal(entry) {
                verdict.refused.append(RefusedPath(path: String(decoding: entry.path, as: UTF8.self), reason: reason))
                continue
            }
            verdict.safe.append(entry)
        }
        return verdict
    }

    private func refusal(_ entry: TreeEntry) throws(GitError) -> String? {
        if let refusal = VaultPathGuard.refusal(bytes: entry.path) { return refusal.description }
        guard Self.knownModes.contains(entry.file.mode) else {
            return "an unknown file mode (\(String(entry.file.mode, radix: 8)))"
        }
        guard entry.file.isSymlink, let path = entry.text else { return nil }
        let target = try repository.blobBytes(entry.file.blob)
        guard target.count <= VaultPathGuard.maxPathBytes, let text = String(validating: target, as: UTF8.self),
              !text.hasBytePrefix("/"), !text.contains("\0"),
              let resolved = VaultPath.normalize(VaultPath.join(VaultPath.folder(path), text)), !resolved.isEmpty,
              VaultPathGuard.refusal(resolved) == nil else {
            return "a symlink that leads outside the vault or into .git or .sheaf"
        }
        return nil
    }
}
