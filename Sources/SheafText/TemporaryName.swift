// The hidden names Sheaf writes a file under before renaming it over the file it replaces, and
// how a later command tells that the process that made one is gone (a killed `attach` left its
// copies for good: 36 MB after 30 kills). A name carries its maker's pid and the start time of
// that process (clock ticks after boot, /proc/<pid>/stat), so a pid used again by another process
// is told apart. A file is an orphan when no process has its pid, when the process that has it
// started at another time, when it was last changed before this boot, or (names from before the
// start time was in them) when the process that has the pid started after the file last changed.
// `scratch` names only ever hold Sheaf's new bytes, never a version a write displaced: an
// orphan among them can be deleted; the others are kept somewhere a person can look.
#if canImport(Glibc)
import Glibc
#endif

public enum TemporaryName {
    public static let prefix = ".sheaf-tmp-"
    static let scratchMarker = "new-"

    /// A fresh temporary file name: the prefix, this process's id and start time, a random
    /// number. `scratch`: the file will only ever hold new bytes of Sheaf's own.
    public static func fileName(scratch: Bool = false) -> String {
        prefix + (scratch ? scratchMarker : "") + "\(getpid())-\(ProcessStart.ownTicks)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// A temporary path in the folder of `path`, with no part of its name (a 255-byte name leaves
    /// no room): "." for a bare name, so a relative `out.md` gets `./.sheaf-tmp-...` (folder
    /// arithmetic that gave "" there made it `/.sheaf-tmp-...`, in the file system's root).
    public static func beside(_ path: String, scratch: Bool = false) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "./" + fileName(scratch: scratch) }
        return String(path[..<slash]) + "/" + fileName(scratch: scratch)
    }

    /// What a temporary name says about the file: who made it, and whether it can only hold
    /// Sheaf's own new bytes. Nil for a name that is not one.
    public struct Maker: Equatable, Sendable {
        public let pid: Int32
        /// Nil in names made before the start time was part of them.
        public let startTicks: UInt64?
        public let scratch: Bool

        public init(pid: Int32, startTicks: UInt64?, scratch: Bool) {
            self.pid = pid
            self.startTicks = startTicks
            self.scratch = scratch
        }
    }

    public static func maker(of name: String) -> Maker? {
        guard name.hasPrefix(prefix) else { return nil }
        var rest = Substring(name.dropFirst(prefix.count))
        let scratch = rest.hasPrefix(scratchMarker)
        if scratch { rest = rest.dropFirst(scratchMarker.count) }
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let pid = Int32(parts[0]), pid > 0 else { return nil }
        return Maker(pid: pid, startTicks: parts.count == 3 ? UInt64(parts[1]) : nil, scratch: scratch)
    }

    /// Whether the temporary file at `path`, named by `maker`, was left by a process that is gone.
    public static func isOrphan(_ path: String, maker: Maker) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }  // gone already
        let changed = info.st_mtim.tv_sec
        if ProcessStart.bootTime > 0, changed < ProcessStart.bootTime { return true }
        guard let running = ProcessStart.ticks(of: maker.pid) else { return true }
        if let ticks = maker.startTicks { return ticks != running }
        guard let started = ProcessStart.wallTime(ticks: running) else { return false }
        return started > changed + 1  // a later process took the pid (a second for rounding)
    }
}

/// When processes started, from /proc: the basis of telling a live temporary file's maker from
/// a pid used again.
enum ProcessStart {
    /// This process's start time in clock ticks after boot.
    static let ownTicks: UInt64 = ticks(of: getpid()) ?? 0

    /// Field 22 of /proc/<pid>/stat, nil when no such process runs.
    static func ticks(of pid: Int32) -> UInt64? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // After the command name in parentheses: field 3 onwards; the start time is field 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// The boot's wall time in seconds (`btime` in /proc/stat).
    static let bootTime: Int = { () -> Int? in
        guard let text = read("/proc/stat"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }) else { return nil }
        return Int(line.dropFirst(6))
    }() ?? 0

    /// The wall time in seconds of a start `ticks` after boot.
    static func wallTime(ticks: UInt64) -> Int? {
        let perSecond = sysconf(Int32(_SC_CLK_TCK))
        guard bootTime > 0, perSecond > 0 else { return nil }
        return bootTime + Int(ticks) / perSecond
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 4096) }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
