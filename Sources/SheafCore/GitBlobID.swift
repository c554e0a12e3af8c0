// Why: Sheaf has one content hash, and it is git's. The id of a blob is the SHA-1 of
// `blob <size>\0` followed by the bytes, so the index's hash of a note, the name of an
// attachment's thumbnail and the id git stores for the same file are one string: rename pairing
// and "same as committed" compare with git's trees directly, and thumbnails made on two machines
// for two different files cannot share a name (FNV-64, used before, had no such guarantee).

/// Git's blob ids (40 lower-case hex digits), computed without git.
public enum GitBlobID {
    /// The blob id of `bytes` (`git hash-object` of a file holding them).
    public static func of(_ bytes: some Collection<UInt8>) -> String {
        var sha = SHA1()
        sha.update(Array("blob \(bytes.count)\0".utf8))
        sha.update(bytes)
        return SHA1.hex(sha.finish())
    }

    /// The content id of a note as `NoteBytes.read` returned it: its blob id when it was read
    /// whole. A note over the size limit is indexed by its path and its head's title only, and is
    /// known by that head and its size (`head-SIZE-ID`, never a blob id: no blob matches it, so it
    /// is never taken for a committed version): hashing every byte of a 20 GB sparse `.md` took
    /// every scan 85 s, and a command killed meanwhile started it over the next time.
    public static func of(_ read: NoteBytes, absolutePath: String) -> String? {
        switch read {
        case .whole(let bytes): return of(bytes)
        case .head(let bytes, let size): return "head-\(size)-" + of(bytes)
        }
    }
}
