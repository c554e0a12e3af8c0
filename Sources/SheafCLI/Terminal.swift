// Everything the CLI prints goes through here: colour only on a terminal (or with --color always),
// never with NO_COLOR or TERM=dumb; long listings through a pager on a terminal; warnings to
// stderr unless -q; and a broken pipe ends the process quietly with exit 0.
import Foundation
import SheafCore
import SheafKit
#if canImport(Glibc)
import Glibc
#endif

enum Terminal {
    static let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1
    static let stdinIsTTY = isatty(STDIN_FILENO) == 1
    /// `--color`: auto (a terminal, without NO_COLOR or TERM=dumb), always, never.
    nonisolated(unsafe) static var colorChoice = ColorChoice.auto
    static var useColor: Bool {
        switch colorChoice {
        case .always: return true
        case .never: return false
        case .auto:
            // Asked for every bold or dim piece: getenv, not a dictionary of the whole environment each time.
            guard stdoutIsTTY else { return false }
            return (getenv("NO_COLOR").map { $0.pointee == 0 } ?? true) && getenv("TERM").map { String(cString: $0) } != "dumb"
        }
    }
    /// `--no-pager`.
    nonisolated(unsafe) static var noPager = false
    /// `-0`: paths end with a NUL byte instead of a line break, for `xargs -0`.
    nonisolated(unsafe) static var nullTerminated = false
    nonisolated(unsafe) static var quiet = false
    nonisolated(unsafe) static var verbose = false

    /// A line to stdout: names in it are escaped (`TerminalLine`).
    static func out(_ line: TerminalLine = "") { write(STDOUT_FILENO, line.text + "\n") }
    static func err(_ line: TerminalLine) { write(STDERR_FILENO, line.text + "\n") }

    /// One path of a listing: a line (shown as `ShownText.name`), or its bytes NUL-terminated with `-0`.
    static func path(_ path: String) {
        write(STDOUT_FILENO, nullTerminated ? path + "\0" : ShownText.name(path) + "\n")
    }

    static func warn(_ message: TerminalLine) {
        if !quiet { err("sheaf: warning: \(message)") }
    }

    static func bold(_ s: TerminalLine) -> TerminalLine { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    static func dim(_ s: TerminalLine) -> TerminalLine { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }

    /// Bytes as they are to stdout (a merged note).
    static func raw(_ bytes: [UInt8]) { write(STDOUT_FILENO, bytes) }

    private static func write(_ fd: Int32, _ text: String) { write(fd, Array(text.utf8)) }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) {
        do { try FileBytes.writeAll(bytes, to: fd) } catch {
            if error.errno == EPIPE { exit(0) }  // the reader went away: not an error
        }
    }

    /// Writes a JSON document to stdout (pretty, or one line for `watch --json`'s stream). The
    /// encoder escapes control characters in strings, so names go out exact and inert.
    static func json<T: Encodable>(_ value: T, pretty: Bool = true) {
        guard var data = try? VaultJSON.encode(value, pretty: pretty) else { return }
        data.append(UInt8(ascii: "\n"))
        write(STDOUT_FILENO, [UInt8](data))
    }

    static func date(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = NoteDate.localZone  // the C library's reading of TZ, as every date Sheaf shows
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }

    /// Sends the rest of standard output through a pager when it goes to a terminal: `$SHEAF_PAGER`,
    /// else `$PAGER`, else `less -FIRX` (which quits at once when the text fits the screen). Not
    /// with `--no-pager`, an empty pager or `cat`, or when `less` is missing. Colour stays on.
    static func page() {
        guard stdoutIsTTY, !noPager, pagerPID == 0 else { return }
        let env = ProcessInfo.processInfo.environment
        let command = [env["SHEAF_PAGER"], env["PAGER"]].compactMap { $0 }.first ?? "less -FIRX"
        let trimmed = command.trimmingHorizontalWhitespace
        if trimmed.isEmpty || trimmed == "cat" { return }
        if command == "less -FIRX", !FileManager.default.isExecutableFile(atPath: "/usr/bin/less"),
           !FileManager.default.isExecutableFile(atPath: "/bin/less") { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        let useColorBefore = useColor
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var pid: pid_t = 0
        let argv = ["/bin/sh", "-c", command]
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var environment = env
        if environment["LESS"] == nil { environment["LESS"] = "FIRX" }
        var cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", &actions, nil, &cArgs, &cEnv) == 0 else {
            close(fds[0]); close(fds[1]); return
        }
        close(fds[0])
        dup2(fds[1], STDOUT_FILENO)
        close(fds[1])
        if colorChoice == .auto { colorChoice = useColorBefore ? .always : .never }
        pagerPID = pid
        atexit {
            // The pager reads until our end of the pipe closes; wait for the user to leave it.
            close(STDOUT_FILENO)
            var status: Int32 = 0
            while waitpid(Terminal.pagerPID, &status, 0) < 0 && errno == EINTR {}
        }
    }

    nonisolated(unsafe) private static var pagerPID: pid_t = 0
}

enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}
