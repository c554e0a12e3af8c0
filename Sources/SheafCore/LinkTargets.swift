// Resolving link targets the way Obsidian does (docs/links.md): relative and rooted paths, the
// vault path, then a file name with candidates under the linking note's folder first. Built once
// from the list of files, every lookup is a dictionary hit, never a scan. Keys compare without
// case and by canonical equivalence (what a user types); the files behind one key are kept apart
// by their bytes (`café.md` in NFC and in NFD, `Note.md` and `note.md` are two files), and a link
// reaches the one it spells.

public struct LinkTargets: Sendable {
    private var byPath = FilesByKey()
    private var byFileName = FilesByKey()
    private var byNoteStem = FilesByKey()
    /// Set for a table of some keys only (LinkTargets+Partial.swift).
    var partial: Partial?

    public init(paths: some Sequence<String>) {
        // Sized once: grown from empty, the three tables of 10k paths were rehashed a dozen
        // times each (a tenth of building them, in `mv`).
        let count = paths.underestimatedCount
        byPath.reserve(count)
        byFileName.reserve(count)
        byNoteStem.reserve(count)
        for path in paths { file(path) }
    }

    public mutating func add(_ path: String) {
        if let partial {
            self.partial = partial.with(added: true, path)
            guard partial.files(path) else { return }
        }
        file(path)
    }

    // One lower-casing a path: its name and stem keys are cut from its key. Swift lower-cases
    // scalar by scalar (no context, not even Greek's final sigma), and no scalar lower-cases to
    // `/` or `.`, so the name of the lower-cased path is the lower-cased name.
    mutating func file(_ path: String) {
        let key = path.lowercased()
        let (name, stem) = Self.filed(underKey: key)
        byPath.add(path, at: key)
        byFileName.add(path, at: name)
        if VaultPath.isNote(path) { byNoteStem.add(path, at: stem) }
    }

    /// The name and stem keys of the file whose path key (its lower case) is `key`: the keys of
    /// `byFileName` and, for a note, `byNoteStem`; a partial table files a path by them too.
    static func filed(underKey key: String) -> (name: String, stem: String) {
        (VaultPath.fileName(key), VaultPath.stem(key))
    }

    /// The name keys an exact lookup of the path key `key` reads (`exact`): the name it ends in,
    /// and that name with `.md`.
    static func exactKeys(_ key: String) -> [String] {
        let name = VaultPath.fileName(key)
        return [name, name + ".md"]
    }

    public mutating func remove(_ path: String) {
        if let partial { self.partial = partial.with(added: false, path) }
        let key = path.lowercased()
        let (name, stem) = Self.filed(underKey: key)
        byPath.remove(path, at: key)
        byFileName.remove(path, at: name)
        byNoteStem.remove(path, at: stem)
    }

    public func contains(_ path: String) -> Bool {
        let key = path.lowercased()
        if partial != nil, let whole = whole(unlessHolding: [VaultPath.fileName(key)]) { return whole.contains(path) }
        return byPath.holds(key)
    }

    /// The vault path a link points at, nil when it points nowhere. A link to a heading or block
    /// of its own note (`[[#Heading]]`, `[t](#heading)`) points at that note.
    public func resolve(_ link: Link, from notePath: String) -> String? {
        if link.target.isEmpty { return link.fragment != nil ? notePath : nil }
        return resolve(link.target, from: notePath)
    }

    /// Obsidian's rules, for wiki-links, embeds, properties and markdown links alike (the
    /// `#heading` and `|label` already cut off; markdown targets percent-decoded):
    /// 1. `./x` and `../x` relative to the linking note's folder, and `/x` from the vault root:
    ///    that path only (`.md` optional);
    /// 2. else the vault path as written (`Folder/Note`, `.md` optional);
    /// 3. else by file name (`.md` optional for notes; a target with folders must end the
    ///    candidate's path): candidates under the linking note's folder first, then the
    ///    shortest path, then the smaller path in byte order. Aliases are never targets.
    public func resolve(_ target: String, from notePath: String) -> String? {
        Self.closest(candidates(target, from: notePath), to: notePath)
    }

