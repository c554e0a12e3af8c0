// A remote that accepts the connection and then says nothing would hang a fetch or push for
// ever: libgit2 1.5 reads its sockets with no timeout (GIT_OPT_SET_SERVER_TIMEOUT came in 1.7),
// and over ssh or git:// no callback runs while it waits. So a thread watches the transfer from
// outside: progress is any callback libgit2 makes, or data or an acknowledgement arriving on one
// of the TCP sockets opened since the transfer began (the kernel's TCP_INFO says how long ago).
// When nothing moved for the limit, it shuts those sockets down; libgit2's blocked read then
// fails at once whatever the transport (http, https, ssh, git://), and the caller reports a
// timeout. The sheaf process makes one transfer at a time, so the new TCP sockets are its own.
import CGit2
import Foundation

final class TransferWatchdog: @unchecked Sendable {
    /// Seconds without progress before the transfer is cut.
    let limit: Double
    private let condition = NSCondition()
    private var lastActivity: UInt64
    private var callbacksRunning = 0
    private var stopped = false
    private var finished = false
    private var _fired = false
    /// TCP sockets open before the transfer began (not ours to judge or cut).
    private let before: Set<Int32>
    /// When each socket of the transfer (by inode: a descriptor number can be reused) was first
    /// seen; a socket still connecting has no data times yet.
    private var firstSeen: [UInt64: UInt64] = [:]

    init(limit: Double) {
        self.limit = limit
        lastActivity = Self.now()
        before = Set(Self.tcpSockets().map(\.fd))
    }

    /// Whether the watchdog cut the transfer.
    var fired: Bool {
        condition.lock()
        defer { condition.unlock() }
        return _fired
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "sheaf transfer watchdog"
        thread.start()
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Called on entry to a libgit2 callback: the transfer moves, and a callback that takes
    /// long (a credential helper) is never cut.
    func enterCallback() {
        condition.lock()
        callbacksRunning += 1
        lastActivity = Self.now()
        condition.unlock()
    }

    func leaveCallback() {
        condition.lock()
        callbacksRunning -= 1
        lastActivity = Self.now()
        condition.unlock()
    }

    private func run() {
        let tick = min(0.25, max(0.02, limit / 8))
        condition.lock()
        defer {
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        while !stopped {
            _ = condition.wait(until: Date(timeIntervalSinceNow: tick))
            if stopped { break }
            let now = Self.now()
            let sockets = Self.tcpSockets().filter { !before.contains($0.fd) }
            var latest = lastActivity
            for socket in sockets {
                let seen = firstSeen[socket.inode] ?? now
                firstSeen[socket.inode] = seen
                let idle = UInt64(min(socket.dataIdleMilliseconds, socket.ackIdleMilliseconds)) * 1_000_000
                latest = max(latest, seen, now > idle ? now - idle : 0)
            }
            let quiet = callbacksRunning == 0 && Double(now - min(latest, now)) / 1e9 >= limit
            if quiet || _fired {
                _fired = true
                // Every socket the transfer opened, including any it opens after the cut.
                for socket in sockets { shutdown(socket.fd, Int32(SHUT_RDWR)) }
            }
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The process's open TCP sockets, with how long ago each last received data and an ack.
    private static func tcpSockets() -> [(fd: Int32, inode: UInt64, dataIdleMilliseconds: UInt32, ackIdleMilliseconds: UInt32)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        return names.compactMap { name in
            guard let fd = Int32(name) else { return nil }
            var data: UInt32 = 0, ack: UInt32 = 0
            guard sheaf_tcp_idle(fd, &data, &ack) == 0 else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            return (fd, UInt64(info.st_ino), data, ack)
        }
    }
}
