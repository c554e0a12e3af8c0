// When `git gc --auto` runs. Each commit and fetch adds objects git gathers when its thresholds say
// so (Repository+Housekeeping). A gc that is due can take minutes (the first commit of an adopted
// 100k vault: 6 min), so a command the user waits on never runs it in the foreground: the CLI sets
// `detachesHousekeeping` and, once it has printed its answer and let go of the writer lock, starts
// `sheaf housekeep` detached, which takes the writer lock itself and runs the gc under it. A gc
// therefore never races Sheaf's next write: that command waits for the lock as for any writer, and
// the `.git` lock files the gc holds belong to a recorded Sheaf session (Repository+StaleLocks), so
// a gc killed midway leaves nothing the next command cannot clear. A session that is itself in the
// background (the watcher's sync) still runs it inline, under the lock it already holds.
import SheafCore
import SheafGit

extension VaultSession {
    /// A commit or a fetch added objects to `repo` (the vault's repository when nil, or a share's):
    /// gathers them now (inline), or marks them for the caller.
    /// Only when git's own rule says a gc is due (`collectionLooksDue`): most commands add a few
    /// objects, and a `sheaf housekeep` started for nothing would still hold the writer lock.
    func objectsWereAdded(to repo: Repository? = nil) throws(SheafError) {
        let repo = if let repo { repo } else { try requireRepository() }
        guard repo.collectionLooksDue() else { return }
        if detachesHousekeeping {
            housekeepingDue = true
        } else {
            repo.collectGarbageIfDue()
        }
    }

    /// `sheaf housekeep`: `git gc --auto` under the writer lock, waiting for it like any writer,
    /// in the vault's repository and in each joined share's (their objects pile up the same way).
    public func collectGarbage() throws(SheafError) {
        try withWriterLock { (_) throws(SheafError) in
            let repo = try requireRepository()
            if repo.collectionLooksDue() { repo.collectGarbageIfDue() }
            for share in shareList().shares {
                let zone = zone(share)
                if zone.isJoined, let repo = try? zone.open(), repo.collectionLooksDue() { repo.collectGarbageIfDue() }
            }
        }
    }
}
