// `sheaf rm`: the vault is committed first, so the note's last text is in git history; then the
// file is deleted and the deletion committed. Git history is the trash.
import Foundation
import SheafCore
import SheafGit

public struct RemoveReport: Sendable {
    public let path: String
    /// The commit that holds the note's last version.
    public let keptIn: String?
    /// Notes that still link to the removed one.
    public let linkedFrom: [String]
}

extension VaultSession {
    public func remove(_ note: CatalogNote) throws(SheafError) -> RemoveReport {
        try withWriterLock { (proof) throws(SheafError) in
            invalidate()  // what an earlier step of this command read may have changed before the lock
            return try removeLocked(note, proof)
        }
    }

    /// `sheaf rm NAME`: the note is looked up under the lock, by the scan the removal reads.
    public func remove(named name: String) throws(SheafError) -> RemoveReport {
        try withWriterLock { (proof) throws(SheafError) in try removeLocked(try resolve(name), proof) }
    }

    private func removeLocked(_ note: CatalogNote, _ proof: borrowing WriterLock) throws(SheafError) -> RemoveReport {
        _ = try? freshIndex(mustUpdate: true)  // its link rows name the notes to read (else every note is)
        let files = try wholeWalk()
        let targets = LinkTargets(paths: files.map(\.path))
        let change = LinkTargets.Change(paths: [note.path])
        let reaches = { (target: String, from: String) in
            change.mayConcern(target, from: from) && targets.resolve(target, from: from).map { PathBytes.same($0, note.path) } ?? false
        }
        let others = files.filter { $0.isNote && !PathBytes.same($0.path, note.path) }
        let linkedFrom = notesWithLinks(among: others, concerning: [note.path], where: reaches).filter { other in
            other.note.links.contains { reaches($0.target, other.path) }  // the file as it is now decides
        }.map(\.path).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // A shared note's edits go to its share's history, and that is where its last version is.
        let kept = try commitSnapshot(holding: note.path, proof)
        guard unlink(vault.absolute(note.path)) == 0 else {
            throw SheafError("cannot delete", path: note.path, cause: String(cString: strerror(errno)))
        }
        removeEmptyFolders(above: note.path)
        try commitSnapshot(proof)
        invalidate()
        return RemoveReport(path: note.path, keptIn: kept, linkedFrom: linkedFrom)
    }
}

extension Repository {
    func headOrNil() throws(SheafError) -> String? {
        do { return try head()?.id }
        catch { throw SheafError("cannot read HEAD", cause: error.description) }
    }
}
