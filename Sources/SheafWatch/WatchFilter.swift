// Which vault paths the watcher follows: the walk's rules, so that what a watch batch names is
// what a scan would find. Dot-names (`.git`, `.sheaf`, `.obsidian`, editors' `.swp` files) are
// never followed, as the walk never enters them; the rest is the ignore predicate's to decide.
import SheafCore
import SheafFiles

/// Decides which paths the watcher follows (folders it watches, files it reports).
public struct WatchFilter {
    /// Whether a vault-relative path is ignored (`isFolder` says which kind it is).
    public var isIgnored: (_ path: String, _ isFolder: Bool) -> Bool

    /// A filter with an ignore predicate of its own.
    public init(isIgnored: @escaping (_ path: String, _ isFolder: Bool) -> Bool = { _, _ in false }) {
        self.isIgnored = isIgnored
    }

    /// The rules of `walker`: git's ignore rules (its `isIgnored`) and its `excludes` (Obsidian's
    /// excluded files, for the index), as the walk applies them.
    public init(walker: VaultWalker) {
        let excludes = walker.excludes, ignored = walker.isIgnored
        isIgnored = { path, folder in (excludes?(path, folder) ?? false) || ignored(path, folder) }
    }

    /// Whether the path has a part starting with `.`: never followed.
    static func isDotPath(_ path: String) -> Bool {
        path.utf8.first == UInt8(ascii: ".") || path.utf8.split(separator: UInt8(ascii: "/")).contains { $0.first == UInt8(ascii: ".") }
    }

    /// Whether the watcher follows `path`.
    func follows(_ path: String, isFolder: Bool) -> Bool {
        !path.isEmpty && !Self.isDotPath(path) && !isIgnored(path, isFolder)
    }
}
