// `.sheaf/lock`: one writer at a time (index scans, sync, commit, rm). An advisory flock,
// released by the kernel when the process ends, so a killed command never leaves a stale lock
// behind, and waiting for it can never outlive its holder. Writers wait for it; a read command
// that finds it taken answers from the index as it is instead.
import Foundation
import SheafCore
#if canImport(Glibc)
import Glibc
#endif

final class VaultLock {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock. When another process holds it: returns nil at once, or with `wait`
    /// calls `onWait` and blocks until that process lets go (or ends). Throws when the lock
    /// file can be neither created nor opened (a read-only `.sheaf` without one).
    static func take(_ path: String, wait: Bool, onWait: (() -> Void)? = nil) throws(SheafError) -> VaultLock? {
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 && [EROFS, EACCES, EPERM, ENOSPC, EDQUOT].contains(errno) {
            // flock needs no write access: an existing lock file in a read-only folder still works.
            fd = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else {
            let cause = String(cString: strerror(errno))
            throw SheafError("cannot take the vault's lock", path: path, cause: cause,
                             hint: "Sheaf keeps its state in .sheaf/: make that folder writable")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return VaultLock(fd: fd) }
        if errno == EWOULDBLOCK {
            guard wait else { close(fd); return nil }
            onWait?()
            var rc: Int32
            repeat { rc = flock(fd, LOCK_EX) } while rc != 0 && errno == EINTR
            if rc == 0 { return VaultLock(fd: fd) }
        }
        let cause = String(cString: strerror(errno))
        close(fd)
        throw SheafError("cannot take the vault's lock", path: path, cause: cause)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
