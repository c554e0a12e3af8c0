// The vault's names and links as one snapshot of the index, for a client that asks many small
// questions in a row (a language server: a completion per keystroke, diagnostics per edit):
// notes with titles and aliases, every file as a link target, every link row. Taken from the
// index once (`VaultSession.linkMap`), it answers from memory; the client takes a new one after
// the watcher applied a batch. Links resolve by `LinkTargets`, the resolver `backlinks`, `mv`
// and `doctor` use, and links are written by `LinkRewriter`'s rule, as `mv` writes them.
import Foundation
import SheafCore

public struct VaultLinkMap: Sendable {
    /// A note or file offered after `[[`.
    public struct Candidate: Sendable, Equatable {
        public let path: String
        public let title: String
        /// The title, file name or alias the query matched.
        public let matched: String
        /// What to write between `[[` and `]]`: the shortest target that reaches the file from
        /// the linking note, with `|alias` when an alias matched.
        public let linkText: String
    }

    public let vault: Vault
    public let notes: [NoteSummary]
    let targets: LinkTargets
    /// Every link row of the index: the linking note and the target as written.
    let links: [(notePath: String, target: String)]
    /// An attachment's size in pixels and thumbnail, as the index records them.
    struct Image: Sendable {
        let width: Int?
        let height: Int?
        /// The thumbnail's absolute path (it may not be made yet).
        let thumbnail: String?
    }
    let images: [PathKey: Image]
    private let names: [Names]
    private let anchors = AnchorCache()

    /// One file's names as completion compares them: lower-cased once, as UTF-8 bytes.
    private struct Names: Sendable {
        let path: String
        let title: String
        let isNote: Bool
        let keys: [Key]
        let modified: Date
    }

    private struct Key: Sendable {
        let shown: String
        let lower: [UInt8]
        let alias: Bool

        init(_ shown: String, alias: Bool) {
            self.shown = shown
            lower = Array(shown.lowercased().utf8)
            self.alias = alias
        }
    }

    init(vault: Vault, notes: [NoteSummary], paths: [String], links: [(notePath: String, target: String)],
         images: [PathKey: Image] = [:]) {
        self.vault = vault
        self.images = images
        self.notes = notes
        self.links = links
        targets = LinkTargets(paths: paths)
        var names: [Names] = []
        for note in notes {
            var keys = [Key(note.title, alias: false)]
            let stem = VaultPath.stem(note.path)
            if stem != note.title { keys.append(Key(stem, alias: false)) }
            keys += note.aliases.map { Key($0, alias: true) }
            names.append(Names(path: note.path, title: note.title, isNote: true, keys: keys, modified: note.modified))
        }
        for path in paths where !VaultPath.isNote(path) {
            let name = VaultPath.fileName(path)
            names.append(Names(path: path, title: name, isNote: false, keys: [Key(name, alias: false)], modified: .distantPast))
        }
        // In path order, so that the order of the list breaks ties between equal matches.
        names.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        self.names = names
    }

    /// The file a link target reaches from the note at `notePath` (nil: none), as every command resolves it.
    public func resolve(_ target: String, from notePath: String) -> String? {
        target.isEmpty ? notePath : targets.resolve(target, from: notePath)
    }

    /// The shortest target that reaches `path` from the note at `notePath`, as Obsidian and `mv`
    /// write one: the bare name (without `.md`) while it reaches the file, else the vault path.
    public func linkText(to path: String, from notePath: String) -> String {
        let name = VaultPath.isNote(path) ? VaultPath.stem(path) : VaultPath.fileName(path)
        return LinkRewriter.wikiTarget(written: name, want: path, from: notePath, after: targets)
    }

