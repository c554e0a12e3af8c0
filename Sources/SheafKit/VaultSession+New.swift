// `sheaf new`: a note with id, title, created and tags, named after its title.
import Foundation
import SheafCore
import SheafFiles
import SheafIndex

/// What `sheaf new` made.
public struct NewNoteReport: Sendable {
    public let path: String
    public let id: String
    /// Other paths that differ from the new one only by letter case.
    public let caseClashes: [String]
    /// Notes with a link that reached another file and reaches the new note now (a new
    /// `Canvas.md` at the root takes `[[Canvas]]` from `Plugins/Canvas.md`): each with the file the
    /// link reached before.
    public var tookLinks: [(note: String, before: String)] = []
}

extension VaultSession {
    /// Makes a note. `template` is a filled template's text: its front-matter is kept (Sheaf adds
    /// `id`, `title` and `created` only where it has none) and its body comes before `body`.
    /// `exactName` names the file after the title exactly (a daily note), refusing a clash.
    public func createNote(title: String, folder: String?, tags: [String], body: String,
                           template: String? = nil, exactName: Bool = false,
                           now: Date = Date()) throws(SheafError) -> NewNoteReport {
        try withWriterLock(commits: false) { (proof) throws(SheafError) in
            try createNote(title: title, folder: folder, tags: tags, body: body, template: template,
                           exactName: exactName, now: now, proof)
        }
    }

    private func createNote(title: String, folder: String?, tags: [String], body: String, template: String?,
                            exactName: Bool, now: Date, _ proof: borrowing WriterLock) throws(SheafError) -> NewNoteReport {
        let trimmedTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmedTitle.isEmpty else { throw SheafError("a note needs a title", hint: "sheaf new \"My title\"") }
        // Without --folder, Obsidian's new-note location when the vault has .obsidian/app.json.
        let folderPath = try vaultFolder(folder ?? ObsidianSettings.load(vaultRoot: vault.root)?.newNoteFolder(workingFolder: workingFolder) ?? "")
        // The paths the index knows (no note is parsed); the disk decides where it differs.
        let (index, _) = try freshIndex()
        let known = try index.allPaths()
        let taken = Set(known)
        let fm = FileManager.default
        let path = exactName ? VaultPath.join(folderPath, trimmedTitle + ".md")
            : NoteFileName.freePath(for: trimmedTitle, in: folderPath) { candidate in
                taken.contains(candidate) || fm.fileExists(atPath: vault.absolute(candidate))
            }
        let lower = path.lowercased()
        let clashes = known.filter { $0.lowercased() == lower && !PathBytes.same($0, path) }  // a twin clashes too

        let id = UUID().uuidString.lowercased()
        var editor: FrontMatterEditor
        do { editor = try FrontMatterEditor(text: template ?? "") } catch {
            throw SheafError("cannot use this template", cause: "its front-matter is not valid YAML: \(error)")
        }
        let present = Set(editor.frontMatter.entries.map { $0.key.lowercased() })
        let cleanTags = try TagName.cleaned(tags)
        do throws(FrontMatterEditRefusal) {
            if !present.contains("id") { try editor.set("id", to: id) }
            if !present.contains("title") { try editor.set("title", to: trimmedTitle) }
            if !present.contains("created") { try editor.set("created", toDate: now) }
            if !cleanTags.isEmpty { try editor.addItems(cleanTags, to: "tags") }
        } catch {
            throw SheafError("cannot use this template", cause: error.description,
                             hint: "write its front-matter as plain `key: value` lines")
        }
        var text = editor.text
        if !body.isEmpty {
            // After Sheaf's own front-matter, a blank line; after a template's text, its next line.
            if template == nil { text += "\n" } else if !text.isEmpty && !text.endsWithLineBreak { text += "\n" }
            text += body + (body.endsWithLineBreak ? "" : "\n")
        }
        try fileWriter(proof).create(try safePath(path), try Self.withinSizeLimit(Array(text.utf8), path: path))
        invalidate()
        var report = NewNoteReport(path: path, id: id, caseClashes: clashes)
        // Only the links whose target names a file of this name: the index's keyed rows.
        let named = (try? index.links(concerning: [path])) ?? []
        report.tookLinks = Self.linksTakenOver(by: path, known: known, links: named)
        return report
    }

    /// The links among `links` (those whose target names a file of `path`'s name) that reached
    /// another file among `known` and reach `path` once it is there (LinkTargets, twice).
    static func linksTakenOver(by path: String, known: [String], links: [StoredLink]) -> [(note: String, before: String)] {
        guard !links.isEmpty else { return [] }
        let before = LinkTargets(paths: known), after = LinkTargets(paths: known + [path])
        var seen = Set<PathKey>()  // note and file it reached, by bytes: twins are two files
        var taken: [(note: String, before: String)] = []
        for link in links where !PathBytes.same(link.notePath, path) {
            guard let was = before.resolve(link.target, from: link.notePath), !PathBytes.same(was, path),
                  after.reaches(link.target, from: link.notePath, file: path),
                  seen.insert(PathKey(link.notePath + "\u{0}" + was)).inserted else { continue }
            taken.append((link.notePath, was))
        }
        return taken.sorted { PathBytes.precedes($0.note, $1.note) }
    }

    /// A folder named on the command line as a vault-relative path; refuses one outside the vault
    /// or inside `.git`/`.sheaf`, or one reached through a symlink.
    func vaultFolder(_ folder: String) throws(SheafError) -> String {
        guard let normalized = VaultPath.normalize(folder.hasBytePrefix("/") ? String(folder.dropFirst()) : folder) else {
            throw SheafError("folder is outside the vault", path: folder)
        }
        if normalized.pathParts().contains(where: { $0.hasBytePrefix(".") }) {
            throw SheafError("Sheaf does not write into hidden folders", path: folder,
                             hint: "pick a folder whose name does not start with a dot")
        }
        return try VaultPathGuard.requireFolder(normalized, in: vault.root).path
    }
}
