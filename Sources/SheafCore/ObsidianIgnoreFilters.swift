// Obsidian's `userIgnoreFilters` compiled once per walk: a filter is a path prefix, or, written
// `/.../`, a JavaScript regular expression tested against the path. The settings file is synced
// content, so a pattern runs only on `BoundedRegex` (linear time); one it refuses excludes
// nothing and is reported (`refused`), never run on a backtracking matcher.

public struct ObsidianIgnoreFilters: Sendable {
    enum Filter: Sendable {
        case prefix(String)
        case pattern(BoundedRegex)
    }

    private let filters: [Filter]
    /// Each `/regex/` filter that is not used, with the reason.
    public let refused: [(filter: String, reason: String)]

    public init(_ written: [String]) {
        var filters: [Filter] = [], refused: [(String, String)] = []
        for filter in written {
            guard filter.count > 2, filter.hasPrefix("/"), filter.hasSuffix("/") else {
                filters.append(.prefix(filter))
                continue
            }
            do { filters.append(.pattern(try BoundedRegex(String(filter.dropFirst().dropLast())))) }
            catch { refused.append((filter, error.reason)) }
        }
        self.filters = filters
        self.refused = refused
    }

    public var isEmpty: Bool { filters.isEmpty }

    /// Whether Obsidian excludes `path` (a folder's path is tried with a trailing `/` too).
    public func excludes(_ path: String, isFolder: Bool) -> Bool {
        filters.contains { filter in
            switch filter {
            case .pattern(let regex): return regex.matches(path)
            case .prefix(let prefix): return path.hasBytePrefix(prefix) || (isFolder && (path + "/").hasBytePrefix(prefix))
            }
        }
    }

    /// The warning for a refused filter, naming it and the settings file.
    public static func warning(filter: String, reason: String) -> VaultWarning {
        VaultWarning(path: ".obsidian/app.json",
                     message: "userIgnoreFilters: the pattern \(filter) is not used (\(reason)); the files it names are indexed")
    }
}
