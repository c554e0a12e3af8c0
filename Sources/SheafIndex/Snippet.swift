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
        if let indexed, indexed.readWhole, case .whole = read, !holdsNUL(data), let text = String(validating: data, as: UTF8.self) {
            body = NoteDocument(text: text).body
            // The note's start, as the index stored it when the bytes are those it read.
            fallback = { GitBlobID.of(data) == indexed.hash ? indexed.snippet : MarkdownScan(body: body).snippet }
        } else {
            let note = Note(path: path, read: read)
            body = note.body
            fallback = { note.snippet }
        }
        let bytes = Array(body.utf8)
        var found: [(text: String, match: Bool)]?
        forEachLine(of: bytes) { start, end in
            let line = plainLine(bytes, start, end)
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

    /// Whether `bytes` hold a NUL (a binary file named `.md` is read as the Note reads it).
    static func holdsNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in b.baseAddress.map { memchr($0, 0, b.count) != nil } ?? false }
    }

    /// `MarkdownScan.plainLine` of bytes `start..<end` of `bytes` with horizontal white space
    /// trimmed: read in place when both ends are ASCII, else through the line as a String (a
    /// line may end in a Unicode space).
    static func plainLine(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        var from = start, to = end
        while from < to, bytes[from] == 0x20 || bytes[from] == 0x09 { from += 1 }
        while to > from, bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09 { to -= 1 }
        guard from < to else { return "" }
        if bytes[from] < 0x80 && bytes[to - 1] < 0x80 { return MarkdownScan.plainLine(bytes, from, to) }
        return MarkdownScan.plainLine(String(decoding: bytes[from..<to], as: UTF8.self).trimmingHorizontalWhitespace)
    }

    /// Calls `visit` with the byte range of each non-empty line of `bytes` (valid UTF-8) until it
    /// returns false: the pieces of `split(whereSeparator: \.isNewline)` of its text, found one at
    /// a time. Every scalar that is a newline Character on its own (CR, LF, VT, FF, NEL, U+2028,
    /// U+2029) is a grapheme break on both sides, and CR LF leaves an empty piece between, which
    /// is skipped: the same lines.
    static func forEachLine(of bytes: [UInt8], _ visit: (Int, Int) -> Bool) {
        bytes.withUnsafeBufferPointer { b in
            var start = 0, i = 0
            let n = b.count
            while i < n {
                let byte = b[i]
                var width = 0
                if byte >= 0x0A && byte <= 0x0D {
                    width = 1
                } else if byte == 0xC2, i + 1 < n, b[i + 1] == 0x85 {
                    width = 2  // U+0085
                } else if byte == 0xE2, i + 2 < n, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 {
                    width = 3  // U+2028, U+2029
                }
                if width == 0 { i += 1; continue }
                if start < i, !visit(start, i) { return }
                i += width
                start = i
            }
            if start < n { _ = visit(start, n) }
        }
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
