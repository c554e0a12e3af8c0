// Whole files in and out with the C library alone: what SheafFiles' `AtomicFile`, the CLI's
// output and the Foundation-free `sheaf-merge-file` share.
#if canImport(Glibc)
import Glibc
#endif

/// A failed file operation: the step and the C library's errno.
public struct FileBytesError: Error, Sendable {
    public enum Step: Sendable { case open, read, write, sync, rename }
    public let step: Step
    public let errno: Int32

    /// The C library's words for the errno.
    public var reason: String { String(cString: strerror(errno)) }
}

public enum FileBytes {
    /// A regular file's bytes (a folder, device or pipe is refused with EINVAL). Opened without
    /// blocking: opening a FIFO for reading waits for a writer; the check below refuses it.
    public static func read(_ path: String) throws(FileBytesError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileBytesError(step: .open, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileBytesError(step: .read, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileBytesError(step: .read, errno: EINVAL) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw FileBytesError(step: .read, errno: errno) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Every byte to an open file: short writes are retried, a full non-blocking output is
    /// waited for (poll), EINTR is retried.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(FileBytesError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw FileBytesError(step: .write, errno: errno)
            }
            offset += n
        }
    }

    /// Replaces `path` with `bytes` so that a reader (or a crash) sees the old bytes or the new
    /// ones, never a mix: a temporary file beside it (`TemporaryName`), fsync when `durable`,
    /// then a rename over it. The file's mode is kept.
    public static func replace(_ path: String, with bytes: [UInt8], durable: Bool) throws(FileBytesError) {
        var mode: mode_t = 0o644
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        let temp = TemporaryName.beside(path, scratch: true)  // never holds a version it displaced
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileBytesError(step: .open, errno: errno) }
        do throws(FileBytesError) {
            try writeAll(bytes, to: fd)
            guard !durable || fsync(fd) == 0 else { throw FileBytesError(step: .sync, errno: errno) }
        } catch {
            close(fd); unlink(temp)
            throw error
        }
        close(fd)
        chmod(temp, mode)  // open() applied the umask; keep the original file's mode
        guard rename(temp, path) == 0 else {
            let failure = FileBytesError(step: .rename, errno: errno)
            unlink(temp)
            throw failure
        }
    }
}
