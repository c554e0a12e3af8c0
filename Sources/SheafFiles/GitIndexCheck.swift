// Whether the bytes of a `.git/index` are damaged in git's own terms, for repairing one that stops
// every commit (SheafGit's Repository+IndexRepair). libgit2 1.5 fails on more than damage: git
// 2.40+ writes indexes it cannot read (index.skipHash, split and sparse indexes), and rebuilding
// those would drop their state on every commit. git's CLI is no judge either: `git ls-files`
// lists a cut-off index without a word (checked with git 2.39). The file's own checksum is.
import SheafCore

public enum GitIndexCheck {
    /// Damaged: shorter than a header and a checksum, without the `DIRC` signature or a version
    /// git writes (2 to 4), or ending in a SHA-1 that is not the SHA-1 of the bytes before it.
    /// A checksum of zeros (index.skipHash) is not checked.
    public static func isDamaged(_ bytes: [UInt8]) -> Bool {
        let header = 12, checksum = 20
        guard bytes.count >= header + checksum, bytes.prefix(4).elementsEqual("DIRC".utf8) else { return true }
        let version = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard (2...4).contains(version) else { return true }
        let stored = bytes.suffix(checksum)
        if stored.allSatisfy({ $0 == 0 }) { return false }
        var sha = SHA1()
        sha.update(bytes.dropLast(checksum))
        return !sha.finish().elementsEqual(stored)
    }
}
