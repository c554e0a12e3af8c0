// Files whose names are given as bytes, for tests of names Swift's String cannot tell apart
// (`café.md` in NFC and in NFD) or cannot hold (`bad\xFF.md`): made, read and removed with
// open(2) and unlink(2), never through a String path.
#if canImport(Glibc)
import Glibc
#endif

/// A file named exactly `name` (bytes) in a folder.
public enum ByteName {
    /// Writes `text` to the file named `name` in `folder`, creating or truncating it.
    public static func write(_ text: String, name: [UInt8], in folder: String) {
        let fd = withPath(name, in: folder) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        precondition(fd >= 0, "open failed")
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }

    /// The first 4 KB of the file named `name` in `folder` as UTF-8 text, nil when there is none.
    public static func read(name: [UInt8], in folder: String) -> String? {
        let fd = withPath(name, in: folder) { open($0, O_RDONLY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
    }

    /// Removes the file named `name` in `folder` (nothing when there is none).
    public static func remove(name: [UInt8], in folder: String) {
        _ = withPath(name, in: folder) { unlink($0) }
    }

    static func withPath<T>(_ name: [UInt8], in folder: String, _ body: (UnsafePointer<CChar>) -> T) -> T {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        return path.withUnsafeBufferPointer { p in p.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }
}
