// References: on a link, every link to the file it reaches; on a `#tag`, every place it is
// written; on a heading, the links to that heading; anywhere else in a note, its backlinks. Each
// with its place in the note that holds it.
import SheafCore
import SheafKit

extension LanguageServer {
    func references(_ params: [String: Any]) -> Any {
        guard let (document, path) = document(params), let position = Position(params["position"]),
              let map = linkMap(), let outline = self.outline(document) else { return [Any]() }
        let offset = document.byteOffset(of: position)
        var target = path
        var heading: String?
        // On a `#tag` (its `#` included): every place the tag is written.
        if let tag = outline.tagSpans.first(where: { $0.bytes.lowerBound - 1 <= offset && offset <= $0.bytes.upperBound }) {
            return locations(map.tagReferences(tag.name))
        }
        if let span = Self.link(at: offset, in: outline, bytes: document.bytes) {
            guard let reached = map.resolve(span.target, from: path) else { return [Any]() }
            target = reached
            if let fragment = span.fragment, !fragment.isEmpty, !fragment.hasPrefix("^") { heading = fragment }
        } else if let found = outline.headings.first(where: { $0.line == position.line }) {
            heading = found.text
        }
        return locations(map.references(to: target, heading: heading))
    }

    /// References as protocol locations (columns counted in UTF-16 on each reference's line).
    private func locations(_ references: [LinkReference]) -> [[String: Any]] {
        var locations: [[String: Any]] = []
        var last: (path: String, line: Int, columns: UTF16Columns)?  // references come line by line
        for reference in references {
            guard let uri = uri(ofVaultPath: reference.path) else { continue }
            if last?.path != reference.path || last?.line != reference.line {
                last = (reference.path, reference.line, UTF16Columns(Array(reference.lineText.utf8)))
            }
            let start = last!.columns.units(before: reference.columns.lowerBound)
            let end = last!.columns.units(before: reference.columns.upperBound)
            locations.append(["uri": uri, "range": [
                "start": Position(line: reference.line, character: start).json,
                "end": Position(line: reference.line, character: end).json,
            ]])
        }
        return locations
    }
}
