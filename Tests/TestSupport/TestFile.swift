// The one way the test targets write files: folders made as needed, the file written in place
// and its descriptor closed on exec, so a child another test spawns meanwhile never holds it
// open (its exit would close the file last and raise a late write event in a watcher).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum TestFile {
    /// Writes `bytes` to `path` (created or truncated), making its folders first.
    public static func write(_ bytes: some Collection<UInt8>, to path: String) {
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot write \(path)")
        defer { close(fd) }
        let data = Array(bytes)
        precondition(data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == data.count, "short write to \(path)")
    }

    /// Writes `text` as UTF-8 to `path` (created or truncated), making its folders first.
    public static func write(_ text: String, to path: String) {
        write(Array(text.utf8), to: path)
    }

    /// Replaces `path` with `text` through a temporary file and a rename, as an editor's safe
    /// save does (a new inode), making its folders first.
    public static func replace(_ text: String, at path: String) {
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
