// Snippets are cut from the files, not stored: the index keeps postings only. For each hit the
// note is read, the first line where the query matched is taken (or the note's start), and what
// matched is marked: the Highlighter runs the index's own tokenizer over the line, so a note found
// through a stem, a folded accent or a CJK bigram has exactly that marked.
import Foundation
import SheafCore
import SheafFiles

enum Snippet {
    static let width = 160

    /// What the index holds of a hit: whether it read the note without a warning (then its body
    /// is what follows the front-matter block and the YAML need not be parsed: Yams was most of
    /// a snippet's cost), the blob id of the bytes it read, and the note's own snippet (its start).
    struct Indexed {
        var readWhole: Bool
        var hash: String
        var snippet: String
    }

    static func make(vault: Vault, path: String, highlighter: Highlighter, indexed: Indexed? = nil) -> [(text: String, match: Bool)] {
        guard let read = NoteBytes.read(vault.absolute(path)) else { return [] }
        let data = read.bytes
        let body: String
        let fallback: () -> String
        if let indexed, indexed.readWhole, case .whole = read, let text = String(validating: data, as: UTF8.self), !text.utf8.contains(0) {
            body = NoteDocument(text: text).body
            // The note's start, as the index stored it when the bytes are those it read.
            fallback = { GitBlobID.of(data) == indexed.hash ? indexed.snippet : MarkdownScan(body: body).snippet }
        } else {
            let note = Note(path: path, read: read)
            body = note.body
            fallback = { note.snippet }
        }
        var found: [(text: String, match: Bool)]?
        forEachLine(of: body) { raw in
            let line = MarkdownScan.plainLine(raw.trimmingHorizontalWhitespace)
            guard !line.isEmpty else { return true }
            let matches = highlighter.matches(in: line)
            if matches.isEmpty { return true }
            found = pieces(line, matches)
            return false
        }
        if let found { return found }
        let line = fallback()
        return pieces(line, highlighter.matches(in: line))
    }

    /// Calls `visit` with each non-empty line of `text` until it returns false: the pieces of
    /// `text.split(whereSeparator: \.isNewline)`, found one at a time. Every scalar that is a
    /// newline Character on its own (CR, LF, VT, FF, NEL, U+2028, U+2029) is a grapheme break on
    /// both sides, and CR LF leaves an empty piece between, which is skipped: the same lines.
    static func forEachLine(of text: String, _ visit: (Substring) -> Bool) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var i = start
        while i < scalars.endIndex {
            switch scalars[i].value {
            case 0x0A, 0x0D, 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                if start < i, !visit(text[start..<i]) { return }
                i = scalars.index(after: i)
                start = i
            default:
                i = scalars.index(after: i)
            }
        }
        if start < scalars.endIndex { _ = visit(text[start...]) }
    }

    /// At most `width` characters of `line`, starting a little before the first match, as
    /// pieces; `true` marks a match.
    static func pieces(_ line: String, _ found: [Range<String.Index>]) -> [(text: String, match: Bool)] {
        var start = line.startIndex, end = line.endIndex
        if line.count > width {
            let before = line.distance(from: line.startIndex, to: found.first?.lowerBound ?? line.startIndex)
            start = line.index(line.startIndex, offsetBy: max(0, min(before - 30, line.count - width)))
            end = line.index(start, offsetBy: width, limitedBy: line.endIndex) ?? line.endIndex
        }
        var pieces: [(String, Bool)] = []
        if start > line.startIndex { pieces.append(("…", false)) }
        var cursor = start
        for r in found where r.upperBound > cursor && r.lowerBound < end {
            let from = max(r.lowerBound, cursor), to = min(r.upperBound, end)
            if cursor < from { pieces.append((String(line[cursor..<from]), false)) }
            pieces.append((String(line[from..<to]), true))
            cursor = to
        }
        if cursor < end { pieces.append((String(line[cursor..<end]), false)) }
        if end < line.endIndex { pieces.append(("…", false)) }
        return pieces
    }
}
