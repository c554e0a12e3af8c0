// Completion of `#tags`: the vault's tags, most used first, after a `#` that starts a word.
import SheafKit

extension LanguageServer {
    /// The tag being typed before UTF-8 offset `offset`: what follows its `#`, and where that starts.
    static func tagContext(_ document: TextDocument, at offset: Int) -> (query: String, start: Int)? {
        let (lineStart, prefix) = document.linePrefix(upTo: offset)
        let bytes = Array(prefix)
        var i = bytes.count
        // Letters (any script), digits, `_`, `-` and `/` make a tag, as the scanner reads them.
        while i > 0, bytes[i - 1] >= 0x80 || (bytes[i - 1] >= 0x30 && bytes[i - 1] <= 0x39) || (bytes[i - 1] | 0x20 >= 0x61 && bytes[i - 1] | 0x20 <= 0x7A)
                || bytes[i - 1] == UInt8(ascii: "_") || bytes[i - 1] == UInt8(ascii: "-") || bytes[i - 1] == UInt8(ascii: "/") { i -= 1 }
        guard i > 0, bytes[i - 1] == UInt8(ascii: "#") else { return nil }
        let hash = i - 1
        guard hash == 0 || bytes[hash - 1] == 0x20 || bytes[hash - 1] == 0x09 else { return nil }
        return (String(decoding: bytes[i...], as: UTF8.self), lineStart + i)
    }

    func tagCompletion(_ document: TextDocument, offset: Int, map: VaultLinkMap) -> [String: Any]? {
        guard let (query, start) = Self.tagContext(document, at: offset) else { return nil }
        let wanted = query.lowercased()
        let range = document.range(ofBytes: start..<offset)
        let items: [[String: Any]] = map.tags.filter { wanted.isEmpty || $0.tag.lowercased().contains(wanted) }
            .prefix(100).enumerated().map { i, entry in
                [
                    "label": entry.tag.inert,
                    "kind": 14,  // Keyword
                    "detail": entry.count == 1 ? "1 note" : "\(entry.count) notes",
                    "sortText": String(format: "%05d", i),
                    "filterText": entry.tag.inert,
                    "textEdit": ["range": range, "newText": entry.tag.inert],
                ]
            }
        return ["isIncomplete": false, "items": items]
    }
}
