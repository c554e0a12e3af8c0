// Rename a note (on its text, or on a link to it): `sheaf mv`'s rule as one WorkspaceEdit, which
// the editor applies and can undo: every linking note's links rewritten as `mv` rewrites them
// (unsaved buffers edited as they are), the note's own links when its folder changes, then the
// file renamed. The server writes nothing.
import Foundation
import SheafCore
import SheafKit

extension LanguageServer {
    func rename(_ params: [String: Any]) -> Result<Any, RequestError> {
        guard let (document, path) = document(params), let position = Position(params["position"]),
              let newName = params["newName"] as? String, let session, let map = linkMap(), let outline = outline(document) else {
            return .success(NSNull())
        }
        var note = path
        if let span = Self.link(at: document.byteOffset(of: position), in: outline, bytes: document.bytes) {
            guard let target = map.resolve(span.target, from: path), VaultPath.isNote(target) else {
                return .failure(RequestError(code: -32602, message: "the link reaches no note to rename"))
            }
            note = target
        }
        var texts: [PathKey: String] = [:]
        for open in documents.values { if let held = open.path { texts[PathKey(held)] = open.text } }
        let plan: MovePlan
        do { plan = try session.movePlan(note, to: newName.trimmingCharacters(in: .whitespaces), texts: texts) }
        catch { return .failure(RequestError(code: -32602, message: error.what + (error.path.map { ": " + $0 } ?? ""))) }
        var changes: [[String: Any]] = []
        for edit in plan.edits {
            guard let uri = uri(ofVaultPath: edit.path) else { continue }
            let before = TextDocument(uri: uri, path: edit.path, version: 0, text: edit.before)
            let (range, newText) = Self.smallestEdit(from: before, to: edit.after)
            let version: Any = documents[uri].map { $0.version } ?? NSNull()
            changes.append(["textDocument": ["uri": uri, "version": version],
                            "edits": [["range": range, "newText": newText]]])
        }
        guard let oldURI = uri(ofVaultPath: plan.from), let newURI = uri(ofVaultPath: plan.to) else { return .success(NSNull()) }
        changes.append(["kind": "rename", "oldUri": oldURI, "newUri": newURI, "options": ["overwrite": false, "ignoreIfExists": false]])
        return .success(["documentChanges": changes])
    }

    /// One edit that turns `document`'s text into `after`: the bytes between their common start
    /// and common end (at character boundaries).
    static func smallestEdit(from document: TextDocument, to after: String) -> ([String: Any], String) {
        let old = document.bytes, new = Array(after.utf8)
        var start = 0
        while start < old.count && start < new.count && old[start] == new[start] { start += 1 }
        while start > 0 && (old[start - 1] & 0xC0) == 0x80 { start -= 1 }  // not inside a character
        var tail = 0
        while tail < old.count - start && tail < new.count - start && old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        while tail > 0 && (old[old.count - tail] & 0xC0) == 0x80 { tail -= 1 }
        let replaced = String(decoding: new[start..<(new.count - tail)], as: UTF8.self)
        return (document.range(ofBytes: start..<(old.count - tail)), replaced)
    }
}

/// A request's failure, as the protocol's error object.
struct RequestError: Error {
    let code: Int
    let message: String
}
