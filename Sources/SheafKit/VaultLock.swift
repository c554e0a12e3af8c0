// `.sheaf/lock`: one writer at a time (index runs, later sync). An advisory flock, released by
// the kernel when the process ends, so a killed command never leaves a stale lock behind.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class VaultLock {
    private let fd: Int32

    /// Takes the lock, or returns nil at once when another process holds it.
    init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { close(fd); return nil }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
