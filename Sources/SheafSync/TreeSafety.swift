// A remote's tree is untrusted: before any of it reaches `.git/index` or the work tree, every
// entry passes the vault-path guard (no `..`, no `.git` or `.sheaf` in any spelling, names that
// fit the file system, UTF-8), has a mode Sheaf knows, and, for a symlink, points somewhere
// inside the vault and out of `.git`/`.sheaf`, its target walked as the kernel walks it and
// through no other symlink of the tree. (No entry of a tree lies beyond one of its symlinks: a
// folder is a tree there, never a link; one on disk is the work-tree writer's to refuse.) What fails is refused: left out of the commit
// Sheaf merges or moves to (a file the local commit holds at that path stays as it was),
// reported, never written. Gitlinks (submodules) are kept in the tree but never written into the
// work tree.
#if canImport(Glibc)
import Glibc
#endif
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

    /// Which paths of one commit are symlinks, looked up once each.
    final class Symlinks {
        let repository: Repository
        let commit: String
        private var known: [[UInt8]: Bool] = [:]

        init(_ repository: Repository, _ commit: String) {
            self.repository = repository
            self.commit = commit
        }

        /// A symlink of the commit's tree or of the disk (one another repository of the same
        /// work tree wrote, a share's in the vault's folder, or the user's own).
        func contains(_ path: [UInt8]) throws(GitError) -> Bool {
            if let hit = known[path] { return hit }
            guard let text = String(validating: path, as: UTF8.self) else { return false }
            let found = try repository.file(at: text, inCommit: commit)?.isSymlink == true || onDisk(path)
            known[path] = found
            return found
        }

        /// Whether the work tree holds a symlink at `path` (regression: a vault link passing
        /// through a link a share's remote had written was taken as passing through a folder).
        func onDisk(_ path: [UInt8]) -> Bool {
            guard let root = repository.workTree else { return false }
            var info = stat()
            return lstat(root + "/" + String(decoding: path, as: UTF8.self), &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
        }
    }

    struct Verdict {
        var safe: [TreeEntry] = []
        var refused: [RefusedPath] = []
        /// The entries that differ from `accepted` (nil when the whole tree was checked).
        var changed: [TreeEntry]?
    }

    static let knownModes: Set<UInt32> = [0o100644, 0o100755, 0o120000, 0o160000]

    /// Rounds of the links' walk that refuse the new link a walk passes through, before every
    /// changed link is refused at once.
    static let cascadeRounds = 16

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
        /// Refused, with `accepted`'s entry kept at the path; dropped: refused, nothing kept.
        var refusedPaths = Set<[UInt8]>(), droppedPaths = Set<[UInt8]>()
        let symlinks = Symlinks(repository, commit)
        let changed = try repository.changedEntries(from: accepted, to: commit)
        verdict.changed = changed
        /// Whether anything changed: a path refused, or a refused one's kept entry dropped too.
        @discardableResult
        func refuse(_ path: [UInt8], _ reason: String, keeping: Bool = true) -> Bool {
            guard !droppedPaths.contains(path) else { return false }
            if refusedPaths.contains(path) {
                guard !keeping else { return false }
                refusedPaths.remove(path)  // the entry kept there leads out now: nothing is kept
                droppedPaths.insert(path)
                return true
            }
            if keeping { refusedPaths.insert(path) } else { droppedPaths.insert(path) }
            verdict.refused.append(RefusedPath(path: String(decoding: path, as: UTF8.self), reason: reason))
            return true
        }
        for entry in changed {
            if let reason = try refusal(entry, symlinks) { refuse(entry.path, reason) }
        }
        var renamedFrom: [[UInt8]: [UInt8]]?
        /// The tree the pull moves to: the commit without what is refused, `accepted`'s entry at
        /// a refused path (and at the old path of a file the commit moved onto one).
        func finalTree() throws(GitError) -> [TreeEntry] {
            guard !refusedPaths.isEmpty || !droppedPaths.isEmpty else { return try repository.treeEntries(inCommit: commit) }
            if renamedFrom == nil {
                renamedFrom = [:]
                for change in try repository.changes(from: accepted, to: commit) where change.kind == .renamed {
                    renamedFrom?[Array(change.path.utf8)] = Array(change.oldPath.utf8)  // as the diff spells them
                }
            }
            var kept = refusedPaths
            for path in refusedPaths { if let old = renamedFrom?[path] { kept.insert(old) } }
            kept.subtract(droppedPaths)
            return try repository.treeEntries(inCommit: commit).filter { !refusedPaths.contains($0.path) && !droppedPaths.contains($0.path) }
                + repository.treeEntries(inCommit: accepted).filter { kept.contains($0.path) }
        }
        // A new or changed symlink (a folder made a link, say) can change where another link
        // leads: an unchanged one, or the old one kept at a refused path. Every link of the tree
        // the pull moves to is walked again against that tree's links; the new link it passes
        // through is refused, else the link itself (regression: the kept old link was never
        // walked again, and a new `a/b/up -> ..` made it lead out).
        //
        // Until nothing more is refused: each round refuses only the first new link a walk
        // passes through, and a chain of 18 new links outlasted a cap of 16 rounds, after which
        // the rest of the chain was written and a link led out of the vault (regression). Past
        // `cascadeRounds`, every changed link is refused at once (the accepted links come back)
        // and each link that still leads out is dropped, so every further round drops one at
        // least, and the walk ends.
        let changedLinks = Set(changed.filter(\.file.isSymlink).map(\.path))
        var round = 0, refusedMore = !changedLinks.isEmpty
        while refusedMore {
            round += 1
            refusedMore = false
            if round == Self.cascadeRounds + 1 {
                for path in changedLinks.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    refuse(path, "a symlink among new links that lead out of the vault through one another")
                }
            }
            let tree = try finalTree()
            let links = Set(tree.filter(\.file.isSymlink).map(\.path))
            let isLink: ([UInt8]) -> Bool = { links.contains($0) || symlinks.onDisk($0) }
            for entry in tree where entry.file.isSymlink {
                guard let refusal = try symlinkRefusal(at: entry.path, target: repository.blobBytes(entry.file.blob), isLink) else { continue }
                if round <= Self.cascadeRounds, let through = refusal.through, changedLinks.contains(through),
                   !refusedPaths.contains(through), !droppedPaths.contains(through) {
                    refusedMore = refuse(through, "a symlink that another link's target (\(String(decoding: entry.path, as: UTF8.self))) would pass through") || refusedMore
                } else {
                    refusedMore = refuse(entry.path, refusal.reason, keeping: false) || refusedMore
                }
            }
        }
        guard !refusedPaths.isEmpty || !droppedPaths.isEmpty else { return verdict }
        verdict.safe = try finalTree()
        return verdict
    }

    /// Every entry of the commit checked (a first pull into an empty branch).
    private func checkAll(commit: String) throws(GitError) -> Verdict {
        var verdict = Verdict()
        let symlinks = Symlinks(repository, commit)
        for entry in try repository.treeEntries(inCommit: commit) {
            if let reason = try refusal(entry, symlinks) {
                verdict.refused.append(RefusedPath(path: String(decoding: entry.path, as: UTF8.self), reason: reason))
                continue
            }
            verdict.safe.append(entry)
        }
        return verdict
    }

    private func refusal(_ entry: TreeEntry, _ symlinks: Symlinks) throws(GitError) -> String? {
        if let refusal = VaultPathGuard.refusal(bytes: entry.path) { return refusal.description }
        guard Self.knownModes.contains(entry.file.mode) else {
            return "an unknown file mode (\(String(entry.file.mode, radix: 8)))"
        }
        guard entry.file.isSymlink else { return nil }
        return try symlinkRefusal(at: entry.path, target: repository.blobBytes(entry.file.blob)) { (path) throws(GitError) in try symlinks.contains(path) }?.reason
    }

    /// Why a symlink's target is refused, walked component by component (split at `/` bytes) as
    /// the kernel walks it from the link's folder: it must stay inside the vault and out of
    /// `.git`/`.sheaf`, and pass through no other symlink of the tree. Regression: the target was
    /// joined and normalized as text, so `sub/d -> ..` and `evil.md -> sub/d/d/d/../../../etc/passwd`
    /// each looked inside the vault, while the kernel, following `d` up at every step, ended at
    /// /etc/passwd (a link pointing at another link as its last component is fine: that link is
    /// checked itself).
    /// `through`: the symlink the target would pass through, when that is why.
    private func symlinkRefusal(at path: [UInt8], target: [UInt8],
                                _ isLink: ([UInt8]) throws(GitError) -> Bool) throws(GitError) -> (reason: String, through: [UInt8]?)? {
        let outside = (reason: "a symlink that leads outside the vault or into .git or .sheaf", through: [UInt8]?.none)
        guard target.count <= VaultPathGuard.maxPathBytes, String(validating: target, as: UTF8.self) != nil,
              target.first != UInt8(ascii: "/"), !target.contains(0) else { return outside }
        var stack = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).dropLast().map(Array.init)
        let parts = target.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
        for (i, part) in parts.enumerated() {
            if part == Array(".".utf8) { continue }
            if part == Array("..".utf8) {
                guard !stack.isEmpty else { return outside }
                stack.removeLast()
                continue
            }
            stack.append(part)
            let sofar = Array(stack.joined(separator: [UInt8(ascii: "/")]))
            if i < parts.count - 1, try isLink(sofar) {
                return ("a symlink whose target passes through another symlink (\(String(decoding: sofar, as: UTF8.self)))", sofar)
            }
        }
        let resolved = Array(stack.joined(separator: [UInt8(ascii: "/")]))
        guard !resolved.isEmpty, VaultPathGuard.refusal(bytes: resolved) == nil else { return outside }
        return nil
    }
}
