// A conflict file's content without a YAML library, for the small merge driver: the remote side
// of a note with `conflict-of` and `id` added as `sheaf`'s line editor adds them (SheafSync's
// `ConflictFile.content`), for front-matter whose reading is certain without a parser
// (`PlainFrontMatter`). Anything else is "cannot tell", and the driver hands the merge to `sheaf`.
// `PlainConflictNoteTests` holds every answer to `ConflictFile.content`.

public enum PlainConflictNote {
    /// The conflict file for `remote`, the other side of note `notePath`; nil when that needs a
    /// YAML parser (front-matter that is not plain, holds a key twice, or already has one of the
    /// two keys).
    public static func content(remote: [UInt8], notePath: String, isNote: Bool) -> [UInt8]? {
        // A file that is not a note, or not text, is kept as it is (the name marks it).
        guard isNote, let text = NoteMerge.text(remote) else { return remote }
        // A note path always reads as text in YAML (it ends in `.md` or `.markdown`), so only
        // its characters decide the quoting; anything else is left to `sheaf`.
        guard VaultPath.isNote(notePath) else { return nil }
        var document = NoteDocument(text: text)
        var lines = document.frontMatter?.lines ?? []
        if let block = document.frontMatter {
            guard let keys = PlainFrontMatter.keys(of: block),
                  Set(keys.map { Array($0.utf8) }).count == keys.count,
                  !keys.contains(where: { $0.utf8.elementsEqual("conflict-of".utf8) || $0.utf8.elementsEqual("id".utf8) })
            else { return nil }
        }
        let eol = document.lineEnding
        // Each new key goes after the last line that is not blank, as the line editor puts it.
        func append(_ line: String) {
            var i = lines.count
            while i > 0 && Lines.content(lines[i - 1]).isBlank { i -= 1 }
            lines.insert(line + eol, at: i)
        }
        let path = YAMLQuoting.needsQuotesAsText(notePath, inFlow: false) ? YAMLQuoting.doubleQuoted(notePath) : notePath
        append("conflict-of: " + path)
        // Hex digits in groups joined by `-`: plain text in YAML.
        append("id: " + ConflictName.derivedID(notePath: notePath, content: remote))
        if document.frontMatter == nil {
            document.frontMatter = FrontMatterBlock(opening: "---" + eol, lines: lines, closing: "---" + eol)
        } else {
            document.frontMatter!.lines = lines
        }
        return Array(document.rendered.utf8)
    }
}
