// A remote's tree is untrusted: before any of it reaches `.git/index` or the work tree, every
// entry passes the vault-path guard (no `..`, no `.git` or `.sheaf` in any spelling, names that
// fit the file system, UTF-8), has a mode Sheaf knows, and, for a symlink, points somewhere
// inside the vault and out of `.git`/`.sheaf`. What fails is refused: left out of the commit
// Sheaf moves to, reported, never written. Gitlinks (submodules) are kept in the tree but never
// written into the work tree.
import SheafCore
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
        var gitlinks: [String] = []
    }

    static let knownModes: Set<UInt32> = [0o100644, 0o100755, 0o120000, 0o160000]

    /// Sorts a commit's entries into those that may be written and those refused.
    func check(commit: String) throws(GitError) -> Verdict {
        var verdict = Verdict()
        for entry in try repository.treeEntries(inCommit: commit) {
            if let reason = try refusal(entry) {
                verdict.refused.append(RefusedPath(path: String(decoding: entry.path, as: UTF8.self), reason: reason))
                continue
            }
            if entry.isGitlink { verdict.gitlinks.append(entry.text ?? "") }
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
              !text.hasPrefix("/"), !text.contains("\0"),
              let resolved = VaultPath.normalize(VaultPath.join(VaultPath.folder(path), text)), !resolved.isEmpty,
              VaultPathGuard.refusal(resolved) == nil else {
            return "a symlink that leads outside the vault or into .git or .sheaf"
        }
        return nil
    }
}
