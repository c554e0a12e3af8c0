// Writing a file so that a reader (or a crash) sees the old bytes or the new ones, never a mix:
// a temporary file beside the target, fsync, then rename over it. The file's mode is kept.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(SheafError) {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(SheafError) {
        var mode: mode_t = 0o644
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        let folder = (path as NSString).deletingLastPathComponent
        let temp = folder + "/.sheaf-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-" + (path as NSString).lastPathComponent
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot write", path) }
        var ok = true
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; ok = false; break }
                offset += n
            }
        }
        if ok && fsync(fd) != 0 { ok = false }
        let writeErrno = errno
        close(fd)
        guard ok else { unlink(temp); errno = writeErrno; throw failure("cannot write", path) }
        chmod(temp, mode)  // open() applied the umask; keep the original file's mode
        guard rename(temp, path) == 0 else { let e = errno; unlink(temp); errno = e; throw failure("cannot replace", path) }
    }

    static func failure(_ what: String, _ path: String) -> SheafError {
        SheafError(what, path: path, cause: String(cString: strerror(errno)))
    }
}
