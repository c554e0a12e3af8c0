// Completion inside a wiki-link: after `[[` (or `![[`) the vault's notes and files by title, file
// name or alias, inserting the shortest target that reaches the file, as Obsidian writes it;
// after `[[Note#` the note's headings, after `[[Note#^` its block ids. Elsewhere, after `#`, tags.
import Foundation
import SheafCore
import SheafKit

extension LanguageServer {
    /// What the text before the cursor asks for.
    enum LinkContext: Equatable {
        /// `[[query`: `start` is where the query begins.
        case note(query: String, start: Int)
        /// `[[target#query` or `[[target#^query`.
        case anchor(target: String, block: Bool, query: String, start: Int)
    }

    /// The open wiki-link the cursor at UTF-8 offset `offset` is typing in, on its line.
    static func linkContext(_ document: TextDocument, at offset: Int) -> LinkContext? {
        let (lineStart, prefix) = document.linePrefix(upTo: offset)
        let bytes = Array(prefix)
        var open: Int?
        var i = bytes.count - 1
        while i >= 1 {
            if bytes[i] == UInt8(ascii: "]") && bytes[i - 1] == UInt8(ascii: "]") { return nil }
            if bytes[i] == UInt8(ascii: "[") && bytes[i - 1] == UInt8(ascii: "[") { open = i + 1; break }
            i -= 1
        }
        guard let open else { return nil }
        let typed = bytes[open...]
        if typed.contains(UInt8(ascii: "|")) { return nil }  // a label: free text
        if let hash = typed.firstIndex(of: UInt8(ascii: "#")) {
            let target = String(decoding: bytes[open..<hash], as: UTF8.self)
            let block = hash + 1 < bytes.count && bytes[hash + 1] == UInt8(ascii: "^")
            let queryStart = hash + (block ? 2 : 1)
            return .anchor(target: target, block: block, query: String(decoding: bytes[queryStart...], as: UTF8.self),
                           start: lineStart + queryStart)
        }
        return .note(query: String(decoding: typed, as: UTF8.self), start: lineStart + open)
    }

    func completion(_ params: [String: Any]) -> Any {
        let empty: [String: Any] = ["isIncomplete": false, "items": [Any]()]
        guard let (document, path) = document(params), let position = Position(params["position"]),
              let map = linkMap() else { return empty }
        let offset = document.byteOffset(of: position)
        guard let context = Self.linkContext(document, at: offset) else { return tagCompletion(document, offset: offset, map: map) ?? empty }
        let closed = document.bytes[offset...].starts(with: Array("]]".utf8))
        let close = closed ? "" : "]]"
        switch context {
        case .note(let query, let start):
            let range = document.range(ofBytes: start..<offset)
            let items: [[String: Any]] = map.candidates(query, from: path).enumerated().map { i, candidate in
                let detail = candidate.path == candidate.matched ? "" : candidate.path
                return [
                    "label": candidate.matched.shown(),
                    "kind": 17,  // File
                    "detail": detail.shown(),
                    "sortText": String(format: "%05d", i),
                    "filterText": query.isEmpty ? candidate.matched.inert : query,
                    "textEdit": ["range": range, "newText": candidate.linkText.inert + close],
                ]
            }
            return ["isIncomplete": true, "items": items]
        case .anchor(let target, let block, let query, let start):
            let outline: NoteOutline?
            if target.isEmpty {
                outline = self.outline(document)
            } else {
                outline = map.resolve(target, from: path).flatMap { map.outline(of: $0) }
            }
            guard let outline else { return empty }
            let names = block ? outline.blockIDs.map(\.id) : outline.headings.map { Self.headingTarget($0.text) }
            let wanted = query.lowercased()
            let range = document.range(ofBytes: start..<offset)
            let items: [[String: Any]] = names.enumerated().compactMap { i, name in
                guard wanted.isEmpty || name.lowercased().contains(wanted) else { return nil }
                return [
                    "label": name.shown(),
                    "kind": block ? 18 : 1,  // Reference for a block, Text for a heading
                    "sortText": String(format: "%05d", i),
                    "filterText": name.inert,
                    "textEdit": ["range": range, "newText": name.inert + close],
                ]
            }
            return ["isIncomplete": false, "items": items]
        }
    }

    /// A heading as a link names it: Obsidian leaves out the characters a link target cannot
    /// hold (`#`, `|`, `^`, `[`, `]`), and matches headings with punctuation ignored.
    static func headingTarget(_ heading: String) -> String {
        let cut = heading.replacingScalars(["#": " ", "|": " ", "^": " ", "[": " ", "]": " "])  // by scalar: `]́` is no `]`
        return cut.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
