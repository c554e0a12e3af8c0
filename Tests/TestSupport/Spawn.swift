// The one way the test targets start processes: posix_spawn and waitpid, without Foundation's
// Process, whose child monitor missed exits while test servers were running (a test then waited
// forever on a zombie). `runProcess` is the common case: run to the end, output captured.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished process left: its exit status and what it wrote.
public struct RunResult: Sendable {
    /// The exit status; 128 + the signal when it was killed, 127 when it could not start.
    public let status: Int32
    /// Standard output, bytes as written.
    public let output: Data
    /// Standard error, as UTF-8 text.
    public let stderr: String

    /// Standard output as UTF-8 text.
    public var stdout: String { String(decoding: output, as: UTF8.self) }

    public init(status: Int32, output: Data, stderr: String) {
        self.status = status
        self.output = output
        self.stderr = stderr
    }

    public init(status: Int32, stdout: String, stderr: String) {
        self.init(status: status, output: Data(stdout.utf8), stderr: stderr)
    }
}

/// The environment `runProcess` gives a child: nothing of the test runner's, HOME in the
/// working folder (so no user's git config is read), UTF-8, UTC.
public func cleanEnvironment(home: String) -> [String: String] {
    ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
     "GIT_CONFIG_NOSYSTEM": "1", "TZ": "UTC"]
}

/// Runs `executable` in `directory` to its end with a clean environment (`cleanEnvironment`, then
/// `extra`), `stdin` as its input. With a `deadline` (seconds), a process that outlives it is
/// killed and reported with status 137. Output goes through files, so a large output never blocks
/// the child.
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String], in directory: String, stdin: String? = nil,
                       environment extra: [String: String] = [:], deadline: Double? = nil) -> RunResult {
    var env = cleanEnvironment(home: directory)
    for (k, v) in extra { env[k] = v }
    let base = NSTemporaryDirectory() + "sheaf-io-\(UUID().uuidString)"
    let (inPath, outPath, errPath) = (base + ".in", base + ".out", base + ".err")
    _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))
    defer { for p in [inPath, outPath, errPath] { try? FileManager.default.removeItem(atPath: p) } }
    func result(_ status: Int32, note: String = "") -> RunResult {
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return RunResult(status: status, output: FileManager.default.contents(atPath: outPath) ?? Data(),
                         stderr: String(decoding: errData, as: UTF8.self) + note)
    }
    guard let pid = Spawn.start(executable, arguments, in: directory, environment: env,
                                stdin: inPath, stdout: outPath, stderr: errPath) else {
        return RunResult(status: 127, stdout: "", stderr: "could not start \(executable)")
    }
    guard let deadline else { return result(Spawn.wait(pid)) }
    let start = Date()
    while true {
        if let status = Spawn.poll(pid) { return result(status) }
        if Date().timeIntervalSince(start) > deadline {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid)
            return result(137, note: "\n(killed after \(deadline) s)")
        }
        usleep(50_000)
    }
}

/// Starting and reaping processes by pid, for tests that run a process beside another.
public enum Spawn {
    /// Starts a process in `directory` with exactly `environment`; its pid, or nil when it could
    /// not start. Standard input, output and error are the files named (created or truncated).
    public static func start(_ executable: String, _ arguments: [String], in directory: String,
                             environment: [String: String], stdin: String = "/dev/null",
                             stdout: String = "/dev/null", stderr: String = "/dev/null",
                             inheriting descriptors: [Int32] = []) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // A copy of each named descriptor, open in the child past its exec (a dup2 is not close-on-exec).
        for (n, fd) in descriptors.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd, 90 + Int32(n)) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Children start with default signal handling, whatever the test runner ignores.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        // The shell changes into the folder, then becomes the program.
        let shell = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
        let argv = shell.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp) == 0 else { return nil }
        return pid
    }

    /// Waits for a process and returns its exit status (128 + signal when killed).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return exitStatus(status)
    }

    /// The exit status of a process that has ended, nil while it runs (does not block).
    public static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) != 0 else { return nil }
        return exitStatus(status)
    }

    static func exitStatus(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
