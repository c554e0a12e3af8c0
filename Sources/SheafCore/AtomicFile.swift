// Writing a file Sheaf owns (state in `.sheaf/`, thumbnails, git's own files) so that a reader
// (or a crash) sees the old bytes or the new ones, never a mix: a temporary file beside the
// target, fsync, then rename over it. The file's mode is kept. A user's file is never written
// here: those go through `VaultFileWriter`, which checks that nobody saved meanwhile.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(SheafError) {
        try write(Array(text.utf8), to: path)
    }

    /// Replaces `path` with `bytes`. With `durable` false the bytes are not forced to disk before
    /// the rename (a reader still sees old or new bytes, never a mix): for hand-off files a crash
    /// makes worthless anyway, such as the result a merge driver gives back to git.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(SheafError) {
        var mode: mode_t = 0o644
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        // No part of the target's name: a name of 255 bytes leaves no room for a prefix.
        let temp = VaultFileWriter.temporaryName(beside: path)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot write", path) }
        do throws(SheafError) {
            try writeAll(bytes, to: fd)
            guard !durable || fsync(fd) == 0 else { throw failure("cannot write", path) }
        } catch {
            close(fd); unlink(temp)
            throw SheafError(error.what, path: path, cause: error.cause)
        }
        close(fd)
        chmod(temp, mode)  // open() applied the umask; keep the original file's mode
        guard rename(temp, path) == 0 else { let e = errno; unlink(temp); errno = e; throw failure("cannot replace", path) }
    }

    /// Writes every byte to an open file, retrying short writes.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(SheafError) {
        var failed: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; failed = errno; break }
                offset += n
            }
        }
        if failed != 0 { throw SheafError("cannot write", cause: String(cString: strerror(failed))) }
    }

    static func failure(_ what: String, _ path: String) -> SheafError {
        SheafError(what, path: path, cause: String(cString: strerror(errno)))
    }
}
