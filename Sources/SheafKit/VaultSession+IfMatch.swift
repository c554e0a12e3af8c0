// Safe writes for scripts and agents: `sheaf write NOTE` and `append --if-match BLOB`. A writer
// names the git blob id of the version it read (`show --json` reports it); if the note changed
// since, the write is merged three ways (base: that blob, ours: the write, theirs: the note now)
// instead of overwriting, with a conflict file only where the two overlap. Every byte goes
// through the one write path (`fileWriter()`, `VaultFileWriter.replace` with a redo), so an
// editor saving during the write is merged in as well.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

/// How a guarded write ended.
public struct GuardedWriteReport: Sendable {
    public enum Outcome: String, Sendable {
        /// The note was as the writer read it: the write replaced it.
        case clean
        /// The note had changed; the write and the change merged without overlap.
        case merged
        /// The note had changed and the two overlapped: the note has the write in each overlap,
        /// the conflict file the note's version.
        case conflict
    }
    public let path: String
    public let outcome: Outcome
    /// The blob id of the note as written.
    public let blob: String
    public let conflictFile: String?
}

extension VaultSession {
    /// The git blob id of a note's bytes as they are now. In a vault with a repository the blob is
    /// also stored in it, so a later `--if-match` finds the version the reader saw.
    public func blobID(of note: CatalogNote) throws(SheafError) -> String {
        let state = try readFile(try safePath(note.path))
        guard let bytes = state.bytes else { throw SheafError("the note vanished", path: note.path) }
        return try handOut(bytes, path: note.path)
    }

    /// The blob id of `bytes` given to a script as a version of the note at `path`: stored in the
    /// repository (when there is one) and recorded, so a later `--if-match` with it finds them.
    private func handOut(_ bytes: [UInt8], path: String) throws(SheafError) -> String {
        let repo = try repository()
        // Storing may fail (a read-only .git): the id alone still serves a write of this version.
        let id = Result { () throws(GitError) in
            if let repo, let stored = try? repo.createBlob(bytes) { return stored }
            return try Repository.blobID(of: bytes)
        }
        switch id {
        case .success(let id):
            GivenVersions(vault: vault).record(id, path: path)
            return id
        case .failure(let error): throw SheafError("cannot hash the note", path: path, cause: error.description)
        }
    }

    /// Writes `content` as the whole note (`sheaf write`).
    public func writeNote(_ content: [UInt8], to note: CatalogNote, ifMatch: String?) throws(SheafError) -> GuardedWriteReport {
        try guardedWrite(note, ifMatch: ifMatch) { _ in content }
    }

    /// Appends `text` to the note as the writer read it (`sheaf append --if-match`).
    public func appendNote(_ text: String, to note: CatalogNote, ifMatch: String?) throws(SheafError) -> GuardedWriteReport {
        try guardedWrite(note, ifMatch: ifMatch) { base in
            Array(Self.appending(text, to: String(decoding: base, as: UTF8.self)).utf8)
        }
    }

    /// `wanted(base)` is the writer's version made from the version it read.
    private func guardedWrite(_ note: CatalogNote, ifMatch: String?,
                              _ wanted: ([UInt8]) throws(SheafError) -> [UInt8]) throws(SheafError) -> GuardedWriteReport {
        try withWriterLock(commits: false) { (proof) throws(SheafError) in try guardedWrite(note, ifMatch: ifMatch, wanted, proof) }
    }

