// `sheaf mv`: move or rename a note and rewrite the links that point to it. Other notes change
// only in the target text of those links; the moved note's own relative links are re-pointed
// when its folder changes. The move is staged in git as `git mv` would.
import Foundation
import SheafCore

/// What `sheaf mv` did.
public struct MoveReport: Sendable {
    public let from: String
    public let to: String
    /// Notes whose links were rewritten (the moved note included when its own links changed).
    public let rewritten: [String]
    /// Notes that link to the moved one but were left alone (unreadable YAML, not UTF-8, ...).
    public let skipped: [VaultWarning]
}

extension VaultSession {
    /// Where `sheaf mv NOTE DEST` puts the note: into DEST when it is a folder (an existing one,
    /// or one written with a trailing `/`); else DEST is the new path, relative to the vault root
    /// when it holds a `/`, or a new name in the note's own folder when it does not.
    public func destination(for note: CatalogNote, _ dest: String) throws(SheafError) -> String {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let trimmed = dest.trimmingCharacters(in: .whitespaces)
        let relativeToWorking = trimmed.hasPrefix("./") || trimmed.hasPrefix("../")
        let base = relativeToWorking ? (workingFolder ?? "") : ""
        let joined = VaultPath.join(base, trimmed.hasPrefix("/") ? String(trimmed.dropFirst()) : trimmed)
        guard let normalized = VaultPath.normalize(joined) else {
            throw SheafError("destination is outside the vault", path: dest)
        }
        let asFolder = trimmed.hasSuffix("/") || normalized.isEmpty
            || (fm.fileExists(atPath: vault.absolute(normalized), isDirectory: &isDirectory) && isDirectory.boolValue)
        var target: String
        if asFolder {
            target = VaultPath.join(try vaultFolder(normalized), VaultPath.fileName(note.path))
        } else {
            let named = trimmed.contains("/") ? normalized : VaultPath.join(VaultPath.folder(note.path), normalized)
            target = VaultPath.isNote(named) ? named : named + "." + VaultPath.fileExtension(note.path)
            _ = try vaultFolder(VaultPath.folder(target))
        }
        if target.split(separator: "/").last.map({ $0.hasPrefix(".") }) == true {
            throw SheafError("a note's name cannot start with a dot", path: target)
        }
        return target
    }

    public func move(_ note: CatalogNote, to dest: String) throws(SheafError) -> MoveReport {
        let target = try destination(for: note, dest)
        let from = note.path
        guard target != from else { throw SheafError("the note is already there", path: target) }
        let fm = FileManager.default
        let catalog = try catalog()
        let caseOnly = target.lowercased() == from.lowercased()
        if !caseOnly && (fm.fileExists(atPath: vault.absolute(target)) || catalog.files.contains { $0.path.lowercased() == target.lowercased() }) {
            throw SheafError("a file is already there", path: target, hint: "pick another name; Sheaf never overwrites")
        }

        let before = catalog.linkTargets
        var after = before
        after.remove(from)
        after.add(target)
        let moves = [from: target]

        // Plan every rewrite before touching a file.
        var writes: [(path: String, text: String)] = []
        var skipped: [VaultWarning] = []
        for other in catalog.notes {
            let isMoved = PathBytes.same(other.path, from)  // bytes: an NFC/NFD twin is another file
            let pointsHere = other.note.links.contains { before.resolve($0, from: other.path).map { PathBytes.same($0, from) } ?? false }
            guard isMoved || pointsHere else { continue }
            guard other.note.isEditable else {
                if pointsHere && !isMoved {
                    skipped.append(VaultWarning(path: other.path, message: "links not updated: " + (other.note.warnings.first?.description ?? "")))
                }
                continue
            }
            let text = try editableText(of: other)
            var document = NoteDocument(text: text)
            guard let body = LinkRewriter.rewrite(body: document.body, links: other.note.links, notePath: other.path,
                                                  newNotePath: isMoved ? target : other.path,
                                                  moves: moves, before: before, after: after) else { continue }
            document.body = body
            writes.append((isMoved ? from : other.path, document.rendered))
        }

        do {
            try fm.createDirectory(atPath: vault.absolute(VaultPath.folder(target)), withIntermediateDirectories: true)
        } catch {
            throw SheafError("cannot create folder", path: VaultPath.folder(target), cause: error.localizedDescription)
        }
        // Rewrite the moved note in place first, then rename it, so a crash leaves it whole.
        for write in writes where PathBytes.same(write.path, from) { try AtomicFile.write(write.text, to: vault.absolute(from)) }
        guard rename(vault.absolute(from), vault.absolute(target)) == 0 else {
            throw SheafError("cannot move", path: from, cause: String(cString: strerror(errno)))
        }
        for write in writes where !PathBytes.same(write.path, from) { try AtomicFile.write(write.text, to: vault.absolute(write.path)) }
        removeEmptyFolders(above: from)

        if let repo = try repository() {
            do { try repo.stageMove(from: from, to: target) }
            catch { throw SheafError("moved, but could not record the move in git", path: target, cause: error.description) }
        }
        invalidate()
        let rewritten = writes.map { PathBytes.same($0.path, from) ? target : $0.path }.sorted()
        return MoveReport(from: from, to: target, rewritten: rewritten, skipped: skipped)
    }
}

extension VaultSession {
    /// Removes the folders that held `path` once they are empty, as git leaves no empty folder.
    func removeEmptyFolders(above path: String) {
        var folder = VaultPath.folder(path)
        while !folder.isEmpty, rmdir(vault.absolute(folder)) == 0 {
            folder = VaultPath.folder(folder)
        }
    }
}
