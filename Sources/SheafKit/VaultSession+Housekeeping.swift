// When `git gc --auto` runs. Each commit and fetch adds objects git gathers when its thresholds say
// so (Repository+Housekeeping). A gc that is due can take minutes (the first commit of an adopted
// 100k vault: 6 min), so a command the user waits on never runs it in the foreground: the CLI sets
// `defersHousekeeping` and, once it has printed its answer and let go of the writer lock, starts
// `sheaf housekeep` detached; the watcher runs it on its sync thread after the sync (BackgroundSync).
//
// Housekeeping is two steps (`collectGarbage`):
// 1. When the gc is due by loose objects (`packsBeforeCollection`: git's incremental kind), they
//    are packed without the writer lock (`packLooseObjects`): the long part, which deletes
//    nothing, so Sheaf's next write goes on beside it.
// 2. Under the writer lock, `git gc --auto` itself: it decides again, finds the loose objects
//    packed, removes their copies and does the short rest (or, due by its count of packs,
//    rewrites them all). It never races Sheaf's next write (that command waits for the lock as
//    for any writer), and the `.git` lock files it holds belong to a recorded Sheaf session
//    (Repository+StaleLocks), so a gc killed midway leaves nothing the next command cannot clear.
// No gc runs while a step 1 repack does: the repack and its children hold `.sheaf/packing.lock` for
// as long as they live (Repository+Housekeeping says why); step 2 takes it before the writer lock
// (a repack a killed housekeeper left may take minutes), an inline gc skips when it is held.
// One housekeeper works on a vault at a time (`.sheaf/housekeep.lock`): one started by a command
// that ran meanwhile, and the watcher, leave the work to the one at work; `sheaf housekeep` run by
// hand waits for it, then does what is still due. A session that defers nothing (a clone's pull)
// runs the gc inline, under the lock it already holds.
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
            // Under the writer lock already: a repack at work (`.sheaf/packing.lock`) is not
            // waited for (a housekeeper waiting for the writer lock may hold it); the gc is left to
            // the next housekeeping.
            guard let packing = try VaultLock.take(packingLock, wait: false) else { return }
            withExtendedLifetime(packing) { _ = repo.collectGarbageIfDue() }
        }
    }

    private var packingLock: String { vault.stateDirectory + "/packing.lock" }

    /// `sheaf housekeep`: both steps, for the vault's repository and each joined share's (their
    /// objects pile up the same way). With another housekeeper at work: once it has finished
    /// (`waitingForAnother`), or not at all.
    public func collectGarbage(waitingForAnother: Bool) throws(SheafError) {
        guard let collection = try packForCollection(waitingForAnother: waitingForAnother) else { return }
        try collectGarbage(collection)
    }

    /// Step one: packs the loose objects of each repository a gc is due in, without the writer
    /// lock, then waits for any other repack still at work (one a killed housekeeper left).
    /// Nil when no gc is due, or another housekeeper holds `.sheaf/housekeep.lock` and
    /// `waitingForAnother` is false; the collection holds that lock and `.sheaf/packing.lock`
    /// while it lives.
    public func packForCollection(waitingForAnother: Bool) throws(SheafError) -> GarbageCollection? {
        guard let lock = try VaultLock.take(vault.stateDirectory + "/housekeep.lock", wait: waitingForAnother) else { return nil }
        var due: [Repository] = []
        if let repo = try repository(), repo.collectionLooksDue() { due.append(repo) }
        for share in shareList().shares {
            let zone = zone(share)
            if zone.isJoined, let repo = try? zone.open(), repo.collectionLooksDue() { due.append(repo) }
        }
        guard !due.isEmpty else { return nil }
        for repo in due where repo.packsBeforeCollection() { repo.packLooseObjects(packingLock: packingLock) }
        let packing = try VaultLock.take(packingLock, wait: true)
        return GarbageCollection(locks: [lock, packing].compactMap { $0 }, repositories: due)
    }

    /// Step two: `git gc --auto` under the writer lock (waiting for it like any writer), in each
    /// repository of `collection` a gc is still due in.
    public func collectGarbage(_ collection: GarbageCollection) throws(SheafError) {
        try withExtendedLifetime(collection) { () throws(SheafError) in
            try withWriterLock { (_) throws(SheafError) in
                for repo in collection.repositories where repo.collectionLooksDue() { repo.collectGarbageIfDue() }
            }
        }
    }
}

/// The repositories a housekeeper found a gc due in (step one of `collectGarbage`), with the
/// housekeeper's locks (`.sheaf/housekeep.lock`, `.sheaf/packing.lock`), held while this lives.
public final class GarbageCollection {
    let locks: [VaultLock]
    let repositories: [Repository]

    init(locks: [VaultLock], repositories: [Repository]) {
        self.locks = locks
        self.repositories = repositories
    }
}
