// The write path as every Sheaf command uses it: a `VaultFileWriter` whose merge is the note
// merge (overlapping body lines keep both sides, the user's first: two saves appended at once
// both stay) and which keeps a version it had to give up on as a conflict file beside the note.
import Foundation
import SheafCore
import SheafFiles

extension VaultFileWriter {
    /// The writer of a vault's (or work tree's) files at `root`.
    public static func forNotes(root: String) -> VaultFileWriter {
        VaultFileWriter(root: root, merge: { path, base, current, wanted in
            (try? NoteMerge.merge(base: base, ours: current, theirs: wanted, isNote: VaultPath.isNote(path), keepBoth: true).merged) ?? current
        }, keepAside: { (writer, path, bytes) throws(SheafError) -> String in
            let isNote = VaultPath.isNote(path.path)
            let name = ConflictFile.path(for: path.path, time: Date(), device: "saved-during-write") {
                FileIdentity.of(path: root + "/" + $0) != nil
            }
            let safe = try VaultPathGuard.require(name, in: root)
            try writer.create(safe, ConflictFile.content(remote: bytes, notePath: path.path, isNote: isNote))
            return name
        })
    }
}