    private func guardedWrite(_ note: CatalogNote, ifMatch: String?, _ wanted: ([UInt8]) throws(SheafError) -> [UInt8],
                              _ proof: borrowing WriterLock) throws(SheafError) -> GuardedWriteReport {
        let path = note.path
        let writer = fileWriter(proof)
        let safe = try safePath(path)
        let state = try writer.read(safe)
        guard let now = state.bytes else { throw SheafError("the note vanished", path: path) }
        _ = try Self.editableText(now, path: path)
        let base = try ifMatch.map { (id) throws(SheafError) in try baseBytes(id, current: now, path: path) } ?? now
        let write = try wanted(base)
        try refuseWrite(of: Note(path: path, bytes: write))
        let isNote = VaultPath.isNote(path)

        // Made again on whatever the note holds when the bytes are swapped in.
        final class Last: @unchecked Sendable { var merge: FileMerge? }
        let last = Last()
        let redo: VaultFileWriter.Redo = { (current) throws(SheafError) in
            guard let current else { return write }  // removed meanwhile: the write brings it back
            _ = try Self.editableText(current, path: path)
            let merged = Result { () throws(MergeFailure) in try NoteMerge.merge(base: base, ours: write, theirs: current, isNote: isNote) }
            switch merged {
            case .success(let result):
                last.merge = result
                return try Self.withinSizeLimit(result.merged, path: path)
            case .failure(let error):
                throw SheafError("cannot merge the write into the note", path: path, cause: error.description)
            }
        }
        let first = try redo(now)
        // The overlapping lines of the note's side are only in memory until a conflict file
        // holds them: it is written before the note is swapped (a kill between the two lost
        // them), and again if the swap merged once more, on an editor's newer save, and
        // overlapped differently.
        var conflictPath: String? = nil
        var kept: [UInt8]? = nil
        func keepOverlap() throws(SheafError) {
            guard let merge = last.merge, let remote = merge.remote, remote != kept else { return }
            let content = ConflictFile.content(remote: remote, notePath: path, isNote: isNote)
            let fm = FileManager.default
            let chosen = ConflictFile.path(for: path, time: Date(), device: device) { fm.fileExists(atPath: vault.absolute($0)) }
            try writer.create(try safePath(chosen), content)
            conflictPath = chosen
            kept = remote
        }
        try keepOverlap()
        var reconciled = false
        if let first, first != now {
            reconciled = try writer.replace(safe, base: state, with: first, redo: redo) == .reconciled
        }
        try keepOverlap()
        try writer.finish()
        invalidate()
        let changed = base != now || reconciled
        let outcome: GuardedWriteReport.Outcome = conflictPath != nil ? .conflict : (changed ? .merged : .clean)
        let written = (try? writer.read(safe).bytes) ?? nil
        // A script chains writes with the id it is given: it names a version of this note.
        let blob = (try? handOut(written ?? first ?? write, path: path)) ?? ""
        return GuardedWriteReport(path: path, outcome: outcome, blob: blob, conflictFile: conflictPath)
    }

    /// How many commits of the note's history `--if-match` searches for the version it names.
    static let ifMatchHistoryCommits = 10_000

    /// The bytes of the version `id` names: the note as it is now, or a version of this note in
    /// the repository: one `show --json` handed out for this path, or one a commit among the
    /// newest `ifMatchHistoryCommits` held at this note's path (renames followed). Any other blob
    /// (another note's, say) is unknown: merging against it would bring that note's text in.
    private func baseBytes(_ id: String, current: [UInt8], path: String) throws(SheafError) -> [UInt8] {
        let lowered = id.lowercased()
        guard lowered.utf8.count == 40, lowered.allSatisfy({ $0.isHexDigit }) else {
            throw SheafError("--if-match needs a full git blob id (40 hex digits)", path: path,
                             hint: "`sheaf show --json NOTE` reports the note's blob id")
        }
        if (try? Repository.blobID(of: current)) == lowered { return current }
        let repo = try repository()
        let isVersion = GivenVersions(vault: vault).contains(lowered, path: path)
            || ((try? repo?.pathHeld(lowered, at: path, withinCommits: Self.ifMatchHistoryCommits)) ?? false)
        guard isVersion, let repo, let bytes = try? repo.blobBytes(lowered) else {
            throw SheafError("unknown blob id for --if-match", path: path,
                             cause: "no version of this note has blob id \(lowered) (searched: the versions `show --json` reported and the note's last \(Self.ifMatchHistoryCommits) commits)",
                             hint: "read the note again with `sheaf show --json` and use its blob id")
        }
        return bytes
    }

    /// Refuses to write bytes Sheaf could not read back safely.
    private func refuseWrite(of note: Note) throws(SheafError) {
        if let warning = note.warnings.first {
            throw SheafError("will not write this content", path: note.path, cause: warning.description,
                             hint: "the new content must be UTF-8 text with valid front-matter, under 10 MB")
        }
    }
}
