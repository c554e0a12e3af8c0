// When `git gc --auto` runs. Each commit and fetch adds objects git gathers when its thresholds say
// so (Repository+Housekeeping). A gc that is due can take minutes (the first commit of an adopted
// 100k vault: 6 min), so a command the user waits on never runs it in the foreground: the CLI sets
// `defersHousekeeping` and, once it has printed its answer and let go of the writer lock, starts
// `sheaf housekeep` detached; the watcher runs it on its sync thread after the sync (BackgroundSync).
//
// Housekeeping is two steps (`collectGarbage`):
// 1. Without the writer lock, the loose objects are packed (`packLooseObjects`): the long part,
//    which deletes nothing, so Sheaf's next write goes on beside it.
// 2. Under the writer lock, `git gc --auto` itself: it finds the objects packed, removes their
//    loose copies and does the short rest. It never races Sheaf's next write (that command waits
//    for the lock as for any writer), and the `.git` lock files it holds belong to a recorded Sheaf
//    session (Repository+StaleLocks), so a gc killed midway leaves nothing the next command cannot
//    clear.
// One housekeeper works on a vault at a time (`.sheaf/housekeep.lock`): a second `sheaf housekeep`,
// started by a command that ran meanwhile, waits for the first and then finds nothing due (or
// what came since), and the watcher leaves the work to the one at work. A session that defers
// nothing (a clone's pull) runs the gc inline, under the lock it already holds.
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
        if defersHousekeeping {
            housekeepingDue = true
        } else {
            repo.collectGarbageIfDue()
        }
    }

    /// `sheaf housekeep`: both steps, for the vault's repository and each joined share's (their
    /// objects pile up the same way), after any other housekeeper at work has finished.
    public func collectGarbage() throws(SheafError) {
        guard let collection = try packForCollection(waitingForAnother: true) else { return }
        try collectGarbage(collection)
    }

    /// Step one: packs the loose objects of each repository a gc is due in, without the writer
    /// lock. Nil when no gc is due, or another housekeeper holds `.sheaf/housekeep.lock` and
    /// `waitingForAnother` is false; the collection holds that lock while it lives.
    public func packForCollection(waitingForAnother: Bool) throws(SheafError) -> GarbageCollection? {
        guard let lock = try VaultLock.take(vault.stateDirectory + "/housekeep.lock", wait: waitingForAnother) else { return nil }
        var due: [Repository] = []
        if let repo = try repository(), repo.collectionLooksDue() { due.append(repo) }
        for share in shareList().shares {
            let zone = zone(share)
            if zone.isJoined, let repo = try? zone.open(), repo.collectionLooksDue() { due.append(repo) }
        }
        guard !due.isEmpty else { return nil }
        for repo in due { repo.packLooseObjects() }
        return GarbageCollection(lock: lock, repositories: due)
    }

    /// Step two: `git gc --auto` under the writer lock (waiting for it like any writer), in each
    /// repository of `collection` a gc is still due in.
    public func collectGarbage(_ collection: GarbageCollection) throws(SheafError) {
        try withWriterLock { (_) throws(SheafError) in
            for repo in collection.repositories where repo.collectionLooksDue() { repo.collectGarbageIfDue() }
        }
    }
}

/// The repositories a housekeeper packed (step one of `collectGarbage`), with the housekeeper's
/// lock, held while this lives.
public final class GarbageCollection {
    let lock: VaultLock
    let repositories: [Repository]

    init(lock: VaultLock, repositories: [Repository]) {
        self.lock = lock
        self.repositories = repositories
    }
}
