// Files the driver writes after the merge's result is in place, and its messages: a failure
// there cannot be handed to `sheaf` (it would merge the result again), so it is reported here
// in the words `sheaf merge-file` uses (`sheaf: cannot write: PATH`, the cause, exit 2).
import SheafText
#if canImport(Glibc)
import Glibc
#endif

enum MergeFileOutput {
    /// Replaces `path` with `bytes`, durable (a conflict file is the user's), or ends the process.
    static func write(_ bytes: [UInt8], to path: String) {
        do { try FileBytes.replace(path, with: bytes, durable: true) } catch {
            let what = error.step == .rename ? "cannot replace" : "cannot write"
            self.error("sheaf: \(what): \(ShownText.name(path))\n  cause: \(ShownText.text(error.reason))\n")
            exit(2)
        }
    }

    /// A message to standard error; one that cannot be written is dropped.
    static func error(_ message: String) {
        _ = try? FileBytes.writeAll(Array(message.utf8), to: 2)
    }
}
