// Which paths git's ignore rules could possibly reach, read from the rules' text. Asking libgit2
// whether a path is ignored costs about ten stats (every ancestor's .gitignore, info/exclude,
// core.excludesFile), so asking for each of 10,000 files took most of a no-change scan. The
// walk asks only for the paths this says a rule might match; libgit2 still gives the answer.
//
// It errs towards asking: a pattern it cannot read exactly (globs, escapes) makes every name of
// its kind a candidate. Rules that can only match dot-names are left out, because the walk never
// enters a dot-file or dot-folder, and negations are left out, because they only un-ignore.

public struct IgnoreReach: Sendable, Equatable {
    /// Lower-cased last components of literal patterns: a name among them is asked about.
    public private(set) var names: Set<String> = [] {
        didSet { nameLengths = Set(names.map(\.utf8.count)) }
    }
    /// UTF-8 lengths of `names`: most names are ruled out without lower-casing them.
    private var nameLengths: Set<Int> = []
    /// A glob pattern could match a file: every file is asked about.
    public private(set) var anyFile = false
    /// A glob pattern could match a folder: every folder is asked about.
    public private(set) var anyFolder = false

    public init() {}

    /// The reach of `text`, the contents of a .gitignore-style file.
    public init(rules text: String) {
        add(rules: text)
    }

    /// Adds the patterns of `text`.
    public mutating func add(rules text: String) {
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = Substring(rawLine)
            while line.last == " " || line.last == "\t" { line.removeLast() }
            guard let first = line.first, first != "#", first != "!" else { continue }
            var folderOnly = false
            while line.last == "/" { line.removeLast(); folderOnly = true }
            let parts = line.pathParts()
            guard let last = parts.last else { continue }
            // A literal dot starting any component means the path runs through a dot-name.
            if parts.contains(where: { $0.hasBytePrefix(".") }) { continue }
            if last.unicodeScalars.contains(where: { "*?[\\".unicodeScalars.contains($0) }) {  // by scalar, as git matches
                anyFolder = true
                if !folderOnly { anyFile = true }
            } else {
                names.insert(last.lowercased())
            }
        }
    }

    /// Both reaches together.
    public func merging(_ other: IgnoreReach) -> IgnoreReach {
        var merged = self
        merged.names.formUnion(other.names)
        merged.anyFile = anyFile || other.anyFile
        merged.anyFolder = anyFolder || other.anyFolder
        return merged
    }

    /// Whether a rule might ignore the entry called `name`.
    public func mightIgnore(name: String, isFolder: Bool) -> Bool {
        mightIgnore(name: Substring(name), isFolder: isFolder)
    }

    /// The walk passes its path's last bytes, no String of their own (not generic: a generic
    /// across modules looked up its type's metadata on every call of the walk's 10k).
    public func mightIgnore(name: Substring, isFolder: Bool) -> Bool {
        if isFolder ? anyFolder : anyFile { return true }
        return nameLengths.contains(name.utf8.count) && names.contains(name.lowercased())
    }
}
