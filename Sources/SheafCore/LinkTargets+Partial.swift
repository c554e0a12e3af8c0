// A table of link targets that holds only the files some lookups will read: what `mv` and
// `backlinks` build. A lookup reads the files filed under a few keys (the file name it asks
// for, the name its path ends in, and that name with `.md`), so a table holding every file filed
// under the keys of its lookups answers them as the whole table would, from a handful of files.
// The whole table of 10k paths was three dictionaries to fill, and `mv` copied them for the
// vault before and after the move: a third of its time. A lookup that reads any other key (a
// note's text changed after its keys were taken) is answered by the whole table, built then,
// once: a partial table is only ever faster, never different.
import Synchronization

extension LinkTargets {
    /// A table for the lookups whose keys (`lookupKeys`, `keysReaching`) are among `keys`; any
    /// other lookup is answered by the whole table of `paths`.
    public init(paths: [String], answering keys: Set<String>) {
        partial = Partial(keys: keys, paths: paths, changes: [])
        for path in paths where partial!.files(path) { file(path) }
    }

    /// The keys a lookup of `target` from the note at `notePath` reads: for the path it spells,
    /// that path's file name and the name with `.md`; for a bare or vault-path target, its file
    /// name too (see `Lookup`).
    public static func lookupKeys(_ target: String, from notePath: String) -> [String] {
        guard let lookup = Lookup(target, from: notePath) else { return [] }
        var keys: [String] = []
        if let key = pathKey(lookup.path) {
            let name = VaultPath.fileName(key)
            keys += [name, name + ".md"]
        }
        if let name = lookup.name { keys.append(name) }
        return keys
    }

    /// The keys read by the lookups of links that reach the file at `path` by its name (`Note`,
    /// `Note.md`, `Folder/Note`, `../Note.md`): its file name and its stem, each also with `.md`.
    public static func keysReaching(_ path: String) -> [String] {
        let key = path.lowercased()
        let name = VaultPath.fileName(key), stem = VaultPath.stem(key)
        return [name, name + ".md", stem, stem + ".md"]
    }

    /// Whether a lookup of `target` could find the file at `path` in any table: only when one of
    /// the keys it reads is one `path` is filed under (its file name, or its stem). A label Sheaf
    /// folds back into a link (`[[Trips/Lisbon|Lisbon]]`) is such a lookup, of a name no key
    /// of the move holds.
    static func mayReach(_ target: String, from notePath: String, file path: String) -> Bool {
        let key = path.lowercased()
        let filed = [VaultPath.fileName(key), VaultPath.stem(key)]
        return lookupKeys(target, from: notePath).contains(where: filed.contains)
    }

    /// Nil when this table answers a lookup reading `keys`; else the whole table, which does.
    func whole(unlessHolding keys: [String]) -> LinkTargets? {
        guard let partial, !keys.allSatisfy(partial.keys.contains) else { return nil }
        return partial.whole()
    }

    /// The whole table of a partial one, made once on first need: every path, then every file
    /// the partial table was told of since (`add`, `remove`), in that order.
    final class Partial: Sendable {
        let keys: Set<String>
        /// The keys' lengths in UTF-8: an ASCII name keeps its length lower-cased, so a name of
        /// another length is no key, found without lower-casing it (10k names for each `mv`).
        private let lengths: Set<Int>
        let paths: [String]
        let changes: [(added: Bool, path: String)]
        private let made = Mutex<LinkTargets?>(nil)

        init(keys: Set<String>, paths: [String], changes: [(added: Bool, path: String)]) {
            self.keys = keys
            lengths = Set(keys.map(\.utf8.count))
            self.paths = paths
            self.changes = changes
        }

        /// This table with one more change (each table has its own: `before` and `after` differ).
        func with(added: Bool, _ path: String) -> Partial {
            Partial(keys: keys, paths: paths, changes: changes + [(added, path)])
        }

        /// Whether a partial table files `path`: under a key it answers for (its file name, or
        /// a note's stem, the three tables' keys but the path's own, whose name is its file name).
        func files(_ path: String) -> Bool {
            let note = VaultPath.isNote(path)
            if let (name, stem) = Self.asciiNameLengths(path), !lengths.contains(name), !(note && lengths.contains(stem)) {
                return false
            }
            let key = path.lowercased()
            return keys.contains(VaultPath.fileName(key)) || (note && keys.contains(VaultPath.stem(key)))
        }

        /// The UTF-8 lengths of the file name and the stem of `path` when its name is ASCII.
        static func asciiNameLengths(_ path: String) -> (name: Int, stem: Int)? {
            var name = 0, stem: Int?
            for byte in path.utf8.reversed() {
                if byte == UInt8(ascii: "/") { break }
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "."), stem == nil { stem = name }
                name += 1
            }
            // `VaultPath.stem`: up to the last dot, unless the name starts with it.
            let cut = stem.map { name - $0 - 1 } ?? 0
            return (name, cut > 0 ? cut : name)
        }

        func whole() -> LinkTargets {
            made.withLock { table in
                if let table { return table }
                var whole = LinkTargets(paths: paths)
                for change in changes {
                    if change.added { whole.add(change.path) } else { whole.remove(change.path) }
                }
                table = whole
                return whole
            }
        }
    }
}
