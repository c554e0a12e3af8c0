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
}
