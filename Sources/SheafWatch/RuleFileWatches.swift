// Files outside the followed tree whose edits change what the walk follows: Obsidian's excluded
// files (`.obsidian/app.json`, `userIgnoreFilters`) and git's `.git/info/exclude`. The watcher
// never follows dot-folders, so these two folders get watches of their own, on the folder alone
// (not `.git` as a whole: its objects and refs change on every commit). An event naming the rule
// file marks the batch "rules changed": the consumer rebuilds the filter, the watcher watches
// the folders the new rules follow, and one incremental scan finds what they now include.
// While `.git/info` does not exist, `.git` itself is watched for it to appear (creations only).
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

final class RuleFileWatches {
    /// The rule files: the folder holding each (vault-relative) and its name.
    static let files: [(folder: String, name: String)] = [(".obsidian", "app.json"), (".git/info", "exclude")]

    private static let ruleMask: UInt32 = [IN_CLOSE_WRITE, IN_MODIFY, IN_CREATE, IN_DELETE, IN_MOVED_FROM, IN_MOVED_TO,
                                           IN_DELETE_SELF, IN_MOVE_SELF, IN_ONLYDIR, IN_DONT_FOLLOW]
        .reduce(0) { $0 | UInt32(bitPattern: $1) }
    private static let appearMask: UInt32 = [IN_CREATE, IN_MOVED_TO, IN_ONLYDIR, IN_DONT_FOLLOW]
        .reduce(0) { $0 | UInt32(bitPattern: $1) }

    /// Watch descriptor -> the folder it watches (a rule folder, or a parent waiting for one).
    private var folderOf: [Int32: String] = [:]

    /// What an event meant.
    enum Outcome {
        /// Not an event of these watches.
        case notMine
        /// Nothing that changes rules.
        case nothing
        /// A rule file (or its folder) changed: `path` names it.
        case rulesChanged(String)
    }

    /// Watches every rule folder that exists, and the parent of one that does not (when that
    /// parent is a dot-folder the vault's own watches do not see). Returns the rule folders newly
    /// watched (their rule file may have come with them).
    @discardableResult
    func refresh(vault: Vault, queue: InotifyQueue) -> [String] {
        var added: [String] = []
        for (folder, _) in Self.files {
            if folderOf.values.contains(folder) { continue }
            if case .watching(let wd) = queue.addWatch(vault.absolute(folder), mask: Self.ruleMask) {
                folderOf[wd] = folder
                added.append(folder)
                continue
            }
            // Not there (yet): a parent that is a dot-folder is watched for it to appear; the
            // vault root's own watch reports top-level dot-folders (`handleRootDotName`).
            let parent = VaultPath.folder(folder)
            guard !parent.isEmpty, !folderOf.values.contains(parent) else { continue }
            if case .watching(let wd) = queue.addWatch(vault.absolute(parent), mask: Self.appearMask) {
                folderOf[wd] = parent
            }
        }
        return added
    }

    /// Takes an event if it is one of these watches'.
    func handle(_ event: InotifyEvent, vault: Vault, queue: InotifyQueue) -> Outcome {
        guard let folder = folderOf[event.wd] else { return .notMine }
        if event.has(IN_IGNORED) {
            folderOf.removeValue(forKey: event.wd)
            refresh(vault: vault, queue: queue)
            return .nothing
        }
        let name = PathBytes.string(event.name) ?? ""
        if let rule = Self.files.first(where: { $0.folder == folder }) {
            if name.isEmpty, event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) { return .rulesChanged(folder) }
            return name == rule.name ? .rulesChanged(VaultPath.join(folder, name)) : .nothing
        }
        // A parent waiting for its rule folder.
        if event.isFolder, Self.files.contains(where: { $0.folder == VaultPath.join(folder, name) }) {
            return refresh(vault: vault, queue: queue).isEmpty ? .nothing : .rulesChanged(VaultPath.join(folder, name))
        }
        return .nothing
    }

    /// A dot-name appeared at the vault's top level (the root's watch reports it): when it is
    /// (or holds) a rule folder, watch it. Returns the rule folders newly watched.
    func rootDotNameAppeared(_ name: String, vault: Vault, queue: InotifyQueue) -> [String] {
        guard Self.files.contains(where: { $0.folder == name || $0.folder.hasBytePrefix(name + "/") }) else { return [] }
        return refresh(vault: vault, queue: queue)
    }
}
