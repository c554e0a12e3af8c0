import SheafCore

/// FNV-1a 64 of a file's bytes: cheap, stable across runs and machines, and enough to tell
/// "same content" for skipping re-indexing and for spotting renames.
enum ContentHash {
    static func of(_ bytes: some Sequence<UInt8>) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The hash of what the index takes from a note file. A note over the size limit is indexed
    /// from its head alone (title, and the size in its warning), so its head and size are its
    /// identity here: the rest of the file is never read, nor held in memory.
    static func of(_ read: NoteBytes) -> String {
        switch read {
        case .whole(let bytes): return of(bytes)
        case .head(let head, let size): return "large-\(size)-" + of(head)
        }
    }
}
