// Snippets are cut from the files, not stored: the index keeps postings only. For each hit the
// note is read, the first line that holds a query word is taken (or the note's start), and the
// matches are marked, ignoring case and accents, and matching stems by their common prefix.
import Foundation
import SheafCore

enum Snippet {
    static let width = 160

    /// `wasReadWhole`: the index read the note without a warning, so its body is what follows the
    /// front-matter block and the YAML need not be parsed (Yams was most of a snippet's cost).
    static func make(vault: Vault, path: String, needles: [String], wasReadWhole: Bool = false) -> [(text: String, match: Bool)] {
        guard let read = NoteBytes.read(vault.absolute(path)) else { return [] }
        let data = read.bytes
        let body: String
        let fallback: () -> String
        if wasReadWhole, case .whole = read, let text = String(validating: data, as: UTF8.self), !text.utf8.contains(0) {
            body = NoteDocument(text: text).body
            fallback = { MarkdownScan(body: body).snippet }
        } else {
            let note = Note(path: path, read: read)
            body = note.body
            fallback = { note.snippet }
        }
        let lines = body.split(whereSeparator: \.isNewline).map { MarkdownScan.plainLine(String($0).trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.isEmpty }
        let keys = needles.flatMap { $0.split(separator: " ").map(String.init) }.map(stemKey).filter { !$0.isEmpty }
        let line = lines.first { l in keys.contains { find($0, in: l) != nil } } ?? fallback()
        return highlight(window(line, keys: keys), keys: keys)
    }

    /// A word's searchable core: folded, and shortened so that "running" finds "runs".
    static func stemKey(_ word: String) -> String {
        let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        guard folded.count > 4, folded.allSatisfy({ $0.isASCII }) else { return folded }
        for suffix in ["ing", "ed", "es", "s"] where folded.hasSuffix(suffix) && folded.count - suffix.count >= 3 {
            return String(folded.dropLast(suffix.count))
        }
        return folded
    }

    static func find(_ key: String, in text: String, from: String.Index? = nil) -> Range<String.Index>? {
        text.range(of: key, options: [.caseInsensitive, .diacriticInsensitive], range: (from ?? text.startIndex)..<text.endIndex)
    }

    /// At most `width` characters of `line`, starting a little before the first match.
    static func window(_ line: String, keys: [String]) -> String {
        guard line.count > width else { return line }
        let first = keys.compactMap { find($0, in: line)?.lowerBound }.min() ?? line.startIndex
        let before = line.distance(from: line.startIndex, to: first)
        let start = line.index(line.startIndex, offsetBy: max(0, min(before - 30, line.count - width)))
        let end = line.index(start, offsetBy: width, limitedBy: line.endIndex) ?? line.endIndex
        return (start > line.startIndex ? "…" : "") + line[start..<end] + (end < line.endIndex ? "…" : "")
    }

    /// Splits `text` into pieces, marking each match of a key, extended to the end of its word.
    static func highlight(_ text: String, keys: [String]) -> [(text: String, match: Bool)] {
        var ranges: [Range<String.Index>] = []
        for key in keys {
            var from = text.startIndex
            while let r = find(key, in: text, from: from) {
                var end = r.upperBound
                while end < text.endIndex, text[end].isLetter || text[end].isNumber { end = text.index(after: end) }
                ranges.append(r.lowerBound..<end)
                from = end
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var pieces: [(String, Bool)] = []
        var cursor = text.startIndex
        for r in ranges where r.lowerBound >= cursor {
            if cursor < r.lowerBound { pieces.append((String(text[cursor..<r.lowerBound]), false)) }
            pieces.append((String(text[r]), true))
            cursor = r.upperBound
        }
        if cursor < text.endIndex { pieces.append((String(text[cursor...]), false)) }
        return pieces
    }
}
