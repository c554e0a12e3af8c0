// Which vault paths a change touched: the one answer to "what changed" that the scanner gives
// (from its walk), a pull gives (from the commit diff it applied) and the index takes back
// (`NoteIndex.apply`, per path, no walk), so nothing has to re-discover what it just wrote.
// It lives in SheafCore because SheafIndex and SheafSync both make it and cannot import each
// other; SheafKit hands it to its callers as it is. Paths are `PathKey`s: `café.md` in NFC and
// in NFD are two files and stay two entries.

/// The vault paths a change added, changed, removed or renamed (vault-relative, `/`-separated).
///
/// A path is in at most one of `added`, `changed` and `removed`; a rename's `from` is in none of
/// them and its `to` is in none of them either (a renamed file whose bytes also changed is still
/// one rename). A change set names paths only: what a path holds is read from disk by whoever
/// applies it, so applying one twice, or after an editor touched the same files, is harmless.
public struct VaultChangeSet: Sendable, Equatable, CustomStringConvertible {
    /// A file moved from one path to another.
    public struct Rename: Sendable, Hashable {
        public let from: PathKey
        public let to: PathKey
        public init(from: PathKey, to: PathKey) { self.from = from; self.to = to }
    }

    /// Paths that hold a file now and held none before.
    public private(set) var added: Set<PathKey> = []
    /// Paths whose file has other bytes (or another mode) now.
    public private(set) var changed: Set<PathKey> = []
    /// Paths that held a file before and hold none now.
    public private(set) var removed: Set<PathKey> = []
    /// Files that moved; `to` may also hold other bytes than `from` held.
    public private(set) var renamed: [Rename] = []
    /// Paths (of files or folders) whose state the change cannot tell: events that raced the
    /// disk (a file saved by rename and then deleted, a folder moved whose other half was not
    /// seen). Whoever applies the set looks at each of them, and at everything under it, as it is
    /// on disk then. Kept by `filter` (the rules decide when it is applied).
    public private(set) var recheck: Set<PathKey> = []

    public init() {}

    /// A change set of plain strings (tests, and callers that hold `String` paths).
    public init(added: [String] = [], changed: [String] = [], removed: [String] = [],
                renamed: [(from: String, to: String)] = []) {
        for path in added { add(path) }
        for path in changed { change(path) }
        for path in removed { remove(path) }
        for (from, to) in renamed { rename(from: from, to: to) }
    }

    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty && renamed.isEmpty && recheck.isEmpty }

    /// The number of paths named (a rename counts once).
    public var count: Int { added.count + changed.count + removed.count + renamed.count + recheck.count }

    /// Paths whose bytes are new at that path: added, changed and the destinations of renames,
    /// in byte order. These are the files to read (index) or to look at (thumbnails).
    public var written: [PathKey] {
        (Array(added) + Array(changed) + renamed.map(\.to)).sorted { PathBytes.precedes($0.path, $1.path) }
    }

    /// Paths that hold no file any more: removed ones and the sources of renames, in byte order.
    public var gone: [PathKey] {
        (Array(removed) + renamed.map(\.from)).sorted { PathBytes.precedes($0.path, $1.path) }
    }

    /// Every path named as added, changed, removed or renamed, in byte order (not `recheck`).
    public var paths: [PathKey] { (written + gone).sorted { PathBytes.precedes($0.path, $1.path) } }

    /// Records that `path` (a file or a folder) is to be looked at again, with everything under it.
    public mutating func recheck(_ path: String) {
        recheck.insert(PathKey(path))
    }

    /// Records that `path` now holds a file it did not hold before.
    public mutating func add(_ path: String) {
        let key = PathKey(path)
        guard !renamed.contains(where: { $0.to == key }) else { return }  // already a file there
        if removed.remove(key) != nil { changed.insert(key) } else if !changed.contains(key) { added.insert(key) }
    }

    /// Records that the file at `path` has other bytes now.
    public mutating func change(_ path: String) {
        let key = PathKey(path)
        guard !added.contains(key), !renamed.contains(where: { $0.to == key }) else { return }
        removed.remove(key)
        changed.insert(key)
    }

    /// Records that `path` holds no file any more.
    public mutating func remove(_ path: String) {
        let key = PathKey(path)
        if let i = renamed.firstIndex(where: { $0.to == key }) {
            let from = renamed.remove(at: i).from  // moved, then deleted: the original is gone
            removed.insert(from)
            return
        }
        if added.remove(key) != nil { return }  // added, then deleted: nothing happened
        changed.remove(key)
        removed.insert(key)
    }

    /// Records that the file at `from` moved to `to`.
    public mutating func rename(from: String, to: String) {
        let source = PathKey(from), target = PathKey(to)
        guard source != target else { return change(to) }
        if let i = renamed.firstIndex(where: { $0.to == source }) {
            let original = renamed.remove(at: i).from  // a -> b, then b -> c: a -> c
            if original == target { return change(to) }
            renamed.append(Rename(from: original, to: target))
        } else if added.remove(source) != nil {
            add(to)  // added, then moved: an addition at its new path
            return
        } else {
            changed.remove(source)
            renamed.append(Rename(from: source, to: target))
        }
        // Whatever `to` held before is replaced by the moved file.
        added.remove(target)
        changed.remove(target)
        removed.remove(target)
    }

    /// This change set followed by `later` (two pulls of one `sync`, say), as one.
    public func followed(by later: VaultChangeSet) -> VaultChangeSet {
        var result = self
        for rename in later.renamed { result.rename(from: rename.from.path, to: rename.to.path) }
        for key in later.removed.sorted(by: { PathBytes.precedes($0.path, $1.path) }) { result.remove(key.path) }
        for key in later.added.sorted(by: { PathBytes.precedes($0.path, $1.path) }) { result.add(key.path) }
        for key in later.changed.sorted(by: { PathBytes.precedes($0.path, $1.path) }) { result.change(key.path) }
        result.recheck.formUnion(later.recheck)
        return result
    }

    /// Only the paths `keep` accepts (a rename whose either end is refused becomes a removal
    /// and an addition of the ends kept).
    public func filter(_ keep: (PathKey) -> Bool) -> VaultChangeSet {
        var result = VaultChangeSet()
        result.added = added.filter(keep)
        result.changed = changed.filter(keep)
        result.removed = removed.filter(keep)
        result.recheck = recheck
        for rename in renamed {
            switch (keep(rename.from), keep(rename.to)) {
            case (true, true): result.renamed.append(rename)
            case (true, false): result.removed.insert(rename.from)
            case (false, true): result.added.insert(rename.to)
            case (false, false): break
            }
        }
        return result
    }

    public var description: String {
        func list(_ keys: Set<PathKey>) -> String {
            keys.map(\.path).sorted { PathBytes.precedes($0, $1) }.joined(separator: ", ")
        }
        var parts: [String] = []
        if !added.isEmpty { parts.append("added: " + list(added)) }
        if !changed.isEmpty { parts.append("changed: " + list(changed)) }
        if !removed.isEmpty { parts.append("removed: " + list(removed)) }
        if !renamed.isEmpty { parts.append("renamed: " + renamed.map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")) }
        if !recheck.isEmpty { parts.append("recheck: " + list(recheck)) }
        return parts.isEmpty ? "no change" : parts.joined(separator: "; ")
    }
}
