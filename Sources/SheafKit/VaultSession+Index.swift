// The index as read commands see it: opened once per command and brought up to date by an
// incremental scan first, holding `.sheaf/lock`; or, while `sheaf watch` runs and vouches for
// the index (the cookie protocol, docs/watch.md), opened as it is, with neither walk nor lock. When another command holds the lock, a read
// command answers from the index as it is and says so; it waits only when there is no complete
// index to answer from (the first build is under way). When the index cannot be written (a full
// disk, a read-only `.sheaf/`) a read command answers from it as it is, with a warning; a
// command whose job is to update it (`sheaf index`) fails instead.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafIndex

extension VaultSession {
    /// The vault's index, scanned so that any editor's change is seen (`.indexBusy` when the
    /// scan was skipped because another command holds the lock). With `mustUpdate` the command
    /// waits for the lock and fails when the index cannot be written, instead of answering
    /// from the index as it is. With `queryOnly` (the caller only reads: a search) an index taken
    /// as it is (vouched for by a watcher, or while another command holds the lock) is one
    /// read-only connection, which opens and closes faster than a pool; a later caller that may
    /// write opens it again.
    func freshIndex(rebuild: Bool = false, mustUpdate: Bool = false, queryOnly: Bool = false,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> (NoteIndex, SheafIndex.ScanReport?) {
        if let (index, report) = cachedIndex, !rebuild, queryOnly || !cachedQueryOnly { return (index, report) }
        cachedQueryOnly = false
        var lock = heldLock
        if !rebuild, !mustUpdate, heldLock == nil {
            switch askWatcher(queryOnly: queryOnly) {
            case .vouched(let index):
                // A running watcher that has applied every change made so far: no walk, no lock.
                cachedQueryOnly = queryOnly
                emit(.watcherVouched)
                cachedIndex = (index, nil)
                return (index, nil)
            case .walkHolding(let taken): lock = taken
            case .walk: break
            }
        }
        if lock == nil {
            do { lock = try VaultLock.take(vault.lockPath, wait: mustUpdate || rebuild, onWait: lockWaitEvent) }
            catch { return try answerAsIs(cannotUpdate: error, mustUpdate: mustUpdate) }
        }
        if lock == nil {
            if let index = try indexAsIs(queryOnly: queryOnly) {
                cachedQueryOnly = queryOnly
                emit(.indexBusy)
                cachedIndex = (index, nil)
                return (index, nil)
            }
            // No complete index yet: the command holding the lock is building it.
            lock = try VaultLock.take(vault.lockPath, wait: true, onWait: lockWaitEvent)
        }
        if heldLock == nil, let lock {
            // links a killed `mv` left pointing nowhere
            try whileHolding(lock) { (proof) throws(SheafError) in try completeInterruptedMove(proof) }
        }
        do {
            let index = try writableIndex(rebuild: rebuild)
            var walker = try walker(forIndex: true)
            let leftovers = TemporaryFiles()
            walker.onTemporaryFile = { leftovers.paths.append($0) }
            let report = try index.scan(vault: vault, walker: walker, progress: progress ?? indexProgressEvents)
            try index.finishBuild()
            if heldLock == nil, let lock {
                // Temporary files a killed Sheaf left, met by this walk.
                _ = try whileHolding(lock) { (proof) throws(SheafError) in cleanInterruptedWrites(leftovers.paths, proof) }
            }
            withExtendedLifetime(lock) {}
            var kept = report
            kept.files = nil  // a long-running session (watch, serve) keeps no list of every file
            cachedIndex = (index, kept)
            // A writer holding the lock (mv, rm) reads the walk again instead of walking again.
            cachedWalk = heldLock != nil && walker.excludes == nil ? report.files : nil
            return (index, kept)
        } catch {
            guard error.kind == .indexNotWritable else { throw error }
            return try answerAsIs(cannotUpdate: error, mustUpdate: mustUpdate)
        }
    }

    /// The index as it is, to read from: the shared readers of a server's session when the
    /// caller only reads, else a connection of its own (`NoteIndex.openForReading`).
    func indexAsIs(queryOnly: Bool) throws(SheafError) -> NoteIndex? {
        if queryOnly, let shared, let readers = try shared.readers() { return readers }
        return try NoteIndex.openForReading(vault: vault, queryOnly: queryOnly)
    }

    /// The paths of `index` with their resolver: a server's sessions share one, made again
    /// only when the index changed.
    func indexedPaths(of index: NoteIndex) throws(SheafError) -> IndexedPaths {
        if let shared { return try shared.paths(or: index) }
        return IndexedPaths(try index.allPaths())
    }

    /// An index update's progress as `.indexProgress` events.
    private var indexProgressEvents: @Sendable (Int, Int) -> Void {
        let events = self.events
        return { done, total in events(.indexProgress(done: done, total: total)) }
    }

    /// The index as it is, for a read command that could not update it; `error` when it must.
    private func answerAsIs(cannotUpdate error: SheafError, mustUpdate: Bool) throws(SheafError) -> (NoteIndex, SheafIndex.ScanReport?) {
        guard !mustUpdate, let index = try? NoteIndex.openForReading(vault: vault) else { throw error }
        emit(.indexStale(error))
        cachedIndex = (index, nil)
        return (index, nil)
    }

    /// The walk of this vault, with git's ignore rules; for the index also Obsidian's excluded
    /// files (`userIgnoreFilters` in `.obsidian/app.json`). `mv` and the other writers walk
    /// without them, so links in excluded notes are still kept working.
    /// libgit2 is started only when a rule may ignore a path (`IgnoreReach` tells, and the rules
    /// from outside the work tree are read from their files: `OutsideIgnoreRules`), through a
    /// handle of the walk's own (the watcher's walks run beside the background sync).
    /// With `ownRepository`, git's ignore rules are asked through a repository handle of the
    /// walker's own, never the session's: for a walk on another thread while this one uses git.
    /// Without `warn`, Obsidian's filters Sheaf cannot apply are not said (another walker of
    /// the same command says them).
    func walker(forIndex: Bool = false, ownRepository: Bool = false, warn: Bool = true) throws(SheafError) -> VaultWalker {
        let outside: IgnoreReach
        let repository: () -> Repository?
        if cachedRepository == nil || ownRepository,
           let rules = OutsideIgnoreRules.read(vaultRoot: vault.root, environment: ProcessInfo.processInfo.environment) {
            outside = IgnoreReach(rules: rules)
            let lazy = LazyRepository(workTree: vault.root)
            repository = { lazy.repository }
        } else {
            let repo = try self.repository()
            outside = repo.map { IgnoreReach(rules: $0.outsideIgnoreRules()) } ?? IgnoreReach()
            if ownRepository {
                let lazy = LazyRepository(workTree: vault.root)
                repository = { lazy.repository }
            } else {
                repository = { repo }
            }
        }
        let filters = forIndex ? ObsidianSettings.load(vaultRoot: vault.root)?.ignoreFilters : nil
        for refused in warn ? filters?.refused ?? [] : [] { emit(.warning(ObsidianIgnoreFilters.warning(filter: refused.filter, reason: refused.reason))) }
        let excluded = filters.flatMap { $0.isEmpty ? nil : $0 }
        var walker = VaultWalker(vault: vault, outsideRules: outside) { path, isDirectory in
            guard let repo = repository() else { return false }
            return (try? repo.isIgnored(isDirectory ? path + "/" : path)) ?? false
        }
        if let excluded { walker.excludes = { excluded.excludes($0, isFolder: $1) } }
        return walker
    }
}

extension VaultSession {
    /// `sheaf index`: brings the index up to date (from scratch with `rebuild`), waiting for a
    /// command that holds the lock; nil when the scan did not run. Throws when the index cannot
    /// be written.
    public func updateIndex(rebuild: Bool, progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ScanReport? {
        try freshIndex(rebuild: rebuild, mustUpdate: true, progress: progress).1.map(ScanReport.init)
    }

    /// The index opened by a command that updates it (a full build goes to a separate file until
    /// `finishBuild`). The FTS row of a note it replaces or removes is deleted, with the text of
    /// that note's version read back from the repository, instead of being left dead.
    func writableIndex(rebuild: Bool = false) throws(SheafError) -> NoteIndex {
        let index = try NoteIndex(vault: vault, rebuild: rebuild, atomicBuild: true)
        for (file, movedTo, what) in index.setAside {
            let aside = vault.relative(movedTo) ?? movedTo
            emit(.warning(VaultWarning(path: vault.relative(file) ?? file,
                                       message: "was \(what), not the index: moved aside to \(aside) (delete it once you no longer need it); the index is rebuilt from the files")))
        }
        index.previousVersion = Self.previousVersions(root: vault.root, displaced: displacedVersions)
        return index
    }

    /// Note versions by blob id: one this session's writes replaced (DisplacedVersions), else
    /// from the vault's repository, through a handle of their own opened on first use (the
    /// watcher's index update runs beside the background sync, which uses the session's). Nil
    /// for what is not there, not a blob, or over the note size limit.
    static func previousVersions(root: String, displaced: DisplacedVersions) -> (String) -> [UInt8]? {
        var repository: Repository??
        return { id in
            if let bytes = displaced.bytes(id) { return bytes }
            if repository == nil { repository = .some(try? Repository.open(workTree: root)) }
            guard let repo = repository ?? nil, let size = try? repo.blobSize(id), size <= Note.sizeLimit else { return nil }
            return try? repo.blobBytes(id)
        }
    }
}
