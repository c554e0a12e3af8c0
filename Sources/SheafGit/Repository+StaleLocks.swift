// Lock files a killed git process leaves in `.git` (`index.lock`, `HEAD.lock`, a branch's
// `.lock`) make every later git write fail until someone deletes them by hand. A lock file that
// no running process holds open is stale: Sheaf removes it, while it holds `.sheaf/lock`. A
// lock some process (a plain `git commit`, say) has open is left alone.
import Foundation

extension Repository {
    /// Removes the lock files in `.git` that no process has open. Returns their paths.
    @discardableResult
    public func removeStaleLocks() -> [String] {
        let git = URL(fileURLWithPath: gitDirectory).resolvingSymlinksInPath().path
        var candidates = ["index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"].map { git + "/" + $0 }
        for folder in ["refs/heads", "refs/remotes"] {
            guard let walk = FileManager.default.enumerator(atPath: git + "/" + folder) else { continue }
            while let name = walk.nextObject() as? String {
                if name.hasSuffix(".lock") { candidates.append(git + "/" + folder + "/" + name) }
            }
        }
        let present = candidates.filter { FileManager.default.fileExists(atPath: $0) }
        guard !present.isEmpty else { return [] }
        let open = Self.filesOpenByAnyProcess()
        var removed: [String] = []
        for lock in present where !open.contains(lock) {
            if unlink(lock) == 0 { removed.append(lock) }
        }
        return removed
    }

    /// Every path some process has open, from `/proc/<pid>/fd` (Linux). Processes whose
    /// descriptors cannot be read (other users') are skipped; a lock held by one of them would
    /// be missed, which is why this runs only on lock files, under `.sheaf/lock`.
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
}
