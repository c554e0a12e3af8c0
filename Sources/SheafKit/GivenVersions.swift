// The versions `show --json` handed out, by note path (`.sheaf/given-versions`), so that
// `--if-match` can tell a version of this note from any other blob in the object store: a note
// read before it was ever committed has its blob stored, but no commit holds it at the note's
// path. Entries are `<blob> <path>` ended by NUL (a path may hold a line break); the newest
// `kept` entries are kept, older ones dropped when the file passes `limit` bytes.
import Foundation
import SheafCore
import SheafFiles

struct GivenVersions {
    let file: String
    static let limit = 1_000_000
    static let kept = 2_000

    init(vault: Vault) { file = vault.stateDirectory + "/given-versions" }

    private var entries: [[UInt8]] {
        guard let bytes = try? FileBytes.read(file) else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: true).map(Array.init)
    }

    private static func entry(_ blob: String, _ path: String) -> [UInt8] { Array((blob + " " + path).utf8) }

    /// Whether `blob` was handed out as a version of the note at `path`.
    func contains(_ blob: String, path: String) -> Bool {
        entries.contains(Self.entry(blob, path))
    }

    /// Records `blob` as a version of `path`. A failure (a read-only `.sheaf/`) only means a
    /// later `--if-match` with this id is refused unless a commit holds it.
    func record(_ blob: String, path: String) {
        let current = entries, entry = Self.entry(blob, path)
        if current.contains(entry) { return }
        if current.reduce(0, { $0 + $1.count + 1 }) + entry.count > Self.limit {
            let newest = current.suffix(Self.kept - 1) + [entry]
            try? AtomicFile.write(Array(newest.joined(separator: [0])) + [0], to: file)
            return
        }
        let fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        try? FileBytes.writeAll(entry + [0], to: fd)
    }
}
