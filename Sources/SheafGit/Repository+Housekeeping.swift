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
// cannot tell from a user's live git. Sheaf detaches it its own way instead, in a process that
// holds the writer lock (SheafKit/VaultSession+Housekeeping).
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
}
