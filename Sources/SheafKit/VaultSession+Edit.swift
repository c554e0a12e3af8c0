// Edits to one note's file: appending text and adding or removing tags. Each rewrites the
// file atomically and changes only what it must (see FrontMatterEditor).
import SheafCore

/// What a tag edit did.
public struct TagEditReport: Sendable {
    public let path: String
    public let changed: [String]
    /// Tags asked for that needed no change (already there, or absent).
    public let unchanged: [String]
    /// Tags written inline in the body, which `tags remove` leaves alone.
    public let inline: [String]
}

extension VaultSession {
    /// Appends `text` to the end of a note, on a line of its own, in the note's line endings.
    public func append(_ text: String, to note: CatalogNote) throws(SheafError) {
        try withWriterLock(commits: false) { (proof) throws(SheafError) in
            let writer = fileWriter(proof)
            try editNote(note.path, with: writer, appendOnly: true) { current in Self.appending(text, to: current) }
            try writer.finish()
            invalidate()
        }
    }

    static func appending(_ text: String, to current: String) -> String {
        let eol = NoteDocument(text: current).lineEnding
        var addition = text.replacingOccurrences(of: "\r\n", with: "\n")
        if !addition.endsWithLineBreak { addition += "\n" }
        if eol == "\r\n" { addition = addition.replacingOccurrences(of: "\n", with: "\r\n") }
        var result = current
        if !result.isEmpty && !result.endsWithLineBreak { result += eol }
        return result + addition
    }

    public func addTags(_ tags: [String], to note: CatalogNote) throws(SheafError) -> TagEditReport {
        try editTags(note, try TagName.cleaned(tags)) { (editor, wanted) throws(FrontMatterEditRefusal) in
            let present = Set(note.note.tags.map(Self.tagKey))
            return try editor.addItems(wanted.filter { !present.contains(Self.tagKey($0)) }, to: "tags", normalize: Self.tagKey)
        }
    }

    public func removeTags(_ tags: [String], from note: CatalogNote) throws(SheafError) -> TagEditReport {
        try editTags(note, tags.map(TagName.stripped).filter { !$0.isEmpty }) { (editor, wanted) throws(FrontMatterEditRefusal) in
            try editor.removeItems(wanted, from: "tags", normalize: Self.tagKey)
        }
    }

    private func editTags(_ note: CatalogNote, _ wanted: [String],
                          _ change: @escaping (inout FrontMatterEditor, [String]) throws(FrontMatterEditRefusal) -> [String]) throws(SheafError) -> TagEditReport {
        guard !wanted.isEmpty else { throw SheafError("no tag given", hint: "sheaf tags add NOTE TAG...") }
        let firstChange = try withWriterLock(commits: false) { (proof) throws(SheafError) -> [String]? in
            let writer = fileWriter(proof)
            var firstChange: [String]?
            // Made on the note as it is when written: an editor's save meanwhile is kept.
            try editNote(note.path, with: writer) { (text) throws(SheafError) -> String? in
                var editor: FrontMatterEditor
                do { editor = try FrontMatterEditor(text: text) }
                catch { throw SheafError("will not change this note", path: note.path, cause: "\(error)") }
                let changed: [String]
                do throws(FrontMatterEditRefusal) { changed = try change(&editor, wanted) }
                catch { throw SheafError("will not change this note", path: note.path, cause: error.description,
                                         hint: "edit its front-matter in your editor") }
                if firstChange == nil { firstChange = changed }
                return changed.isEmpty ? nil : editor.text
            }
            try writer.finish()
            return firstChange
        }
        let changed = firstChange ?? []
        if !changed.isEmpty { invalidate() }
        let changedKeys = Set(changed.map(Self.tagKey))
        let frontMatterKeys = Set(note.note.frontMatterTags.map(Self.tagKey))
        let inlineKeys = Set(note.note.tags.map(Self.tagKey)).subtracting(frontMatterKeys)
        let rest = wanted.filter { !changedKeys.contains(Self.tagKey($0)) }
        return TagEditReport(path: note.path, changed: changed,
                             unchanged: rest.filter { !inlineKeys.contains(Self.tagKey($0)) },
                             inline: rest.filter { inlineKeys.contains(Self.tagKey($0)) })
    }

    static func tagKey(_ tag: String) -> String {
        (tag.hasPrefix("#") ? String(tag.dropFirst()) : tag).lowercased()
    }
}
