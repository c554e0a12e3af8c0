// The versions of notes this session's own writes replaced, by blob id. The index deletes the FTS
// row a note's previous version made only with that version's text (FTSDeletes): a version that
// was committed is read back from the repository, one that never was (an append after an
// append, an attach to a note edited since the last sync) was left as a dead row. A version this
// session replaced is at hand, and needs neither the repository nor libgit2 loaded (7-8 ms of a
// `sheaf attach` that otherwise opens no repository).
import Foundation
import SheafCore

final class DisplacedVersions: @unchecked Sendable {
    /// What the session keeps at most (a `tags` rename over a whole vault replaces every note);
    /// past it, versions are looked up in the repository as before.
    static let limit = 64 << 20

    private let lock = NSLock()
    private var byID: [String: [UInt8]] = [:]
    private var total = 0

    func record(_ bytes: [UInt8]) {
        guard bytes.count <= Note.sizeLimit else { return }
        let id = GitBlobID.of(bytes)
        lock.withLock {
            guard byID[id] == nil, total + bytes.count <= Self.limit else { return }
            byID[id] = bytes
            total += bytes.count
        }
    }

    func bytes(_ id: String) -> [UInt8]? {
        lock.withLock { byID[id] }
    }
}
