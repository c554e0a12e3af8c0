// Symbols: a note's headings as a tree (document symbols), the vault's notes by title
// (workspace symbols, ranked as completion ranks them), and every link of a note as a
// document link to the file it reaches.
import SheafCore
import SheafKit

extension LanguageServer {
    func documentSymbols(_ params: [String: Any]) -> Any {
        guard let (document, _) = document(params), let headings = outline(document)?.headings else { return [Any]() }
        // Each heading spans the lines up to the next heading of its level or higher.
        func symbols(_ range: Range<Int>) -> [[String: Any]] {
            var out: [[String: Any]] = []
            var i = range.lowerBound
            while i < range.upperBound {
                let heading = headings[i]
                var j = i + 1
                while j < range.upperBound && headings[j].level > heading.level { j += 1 }
                let lastLine = j < headings.count ? max(heading.line, headings[j].line - 1) : max(heading.line, document.lineStarts.count - 1)
                let lineEnd = document.position(ofByte: document.lineEnd(heading.line))
                let endOfLast = document.position(ofByte: document.lineEnd(lastLine))
                out.append([
                    "name": heading.text.inert.isEmpty ? "(empty heading)" : heading.text.inert,
                    "kind": 15,  // String: the protocol has no kind for a heading
                    "range": ["start": Position(line: heading.line, character: 0).json, "end": endOfLast.json],
                    "selectionRange": ["start": Position(line: heading.line, character: 0).json, "end": lineEnd.json],
                    "children": symbols((i + 1)..<j),
                ])
                i = j
            }
            return out
        }
        return symbols(0..<headings.count)
    }

    func workspaceSymbols(_ params: [String: Any]) -> Any {
        guard let map = linkMap() else { return [Any]() }
        let query = params["query"] as? String ?? ""
        return map.candidates(query, from: "", notesOnly: true, limit: 200).compactMap { candidate -> [String: Any]? in
            guard let uri = uri(ofVaultPath: candidate.path) else { return nil }
            return ["name": candidate.title.inert, "kind": 1, "containerName": candidate.path.inert,
                    "location": ["uri": uri, "range": Position.lineRange(0)]]
        }
    }

    func documentLinks(_ params: [String: Any]) -> Any {
        guard let (document, path) = document(params), let map = linkMap(), let outline = outline(document) else { return [Any]() }
        return outline.links.compactMap { span -> [String: Any]? in
            guard let target = map.resolve(span.target, from: path), let uri = uri(ofVaultPath: target) else { return nil }
            return ["range": document.range(ofBytes: span.spanBytes), "target": uri, "tooltip": target.inert]
        }
    }
}
