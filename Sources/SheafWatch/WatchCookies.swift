// The freshness protocol between a read command and the watcher (watchman's cookies). The
// reader creates a file in `.sheaf/cookies/`; the watcher sees its creation in the same inotify
// queue as every vault event, so once it has read the cookie's event it has read every event the
// kernel queued before it, i.e. every change made before the reader asked. The watcher delivers
// those events in a batch that names the cookie; its consumer applies the batch and only then
// acknowledges: it deletes the cookie (the index is fresh through it) or renames it to
// `<name>.stale` (the watcher cannot vouch: a watch is missing, a rescan failed). The reader
// waits for that with an inotify watch of its own, briefly; no answer (the watcher is dead,
// stopped, stuck or busy) means: walk as without a watcher.
//
// Why in `.sheaf/`: files there are never indexed (the walk skips dot-folders) and never staged
// (`.sheaf` paths are refused by staging), so a cookie can never reach the index or a commit, even
// when a commit runs while one exists. Only `.sheaf/cookies/` is watched, not `.sheaf/`, so the
// index's own writes (`index.sqlite`, its WAL) make no events.
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

/// The reader's and the consumer's sides of the cookie protocol.
public enum WatchCookies {
    /// `.sheaf/cookies`: the folder the watcher watches for cookies.
    public static func folder(_ vault: Vault) -> String { vault.stateDirectory + "/cookies" }

    static let staleSuffix = ".stale"

    /// What the watcher answered a reader.
    public enum Answer: Sendable, Equatable {
        /// Every change made before the cookie has been applied by the watcher's consumer.
        case fresh
        /// The watcher saw the cookie but cannot vouch for the index: walk.
        case stale
        /// No answer within the time allowed, or no watcher: walk.
        case noAnswer
    }

    /// Whether a name in the cookie folder is a reader's cookie.
    static func isCookie(_ name: String) -> Bool {
        !name.hasBytePrefix(".") && !name.hasSuffix(staleSuffix)
    }

    /// Creates a cookie in `vault` and waits up to `timeout` seconds for the watcher's consumer
    /// to acknowledge it. Cheap when nobody watches (the folder is missing, or no answer comes).
    public static func ask(vault: Vault, timeout: Double) -> Answer {
        guard let question = Question(vault: vault) else { return .noAnswer }
        return question.wait(timeout) ?? question.withdraw()
    }

    /// A reader's cookie, asked and not yet answered: `wait` for the answer as often as the
    /// reader likes (it may wait longer while the watcher is busy applying a batch), then
    /// `withdraw` it when it gives up.
    public final class Question {
        private let fd: Int32
        private let name: String
        private let path: String
        private var buffer = [UInt8](repeating: 0, count: 4096)

        /// Puts the cookie in `.sheaf/cookies/`, the reader's own watch first (no answer can be
        /// missed). Nil when there is no cookie folder or the cookie cannot be made.
        public init?(vault: Vault) {
            let folder = WatchCookies.folder(vault)
            fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return nil }
            name = "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            path = folder + "/" + name
            let mask = UInt32(bitPattern: IN_DELETE) | UInt32(bitPattern: IN_MOVED_FROM) | UInt32(bitPattern: IN_ONLYDIR)
            guard inotify_add_watch(fd, folder, mask) >= 0 else { close(fd); return nil }
            let file = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard file >= 0 else { close(fd); return nil }
            close(file)
        }

        deinit { close(fd) }

        /// The watcher's answer, waiting up to `timeout` seconds for it; nil when none came yet.
        public func wait(_ timeout: Double) -> Answer? {
            let deadline = WatchClock.now() + timeout
            while true {
                let left = deadline - WatchClock.now()
                guard left > 0 else { return nil }
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 1, Int32(max(1, (left * 1000).rounded(.up))))
                if ready < 0 && errno != EINTR { return nil }
                guard ready > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { continue }
                var offset = 0
                while offset + 16 <= count {
                    let (mask, length) = buffer.withUnsafeBytes {
                        ($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                         Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                    }
                    let bytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    offset += 16 + length
                    guard bytes.elementsEqual(name.utf8) else { continue }
                    if mask & UInt32(bitPattern: IN_DELETE) != 0 { return .fresh }
                    if mask & UInt32(bitPattern: IN_MOVED_FROM) != 0 {
                        unlink(path + staleSuffix)
                        return .stale
                    }
                }
            }
        }

        /// Takes the question back (nobody answered); `.noAnswer`.
        @discardableResult
        public func withdraw() -> Answer {
            unlink(path)
            unlink(path + staleSuffix)  // (or a "stale" came just too late: take that away too)
            return .noAnswer
        }
    }

    /// The consumer's answer to the cookies of a batch it has applied: `fresh` when the index
    /// now holds every change the batch named (and the watcher misses no folder), else stale.
    public static func acknowledge(_ cookies: [String], vault: Vault, fresh: Bool) {
        let folder = folder(vault)
        for name in cookies {
            let path = folder + "/" + name
            if fresh { unlink(path) } else { rename(path, path + staleSuffix) }
        }
    }

    /// Makes the cookie folder and answers what it holds "stale": a cookie made before this
    /// watcher's watch existed names events it may never have seen (deleting it would say
    /// "fresh"). Stale answers nobody took away are deleted.
    /// Called once the watcher's own watch of the folder is in place.
    static func answerEarlierStale(_ vault: Vault) {
        let folder = folder(vault)
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            guard name != "." && name != ".." else { continue }
            if isCookie(name) { rename(folder + "/" + name, folder + "/" + name + staleSuffix) } else { unlink(folder + "/" + name) }
        }
    }
}

extension WatchCookies {
    /// Makes the cookie folder.
    static func makeFolder(_ vault: Vault) throws(SheafError) {
        let folder = folder(vault)
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw SheafError("cannot make the cookie folder", path: folder, cause: String(cString: strerror(errno)))
        }
    }
}

/// Monotonic seconds.
enum WatchClock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
