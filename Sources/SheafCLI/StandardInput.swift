// Standard input for `write`, `append` and `new --body -`, read in chunks with the note size
// limit applied while reading: `head -c 4G /dev/zero | sheaf append NOTE` read everything first
// (19.5 GB peak) and wrote a 4 GB note. Input past the limit stops the command before anything
// is written, having held at most the limit and one chunk.
import Foundation
import SheafCore

enum StandardInput {
    static let chunk = 65_536

    /// Every byte of standard input; throws (exit 2) as soon as it passes `limit` bytes.
    static func bytes(limit: Int = Note.sizeLimit) throws(SheafError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, chunk) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                throw SheafError("cannot read standard input", cause: String(cString: strerror(errno)))
            }
            guard bytes.count + n <= limit else {
                throw SheafError("standard input is larger than a note may be (\(limit / 1_000_000) MB); nothing was written",
                                 hint: "split the text, or keep it as an attachment")
            }
            bytes += buffer[..<n]
        }
    }

    /// Standard input as text (bytes that are not UTF-8 become U+FFFD), within `limit` bytes.
    static func text(limit: Int = Note.sizeLimit) throws(SheafError) -> String {
        String(decoding: try bytes(limit: limit), as: UTF8.self)
    }
}
