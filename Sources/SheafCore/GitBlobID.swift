// Why: Sheaf has one content hash, and it is git's. The id of a blob is the SHA-1 of
// `blob <size>\0` followed by the bytes, so the index's hash of a note, the name of an
// attachment's thumbnail and the id git stores for the same file are one string: rename pairing
// and "same as committed" compare with git's trees directly, and thumbnails made on two machines
// for two different files cannot share a name (FNV-64, used before, had no such guarantee).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Git's blob ids (40 lower-case hex digits), computed without git.
public enum GitBlobID {
    /// The blob id of `bytes` (`git hash-object` of a file holding them).
    public static func of(_ bytes: some Collection<UInt8>) -> String {
        var sha = SHA1()
        sha.update(Array("blob \(bytes.count)\0".utf8))
        sha.update(bytes)
        return SHA1.hex(sha.finish())
    }

    /// The blob id of the file at `absolutePath`, read in 1 MB pieces so a large file is never
    /// held in memory. Throws when it cannot be read, or when its size changed while it was
    /// read (someone is writing it: the id would be of no version).
    public static func ofFile(_ absolutePath: String) throws(SheafError) -> String {
        let fd = open(absolutePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // a FIFO must not block (VaultFileWriter.read)
        guard fd >= 0 else {
            throw SheafError("cannot read", path: absolutePath, cause: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SheafError("cannot read", path: absolutePath, cause: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SheafError("cannot read", path: absolutePath, cause: "not a regular file")
        }
        let size = Int(info.st_size)
        var sha = SHA1()
        sha.update(Array("blob \(size)\0".utf8))
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let n = read(fd, buffer, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw SheafError("cannot read", path: absolutePath, cause: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            total += n
            guard total <= size else { break }
            sha.update(UnsafeRawBufferPointer(start: buffer, count: n))
        }
        guard total == size else {
            throw SheafError("cannot read", path: absolutePath, cause: "the file changed size while it was read",
                             hint: "try again once it is saved")
        }
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
