// `mv`'s rule without writing: where a move would put a note and the new text of every note
// whose links it would rewrite, computed by the same functions `mv` runs (destination,
// notesWhoseLinksMove, linkEdit), for an editor that applies the change itself as one undoable
// edit (a language server's rename). Texts an editor holds unsaved are edited instead of the files.
import Foundation
import SheafCore

/// What `sheaf mv` would do, as text: the move and each note's text before and after.
public struct MovePlan: Sendable, Equatable {
    /// One note whose text the move changes (at its path before the move).
    public struct Edit: Sendable, Equatable {
        public let path: String
        public let before: String
        public let after: String
    }
    public let from: String
    public let to: String
    /// The moved note's own links first (when its folder changes), then the others, by path.
    public let edits: [Edit]
    /// Notes that link to it but cannot be rewritten (unreadable YAML, not UTF-8, ...).
    public let skipped: [VaultWarning]
}

extension VaultSession {
    /// What `sheaf mv PATH DEST` would do, nothing written. `texts` holds notes' unsaved texts
    /// by path (an editor's buffers; by bytes, so one twin's buffer is never the other's), edited
    /// in place of their files.
    public func movePlan(_ path: String, to dest: String, texts: [PathKey: String] = [:]) throws(SheafError) -> MovePlan {
        let note = try resolve(path)
        let target = try destination(for: note, dest)
        let from = note.path
        guard !PathBytes.same(target, from) else { throw SheafError("the note is already there", path: target) }
        invalidate()
        let files = try walker().files().files
        let targets = LinkTargets(paths: files.map(\.path), answering: Self.lookupKeys(moving: note, to: target))
        try refuseOccupied(target, movingFrom: from, targets: targets)
        let (before, after) = Self.linkTargets(targets, moving: from, to: target)
        let moves = [PathKey(from): target]
        func text(_ path: String) -> String? {
            if let held = texts[PathKey(path)] { return held }
            guard case .whole(let bytes)? = NoteBytes.read(vault.absolute(path)) else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        var edits: [MovePlan.Edit] = []
        var skipped: [VaultWarning] = []
        func plan(_ path: String, movingTo newPath: String) throws(SheafError) {
            guard let old = text(path) else { return }
            let note = Note(path: path, bytes: Array(old.utf8))
            guard LinkRewriter.needsRewrite(links: note.links, notePath: path, newNotePath: newPath,
                                            moves: moves, before: before, after: after) else { return }
            guard note.isEditable else {
                skipped.append(VaultWarning(path: path, message: "links not updated: " + (note.warnings.first?.description ?? "")))
                return
            }
            if let new = try Self.linkEdit(of: path, movingTo: newPath, moves: moves, before: before, after: after)(old), new != old {
                edits.append(MovePlan.Edit(path: path, before: old, after: new))
            }
        }
        try plan(from, movingTo: target)
        // The index's candidates, and every note held unsaved (its links may be new).
        let linking = notesWhoseLinksMove(from: from, to: target, tables: (before, after), files: files).map(\.path)
        let unsaved = texts.keys.filter { VaultPath.isNote($0.path) && !PathBytes.same($0.path, from) }
        for key in Set(linking.map(PathKey.init) + unsaved).sorted(by: { PathBytes.precedes($0.path, $1.path) })
        where !PathBytes.same(key.path, target) {
            try plan(key.path, movingTo: key.path)
        }
        return MovePlan(from: from, to: target, edits: edits, skipped: skipped)
    }
}
