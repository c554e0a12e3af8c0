// Naming a note on the command line: by path (vault- or working-directory-relative, with or
// without `.md`), by unique title, by file name, by alias, or by an id prefix. Ambiguity is an
// error that lists the candidates.

/// What the lookup needs to know about each note.
public struct NoteHandle: Sendable, Equatable {
    public let path: String
    public let title: String
    public let id: String?
    public let aliases: [String]

    public init(path: String, title: String, id: String?, aliases: [String]) {
        self.path = path
        self.title = title
        self.id = id
        self.aliases = aliases
    }
}

public enum NoteLookup {
    /// Finds the one note `query` names.
    /// - Parameter workingFolder: the working directory relative to the vault root, nil when outside it.
    public static func find(_ query: String, in notes: [NoteHandle], workingFolder: String?) throws(SheafError) -> NoteHandle {
        let q = query.trimmingBlanks
        guard !q.isEmpty else { throw SheafError("empty note name", hint: "name a note by path, title or id") }
        var byPath: [PathKey: NoteHandle] = [:]  // bytes: `café.md` in NFC and NFD are two notes
        for note in notes { byPath[PathKey(note.path)] = note }
        func at(_ path: String) -> NoteHandle? { byPath[PathKey(path)] }

        // 1. Paths, from the working folder and from the vault root.
        let pathCandidates = paths(q, workingFolder: workingFolder)
        for p in exactPaths(query, workingFolder: workingFolder) {
            if let hit = at(p) { return hit }
        }
        // The same path typed in another Unicode normal form: one such note, or a list to pick from.
        for p in pathCandidates {
            let hits = notes.filter { $0.path == p || $0.path == p + ".md" || $0.path == p + ".markdown" }
            if hits.count == 1 { return hits[0] }
            if hits.count > 1 { throw ambiguous(String(q), hits) }
        }
        // The path in another letter case (`trips/lisbon`, as completion may write it): one such
        // note, or a list to pick from.
        for p in pathCandidates.map({ $0.lowercased() }) {
            let hits = notes.filter { let l = $0.path.lowercased(); return l == p || l == p + ".md" || l == p + ".markdown" }
            if hits.count == 1 { return hits[0] }
            if hits.count > 1 { throw ambiguous(String(q), hits) }
        }

        // 2. Title, 3. file name, 4. alias: exact, ignoring case.
        let lower = q.lowercased()
        let rules: [(String, (NoteHandle) -> Bool)] = [
            ("title", { $0.title.lowercased() == lower }),
            // The file name, with its extension or without (`Canvas.md` and `Canvas`).
            ("name", { VaultPath.stem($0.path).lowercased() == lower || VaultPath.fileName($0.path).lowercased() == lower }),
            ("alias", { $0.aliases.contains { $0.lowercased() == lower } }),
        ]
        for (_, matches) in rules {
            let hits = notes.filter(matches)
            if hits.count == 1 { return hits[0] }
            if hits.count > 1 { throw ambiguous(String(q), hits) }
        }

        // 5. id prefix (at least 4 characters, so a short word is not taken for an id).
        if q.count >= 4 {
            let hits = notes.filter { $0.id?.lowercased().hasPrefix(lower) == true }
            if hits.count == 1 { return hits[0] }
            if hits.count > 1 { throw ambiguous(String(q), hits) }
        }
        throw SheafError("no note matches", path: String(q),
                         cause: "no path, title, file name, alias or id prefix matches it",
                         hint: "`sheaf ls` lists the notes", kind: .noNoteMatches)
    }

    /// The paths `query` names exactly, byte for byte, in the order `find` tries them: the one
    /// of these that is a note is the note it finds (a caller with an index asks for just these).
    public static func exactPaths(_ query: String, workingFolder: String?) -> [String] {
        let q = query.trimmingBlanks
        guard !q.isEmpty else { return [] }
        return paths(q, workingFolder: workingFolder).flatMap { [$0, $0 + ".md", $0 + ".markdown"] }
    }

    /// `query` as a path from the working folder, then from the vault root.
    private static func paths(_ q: Substring, workingFolder: String?) -> [String] {
        var paths: [String] = []
        if let wf = workingFolder, let p = VaultPath.normalize(VaultPath.join(wf, String(q))) { paths.append(p) }
        if let p = VaultPath.normalize(String(q)) { paths.append(p) }
        return paths
    }

    static func ambiguous(_ query: String, _ hits: [NoteHandle]) -> SheafError {
        SheafError("more than one note matches", path: query, cause: "candidates:",
                   details: hits.sorted { $0.path < $1.path }.map { "\($0.path)  (\($0.title))" },
                   hint: "name the note by its path")
    }
}
