// Lock files in `.git` (`index.lock`, `HEAD.lock`, a branch's `.lock`) that a killed git process
// leaves behind make every later git write fail until someone deletes them. But a lock file is
// also how a *live* git says "I am writing": `git commit` keeps `index.lock` while its editor
// runs, without holding the file open. So "no process has it open" is not "stale", and Sheaf
// deletes a lock only when it can tell that whoever made it is dead:
//
// - Sheaf's own: every Sheaf writer records its session (pid, process start, boot, the lock files
//   already there) in a file under `.sheaf/` and deletes the record when it ends. A record still
//   there at the next session's start means that writer was killed; a lock file that appeared
//   after the record was written, was not there when it started, and no process has open, is
//   one that writer left.
// - Locks older than the machine's last boot: no running process can have made them.
//
// Either way, a lock is kept while a git process runs in the repository (a `git commit` started
// while the killed Sheaf ran may own it); the session's start waits up to 10 s for such git
// processes to end first (a killed Sheaf's own `git fetch` outlives it by a moment). After a
// killed session it waits for them before it looks at all: that fetch may not have taken its
// lock yet. This process's own children (a share's fetch begun before the writer lock) never count. Every lock
// kept is reported to the caller, which refuses to write and tells the user what to do.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A lock file in `.git` that Sheaf did not remove.
public struct HeldGitLock: Sendable, Equatable {
    public let path: String
    /// Seconds since the lock file was last written.
    public let age: Double
}

/// What the start of a writer session found in `.git`.
public struct GitLockCheck: Sendable {
    /// Lock files left by a killed Sheaf (or from before the last boot), now removed.
    public var removed: [String] = []
    /// Lock files some other process may own: left alone.
    public var held: [HeldGitLock] = []
}

extension Repository {
    /// Starts a writer session whose record is `record` (a file Sheaf owns): removes the lock
    /// files a killed earlier session or a previous boot left behind, reports the others, and
    /// records this session. Call only while holding Sheaf's writer lock; end with
    /// `endLockSession`. A record that cannot be written (a read-only folder) is skipped: the
    /// locks such a session may leave are then only reported, never removed.
    public func beginLockSession(record: String) -> GitLockCheck {
        let previous = LockSessionRecord.read(record)
        let roots = [workTreeRoot, resolvedGitDirectory].compactMap { $0 }
        if previous?.isDead == true {
            // A killed Sheaf's git children outlive it (the `git fetch` of a local remote, a
            // share's fetch begun before the writer lock) and may take a lock here (the tracking
            // ref's) after this session looked: this session's own write of it then failed. So
            // after a killed session, its git processes are given up to `gitExitWait` to end first.
            Self.waitForGit(in: roots)
        }
        let present = lockFiles()
        var check = GitLockCheck()
        if !present.isEmpty {
            var open = Self.filesOpenByAnyProcess()
            var gitRunning = Self.gitProcessRunning(in: roots)
            let boot = Self.bootTime()
            var locks: [(path: String, modified: Double, dead: Bool)] = []
            for lock in present {
                var info = stat()
                guard lstat(lock, &info) == 0 else { continue }
                let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                let leftByKilledSheaf = previous.map { $0.isDead && $0.leftBehind(lock, info) } ?? false
                let beforeBoot = boot.map { modified < $0 } ?? false
                locks.append((lock, modified, leftByKilledSheaf || beforeBoot))
            }
            // A killed Sheaf's own children outlive it for a moment (the `git fetch` of a local
            // remote, which ran while it committed): a lock only a git process keeps is given
            // up to `gitExitWait` for git to end, instead of refusing the retry that follows a kill.
            if gitRunning && locks.contains(where: { $0.dead && !open.contains($0.path) }) {
                gitRunning = !Self.waitForGit(in: roots)
                open = Self.filesOpenByAnyProcess()
            }
            for lock in locks {
                if lock.dead && !open.contains(lock.path) && !gitRunning && unlink(lock.path) == 0 {
                    check.removed.append(lock.path)
                } else {
                    check.held.append(HeldGitLock(path: lock.path, age: Date().timeIntervalSince1970 - lock.modified))
                }
            }
        }
        // A remote that is a folder here is written in place by a push (libgit2's local
        // transport locks its branch ref): a Sheaf killed while pushing leaves that lock, and every
        // later push is refused. Such a lock is removed on the same evidence; one that may be
        // another device's push under way is left for the push to report.
        let remoteLocks = remoteLockFiles()
        if !remoteLocks.isEmpty, let previous, previous.isDead {
            let open = Self.filesOpenByAnyProcess()
            for lock in remoteLocks {
                var info = stat()
                guard lstat(lock, &info) == 0, previous.leftBehind(lock, info), !open.contains(lock) else { continue }
                if unlink(lock) == 0 { check.removed.append(lock) }
            }
        }
        let remoteLeft = remoteLocks.filter { FileManager.default.fileExists(atPath: $0) }
        LockSessionRecord.current(existingLocks: lockFiles() + remoteLeft).write(to: record)
        return check
    }

