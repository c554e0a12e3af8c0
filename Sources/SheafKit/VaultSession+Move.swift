// `sheaf mv`: move or rename a note and rewrite the links that would no longer reach their file
// (LinkRewriter: every link form, front-matter properties included). Other notes change only in
// those links; the moved note's own links are re-pointed when its folder changes. The move is staged in git as `git mv` would.
import Foundation
import SheafCore
import SheafFiles

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
        let trimmed = dest.trimmingHorizontalWhitespace
        let relativeToWorking = trimmed.hasBytePrefix("./") || trimmed.hasBytePrefix("../")
        let base = relativeToWorking ? (workingFolder ?? "") : ""
        let joined = VaultPath.join(base, trimmed.hasBytePrefix("/") ? String(trimmed.dropFirst()) : trimmed)
        guard let normalized = VaultPath.normalize(joined) else {
            throw SheafError("destination is outside the vault", path: dest)
        }
        let asFolder = trimmed.hasByteSuffix("/") || normalized.isEmpty
            || (fm.fileExists(atPath: vault.absolute(normalized), isDirectory: &isDirectory) && isDirectory.boolValue)
        var target: String
        if asFolder {
            target = VaultPath.join(try vaultFolder(normalized), VaultPath.fileName(note.path))
        } else {
            let named = trimmed.contains("/") ? normalized : VaultPath.join(VaultPath.folder(note.path), normalized)
            target = VaultPath.isNote(named) ? named : named + "." + VaultPath.fileExtension(note.path)
            _ = try vaultFolder(VaultPath.folder(target))
        }
        if target.pathParts().last.map({ $0.hasBytePrefix(".") }) == true {
            throw SheafError("a note's name cannot start with a dot", path: target)
        }
        return target
    }

    public func move(_ note: CatalogNote, to dest: String) throws(SheafError) -> MoveReport {
        try withWriterLock { (proof) throws(SheafError) in
            invalidate()  // what an earlier step of this command read may have changed before the lock
            return try moveLocked(note, to: dest, proof)
        }
    }

    /// `sheaf mv NAME DEST`: the note is looked up under the lock the move holds, so the index
    /// scan that finds it is the one the move reads (its walk and link rows), not a second one.
    public func move(named name: String, to dest: String) throws(SheafError) -> MoveReport {
        try withWriterLock { (proof) throws(SheafError) in try moveLocked(try resolve(name), to: dest, proof) }
    }

    /// `.sheaf/move-journal`: `from`, `to`, then `moved` once the file is at `to`. Written before
    /// the first change and removed after the last, so a killed `mv` is completed by the next
    /// command (see `completeInterruptedMove`).
    var moveJournal: String { vault.stateDirectory + "/move-journal" }

    private func moveLocked(_ note: CatalogNote, to dest: String, _ proof: borrowing WriterLock) throws(SheafError) -> MoveReport {
        let target = try destination(for: note, dest)
        let from = note.path
        if shareList().share(at: from)?.isNote == true {
            // Its share is bound to its path: the other members' and devices' repositories would
            // read the move as the note's deletion.
            throw SheafError("a shared note stays where it is", path: from,
                             hint: "edit it in place, or `sheaf unshare \(from)` first and share it again from its new place")
        }
        guard !PathBytes.same(target, from) else { throw SheafError("the note is already there", path: target) }
        let fm = FileManager.default
        _ = try? freshIndex(mustUpdate: true)  // its link rows name the notes to read (else every note is)
        let files = try wholeWalk()
        let targets = LinkTargets(paths: files.map(\.path), answering: Self.lookupKeys(moving: note, to: target))
        try refuseOccupied(target, movingFrom: from, targets: targets)
        let safeFrom = try safePath(from)
        let safeTarget = try safePath(target)
        // What every link reaches with the note where it is and where it goes, made once for
        // the three steps below.
        let tables = Self.linkTargets(targets, moving: from, to: target)
        let linking = notesWhoseLinksMove(from: from, to: target, tables: tables, files: files)
        let writer = fileWriter(proof)
        let before = try? writer.read(safeFrom)  // to put its own links back if the move fails
        try AtomicFile.write(from + "\n" + target + "\n", to: moveJournal)

        // The moved note's own relative links first, in place, then the rename (never over a file).
        var rewritten: [String] = []
        do {
            if try rewriteOwnLinks(from: from, to: target, tables: tables, writer: writer) { rewritten.append(target) }
            try writer.move(safeFrom, to: safeTarget)
        } catch {
            // Refused before anything moved (a note Sheaf will not edit, a folder it may not
            // write): the journal goes, or the next command, any command, would make the move the
            // user was told had failed. Its own links, already re-pointed for the new place, go back.
            if !rewritten.isEmpty, let bytes = before?.bytes, let now = try? writer.read(safeFrom) {
                _ = try? writer.replace(safeFrom, base: now, with: bytes)
                try? writer.finish()
            }
            try? fm.removeItem(atPath: moveJournal)
            throw error
        }
        try AtomicFile.write(from + "\n" + target + "\nmoved\n", to: moveJournal)
        let (others, skipped) = try rewriteLinks(to: from, movedTo: target, tables: tables, notes: linking, writer: writer)
        rewritten += others
        try writer.finish()
        removeEmptyFolders(above: from)
        // Into or out of a share, the file changes repository: each records its side when it commits.
        let shares = shareList()
        if shares.share(holding: from) == nil && shares.share(holding: target) == nil {
            try stageMove(from: from, to: target)
        }
        try? fm.removeItem(atPath: moveJournal)
        invalidate()
        return MoveReport(from: from, to: target, rewritten: rewritten.sorted(by: PathBytes.sortsBefore), skipped: skipped)
    }

    /// The keys of the lookups a move of `note` to `target` makes (LinkTargets+Partial.swift):
    /// of links reaching either path by name (the links to the note, and those the new name may
    /// take from another file), and of the note's own links from both places. A lookup of any
    /// other key (a link written since the note was read) is answered by the vault's whole table.
    static func lookupKeys(moving note: CatalogNote, to target: String) -> Set<String> {
        var keys = Set(LinkTargets.keysReaching(note.path) + LinkTargets.keysReaching(target))
        for link in note.note.links {
            keys.formUnion(LinkTargets.lookupKeys(link.target, from: note.path))
            keys.formUnion(LinkTargets.lookupKeys(link.target, from: target))
        }
        return keys
    }

    /// Refuses a move onto a file other than the moved one: one at `target` (a name in another
    /// case reaches the moved file itself on a case-insensitive file system), or one whose path
    /// only its case or composition tells from `target` (a twin links could not tell apart).
    func refuseOccupied(_ target: String, movingFrom from: String, targets: LinkTargets) throws(SheafError) {
        var others = targets
        others.remove(from)
        let onDisk = FileIdentity.of(path: vault.absolute(target)) != nil && !FileIdentity.sameFile(vault.absolute(from), vault.absolute(target))
        if onDisk || others.contains(target) {
            throw SheafError("a file is already there", path: target, hint: "pick another name; Sheaf never overwrites")
        }
    }

    /// Re-points the relative links of the note at `from`, which is moving to `to`, in place.
    private func rewriteOwnLinks(from: String, to target: String, tables: MoveTables,
                                 writer: VaultFileWriter) throws(SheafError) -> Bool {
        let (before, after) = tables
        let edit = Self.linkEdit(of: from, movingTo: target, moves: [PathKey(from): target], before: before, after: after)
        return try editNote(from, with: writer, edit) != .unchanged
    }

    /// The notes (other than the moved one) with a link that would no longer reach its file once
    /// `from` is at `target` (VaultSession+LinkingNotes), parsed.
    func notesWhoseLinksMove(from: String, to target: String, tables: MoveTables, files: [VaultFile]) -> [CatalogNote] {
        let notes = files.filter { $0.isNote && !PathBytes.same($0.path, from) && !PathBytes.same($0.path, target) }
        let (before, after) = tables
        let change = LinkTargets.Change(paths: [from, target])
        return notesWithLinks(among: notes, concerning: [from, target]) { link, notePath in
            guard change.mayConcern(link, from: notePath), let old = before.resolve(link, from: notePath) else { return false }
            return after.resolve(link, from: notePath) != (old == from ? target : old)
        }
    }

    /// Rewrites the links of every other note among `notes` that would no longer reach their file:
    /// those that pointed at `from`, and those a name the move made ambiguous would take
    /// elsewhere. Each is edited on the note's bytes as they are when it is written. Safe to run
    /// again: a rewritten link reaches its file.
    private func rewriteLinks(to from: String, movedTo target: String, tables: MoveTables,
                              notes: [CatalogNote], writer: VaultFileWriter) throws(SheafError) -> ([String], [VaultWarning]) {
        let (before, after) = tables
        let moves = [PathKey(from): target]
        var rewritten: [String] = []
        var skipped: [VaultWarning] = []
        // Compared as bytes: an NFC/NFD twin of the moved note is another file.
        for other in notes where !PathBytes.same(other.path, from) && !PathBytes.same(other.path, target) {
            guard LinkRewriter.needsRewrite(links: other.note.links, notePath: other.path, newNotePath: other.path,
                                            moves: moves, before: before, after: after) else { continue }
            guard other.note.isEditable else {
                skipped.append(VaultWarning(path: other.path, message: "links not updated: " + (other.note.warnings.first?.description ?? "")))
                continue
            }
            let path = other.path
            let edit = Self.linkEdit(of: path, movingTo: path, moves: moves, before: before, after: after)
            let outcome = try editNote(path, with: writer, edit)
            if outcome != .unchanged { rewritten.append(path) }
        }
        return (rewritten, skipped)
    }

    /// What links reach before a move and after it.
    typealias MoveTables = (before: LinkTargets, after: LinkTargets)

    /// The vault's link targets with `from` in place, and with it moved to `target`.
    static func linkTargets(_ current: LinkTargets, moving from: String, to target: String) -> MoveTables {
        var before = current
        before.remove(target)
        before.add(from)
        var after = before
        after.remove(from)
        after.add(target)
        return (before, after)
    }

    /// The edit that rewrites a note's links after `moves`, made on whatever text the note holds
    /// when it is written (the note itself moves from `notePath` to `newNotePath`).
    static func linkEdit(of notePath: String, movingTo newNotePath: String, moves: [PathKey: String],
                                 before: LinkTargets, after: LinkTargets) -> (String) throws(SheafError) -> String? {
        { text in
            var document = NoteDocument(text: text)
            let note = Note(path: notePath, bytes: Array(text.utf8))
            guard LinkRewriter.rewrite(&document, links: note.links, notePath: notePath, newNotePath: newNotePath,
                                       moves: moves, before: before, after: after) else { return nil }
            return document.rendered
        }
    }

    private func stageMove(from: String, to target: String) throws(SheafError) {
        guard let repo = try repository() else { return }
        do { try repo.stageMove(from: from, to: target) }
        catch { throw SheafError("moved, but could not record the move in git", path: target, cause: error.description) }
    }

    /// Completes a `mv` a killed process left half done: the file is moved if it was not yet,
    /// and every link that still points at the old path is rewritten. Runs under the lock.
    func completeInterruptedMove(_ proof: borrowing WriterLock) throws(SheafError) {
        guard let text = try? String(contentsOfFile: moveJournal, encoding: .utf8) else { return }
        let parts = text.split(separator: "\n").map(String.init)
        defer { try? FileManager.default.removeItem(atPath: moveJournal) }
        guard parts.count >= 2 else { return }
        let from = parts[0], target = parts[1]
        let fm = FileManager.default
        let safeFrom = try safePath(from), safeTarget = try safePath(target)
        let writer = fileWriter(proof)
        if parts.count < 3 {
            let atFrom = fm.fileExists(atPath: vault.absolute(from))
            let atTarget = fm.fileExists(atPath: vault.absolute(target)) && !FileIdentity.sameFile(vault.absolute(from), vault.absolute(target))
            guard atFrom != atTarget else { return }  // nothing to go on
            if atFrom {
                _ = try rewriteOwnLinks(from: from, to: target, tables: Self.linkTargets(try catalog().linkTargets, moving: from, to: target), writer: writer)
                try writer.move(safeFrom, to: safeTarget)
            }
            invalidate()
        }
        let catalog = try catalog()
        _ = try rewriteLinks(to: from, movedTo: target, tables: Self.linkTargets(catalog.linkTargets, moving: from, to: target),
                             notes: catalog.notes, writer: writer)
        try writer.finish()
        removeEmptyFolders(above: from)
        // Into or out of a share, the file changes repository: each records its side when it commits.
        let shares = shareList()
        if shares.share(holding: from) == nil && shares.share(holding: target) == nil {
            try stageMove(from: from, to: target)
        }
        invalidate()
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
