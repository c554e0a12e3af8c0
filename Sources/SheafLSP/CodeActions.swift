// Code actions on a link: create the note a broken link names (the editor creates the file, with
// the title as its heading), and write a link in the case of the file it reaches (`[[open
// questions]]` becomes `[[Open questions]]`, in the style `mv` keeps).
import Foundation
import SheafCore
import SheafKit

extension LanguageServer {
    func codeActions(_ params: [String: Any]) -> Any {
        guard let (document, path) = document(params), let map = linkMap(), let outline = outline(document),
              let range = params["range"] as? [String: Any], let start = Position(range["start"]), let end = Position(range["end"]) else {
            return [Any]()
        }
        let from = document.byteOffset(of: start), to = document.byteOffset(of: end)
        var actions: [[String: Any]] = []
        for span in outline.links where span.spanBytes.lowerBound <= to && from <= span.spanBytes.upperBound && !span.target.isEmpty {
            if let reached = map.resolve(span.target, from: path) {
                // The case only: the link as `mv` would write it, which spells the file's name.
                guard span.kind != .markdown && span.kind != .markdownEmbed,
                      let fixed = map.spelling(of: span.target, reaching: reached, from: path), fixed != span.target else { continue }
                actions.append([
                    "title": "Write the link as [[\(fixed.shown())]]",
                    "kind": "quickfix",
                    "edit": ["changes": [document.uri: [["range": document.range(ofBytes: span.targetBytes), "newText": fixed]]]],
                ])
            } else if let created = map.newNotePath(for: span.target, from: path), let uri = uri(ofVaultPath: created) {
                let title = VaultPath.stem(created)
                actions.append([
                    "title": "Create the note \(created.shown())",
                    "kind": "quickfix",
                    "edit": ["documentChanges": [
                        ["kind": "create", "uri": uri, "options": ["overwrite": false, "ignoreIfExists": true]],
                        ["textDocument": ["uri": uri, "version": NSNull()],
                         "edits": [["range": Position.lineRange(0), "newText": "# \(title)\n"]]],
                    ] as [Any]],
                ])
            }
        }
        return actions
    }
}
