// Writing a file Sheaf owns (state in `.sheaf/`, thumbnails, git's own files) so that a reader
// (or a crash) sees the old bytes or the new ones, never a mix: SheafText's `FileBytes.replace`
// (a temporary file beside the target, fsync, then rename over it; the file's mode is kept), with
// Sheaf's error messages. A user's file is never written here: those go through
// `VaultFileWriter`, which checks that nobody saved meanwhile.
import SheafCore

public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(SheafError) {
        try write(Array(text.utf8), to: path)
    }

    /// Replaces `path` with `bytes`. With `durable` false the bytes are not forced to disk before
    /// the rename (a reader still sees old or new bytes, never a mix): for hand-off files a crash
    /// makes worthless anyway, such as the result a merge driver gives back to git.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(SheafError) {
        do {
            try FileBytes.replace(path, with: bytes, durable: durable)
        } catch {
            throw SheafError(error.step == .rename ? "cannot replace" : "cannot write", path: path, cause: error.reason)
        }
    }

    /// Writes every byte to an open file, retrying short writes.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(SheafError) {
        do { try FileBytes.writeAll(bytes, to: fd) } catch { throw SheafError("cannot write", cause: error.reason) }
    }
}
