// `sheaf new`: a note with id, title, created and tags, named after its title.
import Foundation
import SheafCore

/// What `sheaf new` made.
public struct NewNoteReport: Sendable {
    public let path: String
    public let id: String
    /// Other paths that differ from the new one only by letter case.
    public let caseClashes: [String]
}

extension VaultSession {
    public func createNote(title: String, folder: String?, tags: [String], body: String,
                           now: Date = Date()) throws(SheafError) -> NewNoteReport {
        let trimmedTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmedTitle.isEmpty else { throw SheafError("a note needs a title", hint: "sheaf new \"My title\"") }
        // Without --folder, Obsidian's new-note location when the vault has .obsidian/app.json.
        let folderPath = try vaultFolder(folder ?? ObsidianSettings.load(vaultRoot: vault.root)?.newNoteFolder(workingFolder: workingFolder) ?? "")
        let catalog = try catalog()
        let taken = Set(catalog.files.map(\.path))
        let fm = FileManager.default
        let path = NoteFileName.freePath(for: trimmedTitle, in: folderPath) { candidate in
            taken.contains(candidate) || fm.fileExists(atPath: vault.absolute(candidate))
        }
        let lower = path.lowercased()
        let clashes = catalog.files.map(\.path).filter { $0.lowercased() == lower && $0 != path }

        let id = UUID().uuidString.lowercased()
        var editor = try! FrontMatterEditor(text: "")
        editor.set("id", to: id)
        editor.set("title", to: trimmedTitle)
        editor.set("created", to: NoteDate.format(now))
        let cleanTags = tags.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }.filter { !$0.isEmpty }
        if !cleanTags.isEmpty { editor.addItems(cleanTags, to: "tags") }
        var text = editor.text
        if !body.isEmpty {
            text += "\n" + body + (body.endsWithLineBreak ? "" : "\n")
        }
        try fileWriter().create(try safePath(path), Array(text.utf8))
        invalidate()
        return NewNoteReport(path: path, id: id, caseClashes: clashes)
    }

    /// A folder named on the command line as a vault-relative path; refuses one outside the vault
    /// or inside `.git`/`.sheaf`, or one reached through a symlink.
    func vaultFolder(_ folder: String) throws(SheafError) -> String {
        guard let normalized = VaultPath.normalize(folder.hasPrefix("/") ? String(folder.dropFirst()) : folder) else {
            throw SheafError("folder is outside the vault", path: folder)
        }
        if normalized.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            throw SheafError("Sheaf does not write into hidden folders", path: folder,
                             hint: "pick a folder whose name does not start with a dot")
        }
        return try VaultPathGuard.requireFolder(normalized, in: vault.root).path
    }
}
