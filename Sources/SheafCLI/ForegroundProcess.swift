// Programs Sheaf hands the terminal to (the editor, fzf) run in Sheaf's own process group, which
// is the terminal's foreground group while Sheaf runs. Foundation's Process starts its child in a
// new process group; under a shell with job control (an interactive bash or zsh) that group is a
// background one, and the terminal stops it (SIGTTIN, SIGTTOU) as soon as it reads the keyboard or
// sets up the screen: fzf drew nothing and only Ctrl-C got the user out. While the child runs,
// Sheaf ignores SIGINT and SIGQUIT (the child gets them as the terminal sends them to the whole
// group, and decides); the child starts with every signal at its default.
import Foundation
import SheafCore
#if canImport(Glibc)
import Glibc
#endif

enum ForegroundProcess {
    /// Runs `argv` (the first element a path, or a name looked up on PATH) with the terminal, and
    /// waits. `input`, when given, is written to its standard input through a pipe; with
    /// `captureOutput` its standard output is read back. Returns the exit status (128 + the signal
    /// for a child killed by one) and what it printed.
    static func run(_ argv: [String], input: [UInt8]? = nil, captureOutput: Bool = false) throws -> (status: Int32, output: [UInt8]) {
        var inputPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1]
        if input != nil { guard closingPipe(&inputPipe) else { throw spawnError(argv[0], errno) } }
        if captureOutput {
            guard closingPipe(&outputPipe) else {
                let saved = errno
                closeAll(inputPipe)
                throw spawnError(argv[0], saved)
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil { posix_spawn_file_actions_adddup2(&actions, inputPipe[0], STDIN_FILENO) }
        if captureOutput { posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        // No POSIX_SPAWN_SETPGROUP: the child stays in this (foreground) process group.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let oldInterrupt = signal(SIGINT, SIG_IGN), oldQuit = signal(SIGQUIT, SIG_IGN)
        defer { signal(SIGINT, oldInterrupt); signal(SIGQUIT, oldQuit) }

        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        if input != nil { close(inputPipe[0]) }
        if captureOutput { close(outputPipe[1]) }
        guard spawned == 0 else {
            if input != nil { close(inputPipe[1]) }
            if captureOutput { close(outputPipe[0]) }
            throw spawnError(argv[0], spawned)
        }

        // The child may stop reading at any time (a pick made, Ctrl-C): the input goes from another
        // thread so that reading its output never waits on a full pipe, and EPIPE ends the writing.
        let writer = input.map { bytes in
            let fd = inputPipe[1]
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? FileBytes.writeAll(bytes, to: fd)
                close(fd)
                done.signal()
            }
            return done
        }
        var output: [UInt8] = []
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(outputPipe[0], $0.baseAddress, $0.count) }
                if n > 0 { output.append(contentsOf: buffer[0..<n]); continue }
                if n < 0 && errno == EINTR { continue }
                break
            }
            close(outputPipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        writer?.wait()
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }

    /// A pipe whose ends close in the child (its dup2'd copies stay open there).
    private static func closingPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func closeAll(_ fds: [Int32]) { for fd in fds where fd >= 0 { close(fd) } }

    private static func spawnError(_ program: String, _ code: Int32) -> Error {
        NSError(domain: NSPOSIXErrorDomain, code: Int(code),
                userInfo: [NSLocalizedDescriptionKey: "cannot start \(program): \(String(cString: strerror(code)))"])
    }
}
