// Keeping `.git` compact, as git does after its own fetches, merges and commits. Every sync adds
// objects: libgit2's commits write loose objects, and a fetch of 100 objects or more keeps its pack
// as it came. Sheaf's fetch runs git with auto-gc off (it must not pack in the middle of a sync),
// and libgit2 never packs, so nothing ever gathered them: after ~100 pulls of 100 notes a 10k
// vault had 101 packs, each searched for every object a pull reads (a pull 15 % slower).
//
// After a command that added objects, `git gc --auto` runs under Sheaf's writer lock: git decides
// from its own thresholds and the user's settings (`gc.auto`, `gc.autoPackLimit`; `gc.auto=0` turns
// it off) whether anything is due, which costs a process start when nothing is. Git's own detaching
// is off: a gc running after Sheaf let go of the lock would hold `.git` lock files the next command
// cannot tell from a user's live git, and could delete an old unreachable object that a Sheaf
// commit is about to refer to again (git's docs on gc call that race a risk of corruption).
//
// Most of a due gc's time is spent packing loose objects (delta search and compression: 5.4 s of
// the 5.6 s a first commit of 10k notes made due). That part deletes nothing, so it runs first
// without the lock (`packLooseObjects`); the gc under the lock then finds them packed, and only
// removes the loose copies and does the short rest (0.18 s at 10k notes).
import CGit2
import Foundation

extension Repository {
    /// Runs `git gc --auto` in this repository; false when git is missing or the gc failed (the
    /// repository is then as it was: gc replaces packs only once the new ones are written). Git's
    /// own notice ("Auto packing the repository...") goes to standard error when it packs.
    @discardableResult
    public func collectGarbageIfDue() -> Bool {
        // At the fetch's threshold: blobs over it stay whole, never deltas, so they can still
        // be streamed (`writeBlob(_:toFile:)`); git's default (512 MB) would delta-compress them.
        runGit(["-c", "core.bigFileThreshold=\(Self.streamingThreshold)", "-c", "gc.autoDetach=false", "gc", "--auto"],
               showErrors: true)
    }

    /// `git repack -l -n`: writes the reachable loose objects into one new pack, as the gc's own
    /// repack would, and deletes nothing (no `-d`: the loose copies and every pack stay), so it
    /// may run beside Sheaf's writers, without the writer lock: a pack only adds copies of
    /// objects, and a writer reading or adding loose objects meanwhile finds each where it was.
    /// It takes no lock file (`-n`: no `info/` update), runs at a lower priority and from
    /// outside the vault (`runGit`'s `apart`). False when git is missing or the repack failed.
    @discardableResult
    public func packLooseObjects() -> Bool {
        runGit(["-c", "core.bigFileThreshold=\(Self.streamingThreshold)", "repack", "-l", "-n", "-q", "--no-write-bitmap-index"],
               niced: true, apart: true)
    }

    /// Whether `git gc --auto` would find work, by git's own rule: more loose objects than
    /// `gc.auto` (6,700 unless set; estimated, as git does, from the one folder `objects/17`) or
    /// more packs than `gc.autoPackLimit` (50), a limit of 0 turning either off. A few directory
    /// reads, so that the writer lock is taken for a gc only when one is due: a `sheaf housekeep`
    /// holding it after every command made the next command answer from the index as it was.
    public func collectionLooksDue() -> Bool {
        var auto: Int32 = 6700, packLimit: Int32 = 50
        var config: OpaquePointer?
        if git_repository_config_snapshot(&config, handle) == 0 {
            var value: Int32 = 0
            if git_config_get_int32(&value, config, "gc.auto") == 0 { auto = value }
            if git_config_get_int32(&value, config, "gc.autoPackLimit") == 0 { packLimit = value }
            git_config_free(config)
        }
        guard auto > 0 else { return false }
        let objects = (gitDirectory.hasSuffix("/") ? gitDirectory : gitDirectory + "/") + "objects"
        let fm = FileManager.default
        let loose = ((try? fm.contentsOfDirectory(atPath: objects + "/17")) ?? []).filter { $0.utf8.count == 38 }.count
        if loose > (Int(auto) + 255) / 256 { return true }
        guard packLimit > 0 else { return false }
        let names = Set((try? fm.contentsOfDirectory(atPath: objects + "/pack")) ?? [])
        let packs = names.filter { $0.hasSuffix(".pack") && !names.contains(String($0.dropLast(5)) + ".keep") }.count
        return packs > Int(packLimit)
    }
}
