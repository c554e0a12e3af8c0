// How another thread (a SIGINT/SIGTERM handler, a test) ends a watcher's wait: a pipe whose
// read end the watcher polls beside its inotify descriptor. Writing one byte is async-signal-safe.
#if canImport(Glibc)
import Glibc
#endif

/// Ends `VaultWatcher.nextBatch`'s wait from any thread: after `stop()`, it returns nil.
public final class WatchStop: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Asks the watcher to stop; safe to call more than once and from a signal handler's thread.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool {
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 0) > 0
    }
}
