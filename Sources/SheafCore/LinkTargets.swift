// Resolving link targets the way Obsidian does: a path first, then a unique name anywhere in the
// vault. Built once from the list of files, every lookup is a dictionary hit, never a scan.

public struct LinkTargets: Sendable {
    private var byPath: [String: String] = [:]
    private var byFileName: [String: [String]] = [:]
    private var byNoteStem: [String: [String]] = [:]

    public init(paths: some Sequence<String>) {
        for path in paths { add(path) }
    }

    public mutating func add(_ path: String) {
        byPath[path.lowercased()] = path
        byFileName[VaultPath.fileName(path).lowercased(), default: []].append(path)
        if VaultPath.isNote(path) { byNoteStem[VaultPath.stem(path).lowercased(), default: []].append(path) }
    }

    public mutating func remove(_ path: String) {
        byPath[path.lowercased()] = nil
        byFileName[VaultPath.fileName(path).lowercased()]?.removeAll { PathBytes.same($0, path) }
        byNoteStem[VaultPath.stem(path).lowercased()]?.removeAll { PathBytes.same($0, path) }
    }

    public func contains(_ path: String) -> Bool { byPath[path.lowercased()] != nil }

    /// The vault path a link points at, nil when it points nowhere (or at its own note's heading).
    public func resolve(_ link: Link, from notePath: String) -> String? {
        link.isWiki ? resolveWiki(link.target, from: notePath) : resolveRelative(link.target, from: notePath)
    }

    /// `[[Target]]`: a vault path (with or without `.md`), else a file or note name.
    public func resolveWiki(_ target: String, from notePath: String) -> String? {
        guard !target.isEmpty else { return nil }
        if let normalized = VaultPath.normalize(target) {
            if let hit = byPath[normalized.lowercased()] ?? byPath[(normalized + ".md").lowercased()] { return hit }
        }
        let name = VaultPath.fileName(target).lowercased()
        var candidates = byFileName[name] ?? []
        if candidates.isEmpty { candidates = byNoteStem[name] ?? [] }
        if target.contains("/") {
            let suffix = "/" + target.lowercased()
            candidates = candidates.filter {
                let p = "/" + $0.lowercased()
                return p.hasSuffix(suffix) || VaultPath.withoutNoteExtension(p).hasSuffix(suffix)
            }
        }
        return Self.closest(candidates, to: notePath)
    }

    /// `[text](path)`: relative to the note's folder, or to the vault root when it starts with `/`.
    public func resolveRelative(_ target: String, from notePath: String) -> String? {
        let joined = target.hasPrefix("/") ? String(target.dropFirst()) : VaultPath.join(VaultPath.folder(notePath), target)
        guard let normalized = VaultPath.normalize(joined), !normalized.isEmpty else { return nil }
        if let hit = byPath[normalized.lowercased()] { return hit }
        if VaultPath.fileExtension(normalized).isEmpty { return byPath[(normalized + ".md").lowercased()] }
        return nil
    }

    /// Among several files of one name: the one in the linking note's folder, else the shortest path.
    static func closest(_ candidates: [String], to notePath: String) -> String? {
        if candidates.count <= 1 { return candidates.first }
        let folder = VaultPath.folder(notePath)
        if let same = candidates.first(where: { VaultPath.folder($0) == folder }) { return same }
        return candidates.min { ($0.count, $0) < ($1.count, $1) }
    }

    /// Whether a bare name would point at `path` and nothing else.
    public func nameIsUnique(_ name: String, for path: String) -> Bool {
        let key = name.lowercased()
        let candidates = (byFileName[key]?.isEmpty == false ? byFileName[key] : byNoteStem[key]) ?? []
        return candidates == [path]
    }
}
