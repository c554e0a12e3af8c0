// References: on a link, every link to the file it reaches; on a heading, the links to that
// heading; anywhere else in a note, its backlinks. Each with its place in the linking note.
import SheafCore
import SheafKit

extension LanguageServer {
    func references(_ params: [String: Any]) -> Any {
        guard let (document, path) = document(params), let position = Position(params["position"]),
              let map = linkMap(), let outline = self.outline(document) else { return [Any]() }
        let offset = document.byteOffset(of: position)
        var target = path
        var heading: String?
        if let span = Self.link(at: offset, in: outline, bytes: document.bytes) {
            guard let reached = map.resolve(span.target, from: path) else { return [Any]() }
            target = reached
            if let fragment = span.fragment, !fragment.isEmpty, !fragment.hasPrefix("^") { heading = fragment }
        } else if let found = outline.headings.first(where: { $0.line == position.line }) {
            heading = found.text
        }
        var locations: [[String: Any]] = []
        for reference in map.references(to: target, heading: heading) {
            guard let uri = uri(ofVaultPath: reference.path) else { continue }
            let line = Array(reference.lineText.utf8)
            let start = String(decoding: line[..<reference.columns.lowerBound], as: UTF8.self).utf16.count
            let end = String(decoding: line[..<reference.columns.upperBound], as: UTF8.self).utf16.count
            locations.append(["uri": uri, "range": [
                "start": Position(line: reference.line, character: start).json,
                "end": Position(line: reference.line, character: end).json,
            ]])
        }
        return locations
    }
}
