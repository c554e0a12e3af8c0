// Reading a note file's bytes in bounded memory (`NoteBytes`, SheafCore's, says what was read:
// the whole file or its head); only the read itself lives here, so SheafCore touches no file.
import Foundation
import SheafCore

extension NoteBytes {
    /// Reads the file at `absolutePath`, checking its size (fstat on the open file) before
    /// reading; nil when it cannot be opened or read. A file that grows past the limit while
    /// being read is treated as over it. `limit` is `Note.sizeLimit` except in tests.
    public static func read(_ absolutePath: String, limit: Int = Note.sizeLimit) -> NoteBytes? {
        let fd = open(absolutePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // a FIFO must not block (VaultFileWriter.read)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        if size > limit { return head(fd, size: size) }
        // One byte more than the limit tells a file that grew past it since the fstat.
        guard let bytes = readUpTo(fd, limit + 1, expected: size) else { return nil }
        if bytes.count > limit {
            var now = stat()
            return head(fd, size: fstat(fd, &now) == 0 ? max(Int(now.st_size), bytes.count) : bytes.count)
        }
        return .whole(bytes)
    }

    private static func head(_ fd: Int32, size: Int) -> NoteBytes? {
        guard lseek(fd, 0, SEEK_SET) == 0, var bytes = readUpTo(fd, headLimit, expected: headLimit) else { return nil }
        // Cut at the last line break so no half line (or half character) is read as text.
        if bytes.count == headLimit, let end = bytes.lastIndex(of: UInt8(ascii: "\n")) {
            bytes.removeSubrange((end + 1)...)
        }
        return .head(bytes, size: size)
    }

    /// Reads until end of file or `count` bytes, whichever comes first.
    private static func readUpTo(_ fd: Int32, _ count: Int, expected: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: min(count, max(expected, 0) + 1))
        var filled = 0
        while filled < count {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(count - filled, max(filled, 4096)))) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                systemRead(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}

/// `read(2)`, named apart from `NoteBytes.read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
