// How commands reach the one write path: every change to a user's file goes through a
// `VaultFileWriter` made here (which merges with the note merge when an editor saved
// meanwhile), to a path that passed the vault-path guard.
import Foundation
import SheafCore
import SheafFiles
import SheafSync

extension VaultSession {
    /// A writer for this vault whose three-way merge is the note merge; where body lines overlap
    /// both sides' lines are kept, the user's first (two saves appended at once both stay).
    /// Only a command holding `.sheaf/lock` gets one (`proof`, from `withWriterLock`).
    func fileWriter(_ proof: borrowing WriterLock) -> VaultFileWriter {
        let writer = VaultFileWriter.forNotes(root: vault.root)
        let displaced = displacedVersions
        writer.replaced = { displaced.record($0) }
        return writer
    }

    /// A file's bytes and identity for a command that only reads it.
    func readFile(_ path: SafePath, limit: Int = Note.sizeLimit) throws(SheafError) -> FileState {
        try VaultFileWriter.read(path, root: vault.root, limit: limit)
    }

    /// A vault path checked by the guard, ready for the writer.
    func safePath(_ path: String) throws(SheafError) -> SafePath {
        try VaultPathGuard.require(path, in: vault.root)
    }

    /// Changes a note's text with `edit`, made again on the bytes the note holds at the moment of
    /// writing if an editor saved meanwhile. `edit` returns nil when nothing is to change.
    /// `appendOnly`: the edit adds text after the end and leaves every byte before it alone, so a
    /// note whose front-matter does not parse may take it (`Note.isAppendable`).
    @discardableResult
    func editNote(_ path: String, with writer: VaultFileWriter, appendOnly: Bool = false,
                  _ edit: @escaping (String) throws(SheafError) -> String?) throws(SheafError) -> WriteOutcome {
        let safe = try safePath(path)
        let state = try writer.read(safe)
        let redo: VaultFileWriter.Redo = { (current) throws(SheafError) in
            guard let current else {
                throw SheafError("the note vanished while Sheaf changed it", path: path, hint: "`sheaf restore` brings it back")
            }
            guard let edited = try edit(Self.editableText(current, path: path, appendOnly: appendOnly)) else { return nil }
            return try Self.withinSizeLimit(Array(edited.utf8), path: path)
        }
        guard let first = try redo(state.bytes) else { return .unchanged }
        return try writer.replace(safe, base: state, with: first, redo: redo)
    }

    /// A note's bytes as text for an edit, refusing notes Sheaf must never rewrite.
    static func editableText(_ bytes: [UInt8], path: String, appendOnly: Bool = false) throws(SheafError) -> String {
        try refuseEdit(of: Note(path: path, bytes: bytes), appendOnly: appendOnly)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes`, unless an edit made them larger than a note may be: Sheaf would refuse to edit
    /// or merge what it wrote (an `append` of gigabytes wrote a note that large).
    static func withinSizeLimit(_ bytes: [UInt8], path: String) throws(SheafError) -> [UInt8] {
        guard bytes.count > Note.sizeLimit else { return bytes }
        throw SheafError("will not change this note", path: path,
                         cause: "the result would be larger than 10 MB (\(bytes.count / 1_000_000) MB); nothing was written",
                         hint: "split the note, or keep large text as an attachment")
    }

    /// Refuses a note Sheaf must never rewrite (broken YAML, not UTF-8, binary, over 10 MB); with
    /// `appendOnly`, only what an append cannot leave safe (not UTF-8, binary, over 10 MB).
    static func refuseEdit(of note: Note, appendOnly: Bool = false) throws(SheafError) {
        if appendOnly && note.isAppendable { return }
        if let warning = note.warnings.first {
            throw SheafError("will not change this note", path: note.path, cause: warning.description,
                             hint: "fix the file in your editor first")
        }
    }
}
