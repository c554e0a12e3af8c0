// A table of link targets that holds only the files some lookups will read: what `mv` and
// `backlinks` build. A lookup reads the files filed under a few keys (the file name it asks
// for, the name its path ends in, and that name with `.md`), so a table holding every file filed
// under the keys of its lookups answers them as the whole table would, from a handful of files.
// The whole table of 10k paths was three dictionaries to fill, and `mv` copied them for the
// vault before and after the move: a third of its time. A lookup that reads any other key (a
// note's text changed after its keys were taken) is answered by the whole table, built then,
// once: a partial table is only ever faster, never different.
import Foundation
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
        if let key = pathKey(lookup.path) { keys += exactKeys(key) }
        if let name = lookup.name { keys.append(name) }
        return keys
    }

    /// The keys read by the lookups of links that reach the file at `path` by its name (`Note`,
    /// `Note.md`, `Folder/Note`, `../Note.md`): its file name and its stem, each also with `.md`.
    public static func keysReaching(_ path: String) -> [String] {
        let (name, stem) = filed(underKey: path.lowercased())
        return [name, name + ".md", stem, stem + ".md"]
    }

    /// Whether a lookup of `target` could find the file at `path` in any table: only when one of
    /// the keys it reads is one `path` is filed under (its file name, or its stem). A label Sheaf
    /// folds back into a link (`[[Trips/Lisbon|Lisbon]]`) is such a lookup, of a name no key
    /// of the move holds.
    static func mayReach(_ target: String, from notePath: String, file path: String) -> Bool {
        let (name, stem) = filed(underKey: path.lowercased())
        return lookupKeys(target, from: notePath).contains { $0 == name || $0 == stem }
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
        /// A hash of each key that is ASCII (`asciiHashes`): an ASCII name whose lower case
        /// hashes to none of them is no key, found without making its lower case (10k names at
        /// every `mv`); a name that is not ASCII is lower-cased and looked up.
        private let hashes: Set<UInt64>
        let paths: [String]
        let changes: [(added: Bool, path: String)]
        private let made = Mutex<LinkTargets?>(nil)

        init(keys: Set<String>, paths: [String], changes: [(added: Bool, path: String)]) {
            self.keys = keys
            // A key equals an ASCII name when its NFC form is that name (U+037E, the Greek
            // question mark, is canonically `;`), so it is hashed in that form.
            hashes = Set(keys.compactMap { key in Self.asciiHashes(key.precomposedStringWithCanonicalMapping).map(\.name) })
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
            if let (name, stem) = Self.asciiHashes(path), !hashes.contains(name), !(note && hashes.contains(stem)) {
                return false
            }
            let (name, stem) = LinkTargets.filed(underKey: path.lowercased())
            return keys.contains(name) || (note && keys.contains(stem))
        }

        /// FNV-1a hashes of the lower case of the file name and of the stem of `path` (as
        /// `VaultPath.fileName` and `stem` cut them), when its file name is ASCII. On the string's
        /// own buffer: through the UTF-8 view's indices this was a third of the table's making.
        static func asciiHashes(_ path: String) -> (name: UInt64, stem: UInt64)? {
            if let hashes = path.utf8.withContiguousStorageIfAvailable({ asciiHashes(bytes: $0) }) { return hashes }
            return asciiHashes(bytes: Array(path.utf8))
        }

        static func asciiHashes<Bytes: RandomAccessCollection<UInt8>>(bytes: Bytes) -> (name: UInt64, stem: UInt64)? where Bytes.Index == Int {
            var start = bytes.endIndex, lastDot: Int?
            while start > bytes.startIndex {
                let byte = bytes[start - 1]
                if byte == UInt8(ascii: "/") { break }
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "."), lastDot == nil { lastDot = start - 1 }
                start -= 1
            }
            var hash: UInt64 = 0xcbf29ce484222325, stem: UInt64?
            for i in start..<bytes.endIndex {
                // `stem`: up to the last dot, unless the name starts with it.
                if i == lastDot, i != start { stem = hash }
                var byte = bytes[i]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                hash = (hash ^ UInt64(byte)) &* 0x100000001b3
            }
            return (hash, stem ?? hash)
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