    /// Whether `target` (linked from `notePath`) reaches the file at `path`: the file, by its
    /// bytes, never a twin whose path is equal as a String (`café.md` in NFC and in NFD).
    public func reaches(_ target: String, from notePath: String, file path: String) -> Bool {
        // A partial table need not hold what a lookup that cannot reach the file reads.
        if partial != nil, !Self.mayReach(target, from: notePath, file: path) { return false }
        return resolve(target, from: notePath).map { PathBytes.same($0, path) } ?? false
    }

    /// `reaches` for a link (one to its own note's heading reaches that note).
    public func reaches(_ link: Link, from notePath: String, file path: String) -> Bool {
        if link.target.isEmpty { return resolve(link, from: notePath).map { PathBytes.same($0, path) } ?? false }
        return reaches(link.target, from: notePath, file: path)
    }

    /// Every file `target` could name by the rules of `resolve`, before the closest is chosen:
    /// one file for a path that exists, several when the name is ambiguous (a language server
    /// says so), none when it reaches nothing.
    public func candidates(_ target: String, from notePath: String) -> [String] {
        if partial != nil, let whole = whole(unlessHolding: Self.lookupKeys(target, from: notePath)) {
            return whole.candidates(target, from: notePath)
        }
        guard let lookup = Lookup(target, from: notePath) else { return [] }
        if let hit = exact(lookup.path) { return [hit] }
        guard let name = lookup.name else { return [] }
        var candidates = byFileName[name]
        if candidates.isEmpty { candidates = byNoteStem[name] }
        candidates = Self.spelled(candidates, as: VaultPath.fileName(target)) { VaultPath.fileName($0) }
        if target.contains("/") {
            let suffix = "/" + target.lowercased()
            candidates = candidates.filter {
                let p = "/" + $0.lowercased()
                return p.hasSuffix(suffix) || VaultPath.withoutNoteExtension(p).hasSuffix(suffix)
            }
        }
        return candidates
    }

    /// The file at vault path `path` (any case), or the note at `path.md`.
    func exact(_ path: String) -> String? {
        guard let key = Self.pathKey(path), let written = VaultPath.normalize(path) else { return nil }
        if partial != nil, let whole = whole(unlessHolding: Self.exactKeys(key)) {
            return whole.exact(path)
        }
        for (key, written) in [(key, written), (key + ".md", written + ".md")] {
            let files = byPath[key]
            if !files.isEmpty { return Self.spelled(files, as: written) { $0 }.first }
        }
        return nil
    }

    /// `candidates` with every set of twins (paths one key holds: they differ only in case or in
    /// composition) cut to one: the twin whose `part` is spelled, byte for byte, as `written`
    /// (or as `written` + `.md`), else the first in byte order. Candidates keep their order.
    static func spelled(_ candidates: [String], as written: String, _ part: (String) -> String) -> [String] {
        guard candidates.count > 1 else { return candidates }
        var twins: [String: [String]] = [:]  // by key, deliberately: case and composition apart
        for path in candidates { twins[path.lowercased(), default: []].append(path) }
        guard twins.count < candidates.count else { return candidates }
        func rank(_ path: String) -> Bool {
            PathBytes.same(part(path), written) || PathBytes.same(part(path), written + ".md")
        }
        let chosen = Set(twins.values.map { group in
            PathKey(group.min { a, b in rank(a) != rank(b) ? rank(a) : PathBytes.precedes(a, b) }!)
        })
        return candidates.filter { chosen.contains(PathKey($0)) }
    }

    /// `path` normalized and lower-cased, as `byPath` is keyed; nil for no path in the vault.
    static func pathKey(_ path: String) -> String? {
        guard let normalized = VaultPath.normalize(path), !normalized.isEmpty else { return nil }
        return normalized.lowercased()
    }

    /// What `resolve` looks up for a target: the path tried as it is (with `.md` optional), then,
    /// unless the target is relative or rooted, the file name (`byFileName`, then `byNoteStem`).
    struct Lookup {
        let path: String
        let name: String?

