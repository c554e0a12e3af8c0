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
// Most of a gc that loose objects made due is spent packing them (delta search and compression:
// 5.4 s of the 5.6 s a first commit of 10k notes made due). That part deletes nothing, so it may
// run first without the lock (`packLooseObjects`, when `packsBeforeCollection` says git's gc would
// be that incremental kind); the gc under the lock then finds them packed, and only removes the
// loose copies and does the short rest (0.18 s at 10k notes). A gc due by its count of packs
// rewrites them all under the lock (reusing their deltas: 0.36 s for 56 packs of 10k notes).
import CGit2
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// Runs `git gc --auto` in this repository; false when git is missing or the gc failed (the
    /// repository is then as it was: gc replaces packs only once the new ones are written). Git's
    /// own notice ("Auto packing the repository...") goes to standard error when it packs.
    /// A caller that packs beforehand (`packLooseObjects`) holds the same `packingLock` here.
    @discardableResult
    public func collectGarbageIfDue() -> Bool {
        // At the fetch's threshold: blobs over it stay whole, never deltas, so they can still
        // be streamed (`writeBlob(_:toFile:)`); git's default (512 MB) would delta-compress them.
        runGit(["-c", "core.bigFileThreshold=\(Self.streamingThreshold)", "-c", "gc.autoDetach=false", "gc", "--auto"],
               showErrors: true)
    }

    /// `git repack -l -n`: writes the reachable loose objects into one new pack, as the gc's own
    /// incremental repack would, and deletes nothing (no `-d`: the loose copies and every pack
    /// stay), so it may run beside Sheaf's writers, without the writer lock: a pack only adds
    /// copies of objects, and a writer reading or adding loose objects meanwhile finds each where
    /// it was. It takes no lock file of git's (`-n`: no `info/` update; traced with bitmaps, server
    /// info, multi-pack-index and commit-graph settings on), runs at a lower priority and from
    /// outside the vault (`runGit`'s `apart`).
    ///
    /// The repack and every process under it hold `packingLock` (flock(1) `--no-fork`: the lock's
    /// descriptor is inherited), so the gc that follows, which takes it too, never runs while
    /// such a repack lives, even one whose Sheaf was killed: git reads a pack that a repack has
    /// written but not yet renamed, and a gc beside it could drop loose copies that such a repack,
    /// stopped by a signal, then deletes with its temporary files. False when git or flock is
    /// missing, or the repack failed.
    @discardableResult
    public func packLooseObjects(packingLock: String) -> Bool {
        runGit(["-c", "core.bigFileThreshold=\(Self.streamingThreshold)", "repack", "-l", "-n", "-q", "--no-write-bitmap-index"],
               niced: true, apart: true, holding: packingLock)
    }

    /// Whether `git gc --auto` would find work, by git's own rule: more loose objects than
    /// `gc.auto` (6,700 unless set; estimated, as git does, from the one folder `objects/17`), or
    /// more packs than `gc.autoPackLimit` (50, `.keep` packs aside); a limit of 0 turns either
    /// off. A few directory reads, so that the writer lock is taken for a gc only when one is
    /// due: a `sheaf housekeep` holding it after every command made the next command answer from
    /// the index as it was.
    public func collectionLooksDue() -> Bool {
        let settings = CollectionSettings(self)
        return settings.looseObjectsDue(self) || settings.packsDue(packCount())
    }

    /// Whether packing the loose objects first, without the writer lock, is what git's gc would
    /// do now: the gc is due by loose objects and one more pack keeps it under
    /// `gc.autoPackLimit` (more would make it repack everything, under the lock, anyway); no
    /// `pre-auto-gc` hook may say "not now" (git runs it only in the gc); no other gc runs
    /// (`gc.pid`, less than 12 hours old, as git judges it).
    public func packsBeforeCollection() -> Bool {
        let settings = CollectionSettings(self)
        guard settings.looseObjectsDue(self), !settings.packsDue(packCount() + 1) else { return false }
        let fm = FileManager.default
        if fm.fileExists(atPath: settings.hooks + "/pre-auto-gc") { return false }
        if let modified = (try? fm.attributesOfItem(atPath: gitFolder + "gc.pid"))?[.modificationDate] as? Date,
           Date().timeIntervalSince(modified) < 12 * 3600 { return false }
        return true
    }

    fileprivate var gitFolder: String { gitDirectory.hasSuffix("/") ? gitDirectory : gitDirectory + "/" }

    private func packCount() -> Int {
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: gitFolder + "objects/pack")) ?? [])
        return names.filter { $0.hasSuffix(".pack") && !names.contains(String($0.dropLast(5)) + ".keep") }.count
    }
}

/// The settings git's gc decides by, from one snapshot of the repository's configuration.
private struct CollectionSettings {
    var auto = 6700, packLimit = 50
    /// Where git looks for hooks: `core.hooksPath` (relative to the work tree's top, where the
    /// gc runs its hook), else `hooks/` in the git directory.
    var hooks: String

    init(_ repo: Repository) {
        hooks = repo.gitFolder + "hooks"
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, repo.handle) == 0 else { return }
        defer { git_config_free(config) }
        var value: Int32 = 0
        if git_config_get_int32(&value, config, "gc.auto") == 0 { auto = Int(value) }
        if git_config_get_int32(&value, config, "gc.autoPackLimit") == 0 { packLimit = Int(value) }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        if git_config_get_path(&buffer, config, "core.hooksPath") == 0, let pointer = buffer.ptr {
            let path = String(cString: pointer)
            hooks = path.hasPrefix("/") ? path : (repo.workTree ?? repo.gitDirectory) + "/" + path
        }
    }

    /// More loose objects in `objects/17` than `gc.auto` / 256 (rounded up): git's estimate.
    func looseObjectsDue(_ repo: Repository) -> Bool {
        guard auto > 0 else { return false }
        let sampled = ((try? FileManager.default.contentsOfDirectory(atPath: repo.gitFolder + "objects/17")) ?? [])
        return sampled.filter { $0.utf8.count == 38 }.count > (auto + 255) / 256
    }

    /// Whether `packs` packs are more than git's gc allows (never when `gc.auto` is 0).
    func packsDue(_ packs: Int) -> Bool { auto > 0 && packLimit > 0 && packs > packLimit }
}
