// How another thread (a SIGINT/SIGTERM handler, a test) ends a watcher's wait: a pipe whose
// read end the watcher polls beside its inotify descriptor. Writing one byte is async-signal-safe.
#if canImport(Glibc)
import Glibc
#endif

/// The pipe end a signal handler writes to (see `WatchStop.stopOnSignals`).
nonisolated(unsafe) private var signalStopDescriptor: Int32 = -1

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

    /// Makes `signals` (SIGINT, SIGTERM) call `stop()` instead of ending the process, so the
    /// batch in progress is finished first. The handler only writes one byte to the pipe
    /// (async-signal-safe) and restarts interrupted system calls; programs this process starts
    /// get the default handling back (exec resets handlers). One `WatchStop` per process at a time.
    public func stopOnSignals(_ signals: [Int32]) {
        signalStopDescriptor = writeEnd
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(signalStopDescriptor, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool {
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 0) > 0
    }
}
