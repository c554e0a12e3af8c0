// Runs the built `sheaf` binary as a user would, on a temporary copy of samples/.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// A temporary folder removed when the test ends.
final class TempDir {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sheaf-test-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

enum CLI {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `sheaf` binary built beside the test bundle.
    static let binary: String = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sheaf").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/sheaf").path
    }()

    /// Runs `sheaf` with `arguments` in `directory`, with a clean environment.
    @discardableResult
    static func run(_ arguments: [String], in directory: String, stdin: String? = nil,
                    environment extra: [String: String] = [:]) -> RunResult {
        runProcess(binary, arguments, in: directory, stdin: stdin, environment: extra)
    }

    @discardableResult
    static func runProcess(_ executable: String, _ arguments: [String], in directory: String, stdin: String? = nil,
                           environment extra: [String: String] = [:]) -> RunResult {
        var env = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": directory, "LANG": "C.UTF-8",
                   "GIT_CONFIG_NOSYSTEM": "1", "TZ": "UTC"]
        for (k, v) in extra { env[k] = v }
        // Input and output go through files, so a large output can never block the child.
        let base = NSTemporaryDirectory() + "sheaf-io-\(UUID().uuidString)"
        let (inPath, outPath, errPath) = (base + ".in", base + ".out", base + ".err")
        _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))
        defer { for p in [inPath, outPath, errPath] { try? FileManager.default.removeItem(atPath: p) } }
        let status = Spawn.run(executable, arguments, in: directory, environment: env,
                               stdin: inPath, stdout: outPath, stderr: errPath)
        let outData = FileManager.default.contents(atPath: outPath) ?? Data()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return RunResult(status: status,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a shell command line.
    @discardableResult
    static func sh(_ script: String, in directory: String) -> RunResult {
        runProcess("/bin/sh", ["-c", script], in: directory, environment: ["SHEAF": binary])
    }

    /// A fresh copy of samples/ (not yet a vault) in a temporary folder.
    static func samplesCopy(_ temp: TempDir) -> String {
        let vault = temp.path + "/vault"
        try! FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("samples").path, toPath: vault)
        return vault
    }

    /// A copy of samples/ made a vault with `sheaf init`.
    static func sampleVault(_ temp: TempDir) -> String {
        let vault = samplesCopy(temp)
        let r = run(["init"], in: vault)
        precondition(r.status == 0, r.stderr)
        return vault
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    static func write(_ text: String, to path: String) {
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Every file below `root` (skipping .git and .sheaf) with its bytes.
    static func snapshot(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)!
        while let rel = enumerator.nextObject() as? String {
            if rel.hasPrefix(".git") || rel.hasPrefix(".sheaf") { continue }
            var isDir: ObjCBool = false
            let full = root + "/" + rel
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
                result[rel] = FileManager.default.contents(atPath: full)
            }
        }
        return result
    }
}

/// posix_spawn and waitpid, without Foundation's Process: its child monitor missed exits while
/// test servers were running, and a test waited forever on a zombie.
enum Spawn {
    /// Starts a process; returns its pid, or nil when it could not start.
    static func start(_ executable: String, _ arguments: [String], in directory: String,
                      environment: [String: String], stdin: String = "/dev/null",
                      stdout: String = "/dev/null", stderr: String = "/dev/null") -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    static func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String],
                    stdin: String, stdout: String, stderr: String) -> Int32 {
        guard let pid = start(executable, arguments, in: directory, environment: environment,
                              stdin: stdin, stdout: stdout, stderr: stderr) else { return 127 }
        return wait(pid)
    }
}
