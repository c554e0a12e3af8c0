// Every helper program Sheaf runs and waits for (git, its credential helpers, ssh-keygen, the
// thumbnailer): posix_spawn, a poll loop over the child's pipes, then waitpid on its pid. No
// Foundation: Process.waitUntilExit polls the calling thread's run loop every 50 ms, and on the
// main thread it slept out the whole 50 ms after the child had gone (a `sheaf attach` waited 55 ms
// on a thumbnailer that was done; a `git --version` took 51 ms instead of 1.4).
//
// As Foundation's Process did, the child starts in a process group of its own (the terminal's ^C
// reaches Sheaf, which decides), with every descriptor above stderr closed, every signal at its
// default and none blocked; its stdin is /dev/null unless `input` is given.
#if canImport(Glibc)
import Glibc
#endif
import CSpawn

public enum ChildProcess {
    /// Where one of the child's output streams goes.
    public enum Output {
        /// /dev/null.
        case discard
        /// This process's own stdout or stderr.
        case inherit
        /// Collected into the outcome.
        case capture
        /// Written by the child straight into this open descriptor (not closed here).
        case descriptor(Int32)
        /// Handed over as it arrives, chunk by chunk.
        case stream((ArraySlice<UInt8>) -> Void)
    }

    /// How the child ended, and what was captured of its output.
    public struct Outcome {
        /// The exit status, nil when a signal ended the child.
        public let exitStatus: Int32?
        /// The signal that ended the child, nil when it exited.
        public let signal: Int32?
        public var output: [UInt8] = []
        public var errors: [UInt8] = []

        public var succeeded: Bool { exitStatus == 0 }
        /// The exit status, or 128 + the signal, as a shell reports it.
        public var status: Int32 { exitStatus ?? 128 + (signal ?? 0) }
    }

    /// The child could not be started (a missing program, no more processes or descriptors).
    public struct StartFailure: Error, CustomStringConvertible {
        public let program: String
        public let code: Int32
        public var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }

    /// Runs `argv` (argv[0] is the program's path; nothing is looked up on PATH: pass
    /// /usr/bin/env first for that) and waits for it. `environment` nil keeps this process's.
    /// For a child: be killed when the process that started it ends (a helper decoding an image
    /// must not outlive a `sheaf index` killed by `timeout`). False when that parent, `parent`
    /// (its `getppid()` at start), is gone already: the child should exit.
    public static func dieWithParent(_ parent: pid_t) -> Bool {
        sheaf_die_with_parent(parent) == 0
    }

    public static func run(_ argv: [String], environment: [String: String]? = nil, directory: String? = nil,
                           input: [UInt8]? = nil, output: Output = .discard, errors: Output = .discard) throws(StartFailure) -> Outcome {
        precondition(!argv.isEmpty, "a child process needs a program")
        var pipes = Pipes()
        defer { pipes.closeAll() }
        if input != nil { try pipes.open(\.input, argv[0]) }
        if output.isPiped { try pipes.open(\.output, argv[0]) }
        if errors.isPiped { try pipes.open(\.errors, argv[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory { _ = sheaf_spawn_add_chdir(&actions, directory) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, pipes.input.read, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        for (stream, fd, end) in [(output, STDOUT_FILENO, pipes.output.write), (errors, STDERR_FILENO, pipes.errors.write)] {
            switch stream {
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .descriptor(let target): posix_spawn_file_actions_adddup2(&actions, target, fd)
            case .capture, .stream: posix_spawn_file_actions_adddup2(&actions, end, fd)
            }
        }
        _ = sheaf_spawn_add_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var everySignal = sigset_t(), none = sigset_t()
        sigfillset(&everySignal)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var cEnvironment = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { cEnvironment?.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned: Int32
        if cEnvironment != nil {
            spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, &cEnvironment!)
        } else {
            spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        }
        pipes.closeChildEnds()
        guard spawned == 0 else { throw StartFailure(program: argv[0], code: spawned) }

        let captured = pipes.exchange(input: input ?? [], output: output, errors: errors)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return Outcome(exitStatus: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
                       output: captured.output, errors: captured.errors)
    }
}

extension ChildProcess.Output {
    var isPiped: Bool {
        switch self {
        case .capture, .stream: return true
        case .discard, .inherit, .descriptor: return false
        }
    }
}
