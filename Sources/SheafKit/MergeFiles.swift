// `sheaf merge-file`: the note merge alone on three files, also what git runs as the merge
// driver `sheaf install-merge-driver` registers. It needs no vault and opens no session, so
// git pays only for the merge (issue 10: a merge driver's cost is mostly process start).
import Foundation
import SheafCore
import SheafFiles
import SheafSync

/// The note merge of three files outside any vault.
public enum MergeFiles {
    /// What merging three files gave.
    public struct Outcome: Sendable {
        /// The merged bytes (the local side in every overlap), for stdout when nothing wrote them.
        public let merged: [UInt8]
        /// Whether edits overlapped (the remote side went to a conflict file when one was asked for).
        public let overlapped: Bool
        /// The conflict file written beside the note in driver mode, when edits overlapped.
        public let conflictFile: String?
    }

    /// Merges `ours` and `theirs` against `base` (paths of files). With `driverPath` (git's merge
    /// driver, `%P`) the result replaces `ours` and the remote side of an overlap is written
    /// beside the note as a conflict file; otherwise the result goes to `output` when given, and
    /// the remote side to `conflictOut` when given. Inputs are never written over otherwise.
    public static func merge(base: String, ours: String, theirs: String, output: String?, conflictOut: String?,
                             driverPath: String?) throws(SheafError) -> Outcome {
        let isNote = VaultPath.isNote(driverPath ?? ours)
        let sides = (try read(base), try read(ours), try read(theirs))
        let result: FileMerge
        do {
            result = try NoteMerge.merge(base: sides.0, ours: sides.1, theirs: sides.2, isNote: isNote)
        } catch {
            throw SheafError("cannot merge", path: driverPath ?? ours, cause: error.message)
        }
        if let driverPath {
            // git reads the result back at once and records it itself; a crash loses the merge
            // in progress whether or not these bytes reached the disk, so no fsync (most of the
            // wall time of a small merge on a busy disk). The conflict file is the user's: durable.
            try AtomicFile.write(result.merged, to: ours, durable: false)
            guard let remote = result.remote else { return Outcome(merged: result.merged, overlapped: false, conflictFile: nil) }
            let conflict = ConflictFile.path(for: driverPath, time: Date(), device: "git-merge") {
                FileManager.default.fileExists(atPath: $0)
            }
            try AtomicFile.write(ConflictFile.content(remote: remote, notePath: driverPath, isNote: isNote), to: conflict)
            return Outcome(merged: result.merged, overlapped: true, conflictFile: conflict)
        }
        if let output { try AtomicFile.write(result.merged, to: output, durable: false) }
        if let remote = result.remote, let conflictOut {
            try AtomicFile.write(ConflictFile.content(remote: remote, notePath: ours, isNote: isNote), to: conflictOut)
        }
        return Outcome(merged: result.merged, overlapped: result.remote != nil, conflictFile: nil)
    }

    private static func read(_ path: String) throws(SheafError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw SheafError("cannot read", path: path) }
        return Array(data)
    }
}