    /// The notes (and, unless `notesOnly`, other files) whose title, file name or an alias matches
    /// `query` (case ignored: whole name, then its start, a word's start, anywhere, then its letters
    /// in order), best first, at most `limit`; an empty query lists the most recently modified notes.
    public func candidates(_ query: String, from notePath: String, notesOnly: Bool = false, limit: Int = 50) -> [Candidate] {
        let wanted = Array(query.lowercased().utf8)
        var scored: [(rank: Int, length: Int, name: Int, key: Int)] = []
        for (n, names) in names.enumerated() where !notesOnly || names.isNote {
            var best: (rank: Int, length: Int, key: Int)?
            for (k, key) in names.keys.enumerated() {
                guard let rank = Self.rank(wanted, in: key.lower) else { continue }
                if best == nil || (rank, key.lower.count) < (best!.rank, best!.length) { best = (rank, key.lower.count, k) }
            }
            if let best { scored.append((best.rank, best.length, n, best.key)) }
        }
        scored.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if wanted.isEmpty, names[a.name].modified != names[b.name].modified { return names[a.name].modified > names[b.name].modified }
            if a.length != b.length { return a.length < b.length }
            return a.name < b.name  // path order
        }
        return scored.prefix(limit).map { entry in
            let names = names[entry.name], key = names.keys[entry.key]
            let target = linkText(to: names.path, from: notePath)
            return Candidate(path: names.path, title: names.title, matched: key.shown,
                             linkText: key.alias ? target + "|" + key.shown : target)
        }
    }

    /// How well `query` matches `name` (both lower-cased UTF-8): 0 the whole name, 1 its start, 2
    /// a word's start, 3 anywhere, 4 its bytes in order; nil not at all.
    static func rank(_ query: [UInt8], in name: [UInt8]) -> Int? {
        if query.isEmpty { return 4 }
        if query.count > name.count { return nil }
        if name == query { return 0 }
        if name.starts(with: query) { return 1 }
        var best: Int?
        let first = query[0]
        var i = 1
        while i + query.count <= name.count {
            if name[i] == first && name[i..<(i + query.count)].elementsEqual(query) {
                let before = name[i - 1]
                let inWord = before >= 0x80 || (before >= 0x30 && before <= 0x39) || (before >= 0x61 && before <= 0x7A)
                if !inWord { return 2 }
                best = 3
            }
            i += 1
        }
        if let best { return best }
        var q = 0
        for byte in name where byte == query[q] {
            q += 1
            if q == query.count { return 4 }
        }
        return nil
    }

    /// The notes with a link that reaches `path`, in byte order of their paths (`backlinks`).
    public func linkingNotes(to path: String) -> [String] {
        let key = VaultPath.withoutNoteExtension(VaultPath.fileName(path)).lowercased()
        var linking = Set<PathKey>()  // by bytes: twins that link here are two notes
        for link in links where VaultPath.withoutNoteExtension(VaultPath.fileName(link.target)).lowercased() == key
            && targets.reaches(link.target, from: link.notePath, file: path) {
            linking.insert(PathKey(link.notePath))
        }
        return linking.map(\.path).sorted(by: PathBytes.precedes)
    }

    /// The headings and block ids of the note at `path`, read from its file (once per snapshot).
    public func outline(of path: String) -> NoteOutline? {
        anchors.outline(path, vault: vault)
    }

    /// What is wrong with the links of `outline` (a note's text, saved or not), as `doctor`
    /// reports it, and links whose name several files share. Links in `%% comments %%` are not
    /// checked, as `doctor` does not.
    public func problems(in outline: NoteOutline) -> [(link: NoteOutline.LinkSpan, problem: LinkProblem)] {
        var anchors: [PathKey: LinkProblem.Anchors?] = [:]
        return outline.links.filter { !$0.inComment }.compactMap { span in
            let (_, problem) = LinkProblem.check(span.link, from: outline.path, targets: targets, ambiguity: true) { path in
                if let known = anchors[PathKey(path)] { return known }
                // A link to a heading of its own note is checked against the text being edited.
                let source = PathBytes.same(path, outline.path) ? outline : self.outline(of: path)
                let made = source.map { LinkProblem.Anchors(headings: $0.headings.map(\.text), blockIDs: $0.blockIDs.map(\.id)) }
                anchors[PathKey(path)] = made
                return made
            }
            return problem.map { (span, $0) }
        }
    }

    /// Outlines read from files, kept for the life of one snapshot (any thread).
    private final class AnchorCache: @unchecked Sendable {
        private let lock = NSLock()
        private var outlines: [PathKey: NoteOutline?] = [:]

        func outline(_ path: String, vault: Vault) -> NoteOutline? {
            lock.lock()
            if let known = outlines[PathKey(path)] { lock.unlock(); return known }
            lock.unlock()
            var outline: NoteOutline?
            if VaultPath.isNote(path), case .whole(let bytes)? = NoteBytes.read(vault.absolute(path)) {
                outline = NoteOutline(text: String(decoding: bytes, as: UTF8.self), path: path)
            }
            lock.lock()
            outlines[PathKey(path)] = outline
            lock.unlock()
            return outline
        }
    }
}
