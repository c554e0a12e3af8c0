// Git's blob id of a file on disk, streamed so a large file is never held in memory. The id of
// bytes in hand (`GitBlobID.of`) is SheafCore's, pure; only the file read lives here.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheafCore

extension GitBlobID {
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
}
