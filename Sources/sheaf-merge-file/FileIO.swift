// Reading and replacing files with the C library alone (no Foundation in this executable).
import SheafText
#if canImport(Glibc)
import Glibc
#endif

struct FileFailure: Error {
    var errno: Int32 = 0
}

/// The whole file's bytes.
func readFile(_ path: String) throws(FileFailure) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw FileFailure() }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw FileFailure() }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; throw FileFailure() }
        if n == 0 { return bytes }
        bytes.append(contentsOf: chunk[..<n])
    }
}

/// Every byte to an open file, retrying short writes and waiting while a non-blocking one is full.
func writeAll(_ bytes: [UInt8], to fd: Int32) throws(FileFailure) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN {
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            throw FileFailure(errno: errno)
        }
        offset += n
    }
}

/// Replaces `path` with `bytes` through a temporary file beside it and a rename, keeping the
/// file's mode (SheafCore's `AtomicFile.write` with `durable: false`, and its temporary names,
/// which `sheaf doctor` knows).
func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileFailure) {
    var mode: mode_t = 0o644
    var info = stat()
    if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
    let temp = TemporaryName.beside(path)
    let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw FileFailure() }
    do throws(FileFailure) {
        try writeAll(bytes, to: fd)
    } catch {
        close(fd); unlink(temp)
        throw error
    }
    close(fd)
    chmod(temp, mode)
    guard rename(temp, path) == 0 else { unlink(temp); throw FileFailure() }
}
