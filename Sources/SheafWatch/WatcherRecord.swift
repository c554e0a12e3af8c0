// Who watches a vault: `.sheaf/watcher` names the process (pid, its start time in clock ticks
// since boot, the boot's id) and when it started. A pid alone lies after a kill -9 (the pid is
// reused by another process, or after a reboot); the start time and the boot id do not. A
// stopped process (SIGSTOP, ^Z) is alive but answers nothing: `state` tells that apart too.
// `WatcherClaim` holds `.sheaf/watcher.lock` (flock) for the watcher's lifetime, so a second
// watcher is refused; the kernel releases it when the process dies, however it dies.
#if canImport(Glibc)
import Glibc
#endif
import SheafCore
import SheafFiles

/// The process that watches a vault.
public struct WatcherRecord: Sendable, Equatable {
    public let pid: Int32
    /// The process's start time, in clock ticks after boot (`/proc/<pid>/stat`, field 22).
    public let startTicks: UInt64
    /// `/proc/sys/kernel/random/boot_id` when the record was made.
    public let bootID: String
    /// When the watcher started (seconds since 1970).
    public let since: Int64

    public init(pid: Int32, startTicks: UInt64, bootID: String, since: Int64) {
        self.pid = pid
        self.startTicks = startTicks
        self.bootID = bootID
        self.since = since
    }

    /// The record of process `pid` as it runs now; nil when there is no such process.
    public static func of(pid: Int32) -> WatcherRecord? {
        guard let (_, ticks) = ProcessStat.read(pid) else { return nil }
        return WatcherRecord(pid: pid, startTicks: ticks, bootID: ProcessStat.bootID(), since: Int64(time(nil)))
    }

    /// The record of this process.
    public static func current() -> WatcherRecord? { of(pid: getpid()) }

    /// What the recorded process is doing now.
    public enum State: Sendable, Equatable {
        case running
        /// Alive but stopped (SIGSTOP, a debugger) or a zombie: it answers nothing.
        case stopped
        /// Gone: no such process, or the pid now belongs to another one (or another boot).
        case gone
    }

    public var state: State {
        guard bootID == ProcessStat.bootID(), let (status, ticks) = ProcessStat.read(pid), ticks == startTicks else { return .gone }
        return "TtZX".contains(status) ? .stopped : .running
    }

    /// `.sheaf/watcher`.
    public static func path(_ vault: Vault) -> String { vault.stateDirectory + "/watcher" }

    /// The record as its file holds it.
    public var text: String { "pid \(pid)\nstart-ticks \(startTicks)\nboot \(bootID)\nsince \(since)\n" }

    /// Reads a record's text; nil when it is not one.
    public init?(text: String) {
        var fields: [Substring: Substring] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let pid = fields["pid"].flatMap({ Int32($0) }), let ticks = fields["start-ticks"].flatMap({ UInt64($0) }),
              let boot = fields["boot"], let since = fields["since"].flatMap({ Int64($0) }) else { return nil }
        self.init(pid: pid, startTicks: ticks, bootID: String(boot), since: since)
    }

    /// The vault's record, if any (it may name a process that is gone: ask `state`).
    public static func read(_ vault: Vault) -> WatcherRecord? {
        guard let file = fopen(path(vault), "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return PathBytes.string(bytes).flatMap { WatcherRecord(text: $0) }
    }

    /// Writes the record as the vault's (atomically).
    public func write(_ vault: Vault) throws(SheafError) {
        try AtomicFile.write(text, to: Self.path(vault))
    }
}

/// The lock a watcher holds while it runs: one watcher per vault.
public final class WatcherClaim {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit {
        // The lock belongs to the open file, which a child process shares from its clone to its
        // exec (or for its life, had it kept a copy): unlocking frees it whoever holds a copy;
        // a close alone frees it only with the last copy.
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// `.sheaf/watcher.lock`.
    public static func lockPath(_ vault: Vault) -> String { vault.stateDirectory + "/watcher.lock" }

    /// Takes the vault's watcher lock and writes this process's record; throws naming the
    /// running watcher's pid when another process holds it.
    public static func claim(_ vault: Vault) throws(SheafError) -> WatcherClaim {
        let fd = open(lockPath(vault), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SheafError("cannot open the watcher lock", path: lockPath(vault), cause: String(cString: strerror(errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            let holder = WatcherRecord.read(vault).map { "process \($0.pid) already watches this vault" } ?? "another process already watches this vault"
            throw SheafError("a watcher already runs", path: vault.root, cause: holder,
                             hint: "stop it first, or let it keep the vault fresh")
        }
        let claim = WatcherClaim(fd: fd)
        guard let record = WatcherRecord.current() else {
            throw SheafError("cannot read this process's start time", path: "/proc/self/stat")
        }
        try record.write(vault)
        return claim
    }

    /// Whether some process holds the vault's watcher lock now (it is alive, maybe stopped).
    public static func isHeld(_ vault: Vault) -> Bool {
        let fd = open(lockPath(vault), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
        return errno == EWOULDBLOCK
    }
}

enum ProcessStat {
    /// The state letter and start time (ticks after boot) of process `pid`.
    static func read(_ pid: Int32) -> (Character, UInt64)? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, 1024, file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name is in parentheses and may hold spaces or parentheses: fields follow the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); the start time is field 22.
        guard fields.count > 19, let state = fields[0].first, let ticks = UInt64(fields[19]) else { return nil }
        return (state, ticks)
    }

    static func bootID() -> String {
        guard let file = fopen("/proc/sys/kernel/random/boot_id", "r") else { return "unknown" }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, 64, file) != nil else { return "unknown" }
        return String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
