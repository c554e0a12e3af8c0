// Go to definition on a link (wiki-link, embed, markdown link, property link): the file it
// reaches, at the heading or block its fragment names.
import Foundation
import SheafCore
import SheafKit

extension LanguageServer {
    /// The link of `outline` under UTF-8 offset `offset` (its brackets and label included).
    static func link(at offset: Int, in outline: NoteOutline, bytes: [UInt8]) -> NoteOutline.LinkSpan? {
        outline.links.first { span in
            // From the opening `[[`/`](` to the closing `]]`/`)`, within reach of the target.
            var start = span.spanBytes.lowerBound
            while start > 0 && start > span.spanBytes.lowerBound - 3, bytes[start - 1] == UInt8(ascii: "[") || bytes[start - 1] == UInt8(ascii: "(") || bytes[start - 1] == UInt8(ascii: "!") || bytes[start - 1] == UInt8(ascii: "<") { start -= 1 }
            var end = span.spanBytes.upperBound
            if let label = span.label { end = min(bytes.count, end + 1 + label.utf8.count) }
            while end < bytes.count && end < span.spanBytes.upperBound + 3 + (span.label?.utf8.count ?? 0),
                  bytes[end] == UInt8(ascii: "]") || bytes[end] == UInt8(ascii: ")") || bytes[end] == UInt8(ascii: ">") || bytes[end] == UInt8(ascii: "|") { end += 1 }
            return offset >= start && offset <= end
        }
    }

    /// Where a link leads: the file's URI and the line of its heading or block (0 without one).
    /// A fragment of the note being edited is looked up in its buffer (`current`), not its file.
    func destination(of span: NoteOutline.LinkSpan, in current: NoteOutline, map: VaultLinkMap) -> (uri: String, line: Int)? {
        guard let target = map.resolve(span.target, from: current.path), let uri = uri(ofVaultPath: target) else { return nil }
        let outline = target == current.path ? current : map.outline(of: target)
        guard let fragment = span.fragment, !fragment.isEmpty, let outline else { return (uri, 0) }
        return (uri, outline.line(ofFragment: fragment) ?? 0)
    }

    func definition(_ params: [String: Any]) -> Any {
        guard let (document, _) = document(params), let position = Position(params["position"]),
              let map = linkMap() else { return NSNull() }
        guard let outline = self.outline(document),
              let span = Self.link(at: document.byteOffset(of: position), in: outline, bytes: document.bytes),
              let (uri, line) = destination(of: span, in: outline, map: map) else { return NSNull() }
        return ["uri": uri, "range": Position.lineRange(line)]
    }
}