    /// The branch-ref lock files (and `packed-refs.lock`) of this repository's remotes that are
    /// folders on this machine.
    public func remoteLockFiles() -> [String] {
        guard let remotes = try? remotes() else { return [] }
        var found: [String] = []
        for remote in remotes {
            guard let folder = Self.localGitDirectory(remote.url, from: workTreeRoot ?? resolvedGitDirectory) else { continue }
            found += Self.refLocks(in: folder)
        }
        return found
    }

    /// The git directory a remote URL names on this machine (a bare repository, or a work tree's
    /// `.git`), nil for a network URL or a folder that is not a repository.
    public static func localGitDirectory(_ url: String, from base: String) -> String? {
        guard let path = RemoteURL.localPath(url), !path.isEmpty else { return nil }
        let absolute = path.hasPrefix("/") ? path : base + "/" + path
        return [absolute, absolute + "/.git"].first { FileManager.default.fileExists(atPath: $0 + "/HEAD") && FileManager.default.fileExists(atPath: $0 + "/refs") }
    }

    /// `packed-refs.lock` and the `.lock` files under `refs/heads` of a git directory.
    public static func refLocks(in gitDirectory: String) -> [String] {
        var candidates = [gitDirectory + "/packed-refs.lock"]
        if let walk = FileManager.default.enumerator(atPath: gitDirectory + "/refs/heads") {
            while let name = walk.nextObject() as? String {
                if name.hasSuffix(".lock") { candidates.append(gitDirectory + "/refs/heads/" + name) }
            }
        }
        return candidates.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// How long a session's start waits for git processes in the repository to end when only
    /// they keep it from removing a lock a killed Sheaf left.
    static let gitExitWait: TimeInterval = 10

    /// Ends the session `beginLockSession` recorded: its lock files are no longer Sheaf's to remove.
    public func endLockSession(record: String) {
        unlink(record)
    }

    private var resolvedGitDirectory: String {
        URL(fileURLWithPath: gitDirectory).resolvingSymlinksInPath().path
    }

    private var workTreeRoot: String? {
        guard let root = workTree else { return nil }
        return URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    }

    /// The lock files git and libgit2 make in `.git` that exist now.
    func lockFiles() -> [String] {
        let git = resolvedGitDirectory
        var candidates = ["index.lock", "HEAD.lock", "ORIG_HEAD.lock", "FETCH_HEAD.lock", "config.lock",
                          "packed-refs.lock"].map { git + "/" + $0 }
        for folder in ["refs/heads", "refs/remotes", "refs/tags"] {
            guard let walk = FileManager.default.enumerator(atPath: git + "/" + folder) else { continue }
            while let name = walk.nextObject() as? String {
                if name.hasSuffix(".lock") { candidates.append(git + "/" + folder + "/" + name) }
            }
        }
        return candidates.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Every path some process has open, from `/proc/<pid>/fd` (Linux). Processes whose
    /// descriptors cannot be read (other users') are skipped.
    static func filesOpenByAnyProcess() -> Set<String> {
        var open = Set<String>()
        let fm = FileManager.default
        for pid in (try? fm.contentsOfDirectory(atPath: "/proc")) ?? [] where pid.allSatisfy(\.isNumber) {
            let fds = "/proc/\(pid)/fd"
            for fd in (try? fm.contentsOfDirectory(atPath: fds)) ?? [] {
                if let target = try? fm.destinationOfSymbolicLink(atPath: fds + "/" + fd) { open.insert(target) }
            }
        }
        return open
    }

    /// Whether a git process (the `git` program or one of its `git-*` helpers) runs with its
    /// working directory inside one of `roots`.
    static func gitProcessRunning(in roots: [String]) -> Bool {
        let fm = FileManager.default
        let me = getpid()
        for name in (try? fm.contentsOfDirectory(atPath: "/proc")) ?? [] where name.allSatisfy(\.isNumber) {
            guard let pid = Int32(name), pid != me else { continue }
            guard let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { continue }
            let program = (exe.hasSuffix(" (deleted)") ? String(exe.dropLast(10)) : exe).split(separator: "/").last ?? ""
            guard program == "git" || program.hasPrefix("git-") else { continue }
            guard let cwd = try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd") else { continue }
            // This process's own children (a share's fetch under way) are not another's git.
            if roots.contains(where: { cwd == $0 || cwd.hasPrefix($0 + "/") }) && !isDescendant(pid, of: me) { return true }
        }
        return false
    }

    /// Waits up to `gitExitWait` for the git processes working in `roots` to end; whether they did.
    @discardableResult
    static func waitForGit(in roots: [String]) -> Bool {
        let deadline = Date().addingTimeInterval(gitExitWait)
        while gitProcessRunning(in: roots) {
            if Date() >= deadline { return false }
            usleep(50_000)
        }
        return true
    }

    /// Whether `ancestor` is among the parents of `pid` (field 4 of /proc/<pid>/stat, upwards).
    static func isDescendant(_ pid: Int32, of ancestor: Int32) -> Bool {
        var current = pid
        for _ in 0..<64 {
            // The parent is field 4.
            guard let fields = LockSessionRecord.statFields(current), fields.count > 1,
                  let parent = Int32(fields[1]), parent > 1 else { return false }
            if parent == ancestor { return true }
            current = parent
        }
        return false
    }

    /// When the machine booted, in seconds since 1970 (`btime` of /proc/stat).
    static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

/// The record of one Sheaf writer session: who ran it and which lock files were there before it.
struct LockSessionRecord {
    var pid: Int32
    /// The process's start time in clock ticks after boot (field 22 of /proc/<pid>/stat): a pid
    /// used again by another process has another start time.
    var processStart: String
    var bootID: String
    /// "inode path" of each lock file present when the session started: not the session's own.
    var existingLocks: Set<String>
    /// When the record was written, by the file system's clock (the same clock as lock files').
    var written: timespec = timespec()

    static func current(existingLocks: [String]) -> LockSessionRecord {
        let pid = getpid()
        return LockSessionRecord(pid: pid, processStart: processStart(pid) ?? "", bootID: bootID(),
                                 existingLocks: Set(existingLocks.compactMap(identity)))
    }

    /// The record at `path`, nil when there is none or it cannot be read whole.
    static func read(_ path: String) -> LockSessionRecord? {
        var info = stat()
        guard lstat(path, &info) == 0, let text = try? String(contentsOfFile: path, encoding: .utf8),
              text.hasSuffix("end\n") else { return nil }
        var record = LockSessionRecord(pid: 0, processStart: "", bootID: "", existingLocks: [], written: info.st_mtim)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "pid": record.pid = Int32(parts[1]) ?? 0
            case "start": record.processStart = parts[1]
            case "boot": record.bootID = parts[1]
            case "lock": record.existingLocks.insert(parts[1])
            default: break
            }
        }
        return record.pid > 0 ? record : nil
    }

    /// Writes the record through a temporary file, so a reader never sees half of it. Never
    /// synced: the record speaks of this boot's processes only, and a crash of the machine ends
    /// them all (a lock file older than the boot is stale whatever the record says), so what a
    /// crash takes of it loses nothing. Foundation's atomic write synced it: a journal commit
    /// (2-3 ms on this machine's disk, more on a laptop's) before every command that commits.
    func write(to path: String) {
        var text = "pid \(pid)\nstart \(processStart)\nboot \(bootID)\n"
        for lock in existingLocks.sorted() { text += "lock \(lock)\n" }
        text += "end\n"
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written != bytes.count || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Whether the process that wrote the record is gone.
    var isDead: Bool {
        if bootID != Self.bootID() { return true }
        guard let start = Self.processStart(pid) else { return true }
        return start != processStart
    }

    /// Whether `lock` (with `info` from lstat) appeared during the recorded session.
    func leftBehind(_ lock: String, _ info: stat) -> Bool {
        guard let identity = Self.identity(lock, info), !existingLocks.contains(identity) else { return false }
        let changed = info.st_ctim
        return changed.tv_sec > written.tv_sec || (changed.tv_sec == written.tv_sec && changed.tv_nsec >= written.tv_nsec)
    }

    static func identity(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return identity(path, info)
    }

    static func identity(_ path: String, _ info: stat) -> String? { "\(info.st_ino) \(path)" }

    static func bootID() -> String {
        ((try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Field 22 of /proc/<pid>/stat, nil when no such process runs.
    static func processStart(_ pid: Int32) -> String? {
        // The start time is field 22.
        guard let fields = statFields(pid), fields.count > 19 else { return nil }
        return String(fields[19])
    }

    /// The fields of /proc/<pid>/stat from field 3 (the state) on, nil when no such process runs.
    /// They follow the command name in parentheses, which may hold spaces or parentheses.
    static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