        init?(_ target: String, from notePath: String) {
            guard !target.isEmpty else { return nil }
            if target.hasBytePrefix("./") || target.hasBytePrefix("../") || target == "." || target == ".." {
                (path, name) = (VaultPath.join(VaultPath.folder(notePath), target), nil)
            } else if target.hasBytePrefix("/") {
                (path, name) = (String(target.drop { $0 == "/" }), nil)
            } else {
                (path, name) = (target, VaultPath.fileName(target).lowercased())
            }
        }
    }

    /// Tells cheaply which links a change to some files (added, removed or moved: `paths`, at
    /// both ends of a move) can concern: a link whose lookups meet none of these files' keys
    /// finds the same entries before and after, so it reaches the same file. Exact for that
    /// purpose (it errs only towards "may"), and far cheaper than resolving every link twice.
    public struct Change: Sendable {
        private let pathKeys: Set<String>
        private let nameKeys: Set<String>

        public init(paths: [String]) {
            pathKeys = Set(paths.map { $0.lowercased() })
            nameKeys = Set(paths.flatMap { [VaultPath.fileName($0).lowercased(), VaultPath.stem($0).lowercased()] })
        }

        /// Whether the file `target` (linked from `notePath`) reaches may differ after the change.
        public func mayConcern(_ target: String, from notePath: String) -> Bool {
            // Unless the target ends in `.` or `/`, its file name is the last part of every path
            // it is looked up by, and each key of a changed file ends in that file's name or stem:
            // a name that is none of them settles it (most links, one lower-casing each).
            if !target.isEmpty, !LinkTargets.endsInNoFileName(target),
               !nameKeys.contains(VaultPath.fileName(target).lowercased()) { return false }
            guard let lookup = Lookup(target, from: notePath) else { return false }
            if let key = LinkTargets.pathKey(lookup.path), pathKeys.contains(key) || pathKeys.contains(key + ".md") { return true }
            return lookup.name.map(nameKeys.contains) ?? false
        }
    }

    /// Whether a target ends in no file name (`Folder/`, `Note.md/.`, `x.`): its last part is
    /// not the name of the file it reaches, so only its whole path tells (`Change.mayConcern`;
    /// the index keeps such links apart for the same reason, `links.no_name`).
    public static func endsInNoFileName(_ target: String) -> Bool {
        target.utf8.last == UInt8(ascii: ".") || target.utf8.last == UInt8(ascii: "/")
    }

    /// Among several files of one name: those under the linking note's folder first, then the
    /// shortest path, then byte order (so every run picks the same one).
    static func closest(_ candidates: [String], to notePath: String) -> String? {
        if candidates.count <= 1 { return candidates.first }
        let folder = VaultPath.folder(notePath)
        let prefix = folder.isEmpty ? "" : folder.lowercased() + "/"
        func rank(_ path: String) -> (Int, Int) { (path.lowercased().hasPrefix(prefix) ? 0 : 1, path.utf8.count) }
        return candidates.min { a, b in
            let (ra, rb) = (rank(a), rank(b))
            return ra != rb ? ra < rb : PathBytes.precedes(a, b)
        }
    }
}

/// Files by a lookup key, in the order they were added. Nearly every key holds one file (twins
/// that differ only in case or composition, and notes that share a file name, are the rare
/// rest), so the first is kept on its own and only the others in a list: a table of 10k keys
/// each holding a one-element array made 10k arrays to allocate, retain and free for every `mv`.
struct FilesByKey: Sendable {
    private var first: [String: String] = [:]
    private var others: [String: [String]] = [:]

    subscript(key: String) -> [String] {
        guard let path = first[key] else { return [] }
        guard let more = others[key] else { return [path] }
        return [path] + more
    }

    func holds(_ key: String) -> Bool { first[key] != nil }

    mutating func reserve(_ count: Int) { first.reserveCapacity(count) }

    mutating func add(_ path: String, at key: String) {
        if first[key] == nil { first[key] = path } else { others[key, default: []].append(path) }
    }

    mutating func remove(_ path: String, at key: String) {
        var files = self[key].filter { !PathBytes.same($0, path) }
        guard files.count < self[key].count else { return }
        first[key] = files.isEmpty ? nil : files.removeFirst()
        others[key] = files.isEmpty ? nil : files
    }
}
