// Everything the CLI prints goes through here: colour only on a terminal and without NO_COLOR,
// warnings to stderr unless -q, and a broken pipe ends the process quietly with exit 0.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum Terminal {
    static let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1
    static let stdinIsTTY = isatty(STDIN_FILENO) == 1
    static let useColor = stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    nonisolated(unsafe) static var quiet = false
    nonisolated(unsafe) static var verbose = false

    static func out(_ line: String = "") { write(STDOUT_FILENO, line + "\n") }
    static func err(_ line: String) { write(STDERR_FILENO, line + "\n") }

    static func warn(_ message: String) {
        if !quiet { err("sheaf: warning: " + message) }
    }

    static func bold(_ s: String) -> String { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    static func dim(_ s: String) -> String { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }

    private static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }  // the reader went away: not an error
                return
            }
            offset += n
        }
    }

    /// Reads all of standard input as text.
    static func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Writes a JSON document to stdout.
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value) else { return }
        out(String(decoding: data, as: UTF8.self))
    }

    static func date(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }
}
