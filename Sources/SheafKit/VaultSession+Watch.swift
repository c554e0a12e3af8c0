// `sheaf watch`, the freshness half: one watcher per vault keeps the index up to date from the
// kernel's events, batch by batch, so read commands can skip their walk (docs/watch.md).
//
// The order of the steps is what makes it correct:
// 1. claim the vault (`.sheaf/watcher.lock`) and write the record read commands check first;
// 2. start watching (every folder, the cookie folder) before anything is read, so a change made
//    from then on is in the kernel's queue;
// 3. one incremental scan, which catches up on whatever changed before the watches existed;
// 4. then each batch: applied to the index path by path (or one incremental scan when the events
//    cannot name every change), holding `.sheaf/lock` like any writer; only then are the batch's
//    cookies answered, "fresh" only when the index now holds every change and every folder is
//    watched. A failed update leaves the index behind: cookies are answered stale and the next
//    batch scans.
// Thumbnails come after the answer: a search never waits for images.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheafCore
import SheafIndex
import SheafWatch

/// How `sheaf watch` runs.
public struct VaultWatchOptions: Sendable {
    /// Sync in the background (`--no-sync` turns it off).
    public var sync = true
    /// Seconds between fetches of the remote (`--interval`); the rest of `BackgroundSync`'s settings.
    public var interval: Double {
        get { syncOptions.interval }
        set { syncOptions = BackgroundSyncOptions(interval: newValue, quietPeriod: syncOptions.quietPeriod,
                                                   backoff: syncOptions.backoff, recheck: syncOptions.recheck,
                                                   remote: syncOptions.remote) }
    }
    /// The background sync's settings (quiet period, backoff, remote).
    public var syncOptions = BackgroundSyncOptions()
    /// A batch is handed over once no event arrived for this long (seconds).
    public var quietPeriod: Double = 0.2
    /// ... or once its first event is this old (seconds).
    public var maxLatency: Double = 2

    public init() {}
}

/// Ends a running `VaultSession.watch` from any thread (a signal handler's queue, a test):
/// the batch in progress is finished first, then `watch` returns.
public final class WatchStopper: Sendable {
    let signal = WatchStop()

    public init() {}

    /// Asks the watcher to stop; safe to call more than once.
    public func stop() { signal.stop() }

    /// SIGINT, SIGTERM and the like stop the watcher cleanly instead of ending the process.
    public func stopOnSignals(_ signals: [Int32]) { signal.stopOnSignals(signals) }
}

extension VaultSession {
    /// How long a read command waits for a running watcher to vouch for the index (seconds).
    /// An idle watcher answers within a millisecond or two; a busy, stuck or stopped one is not
    /// waited for: the command walks as it would without a watcher.
    /// `SHEAF_WATCHER_WAIT_MS` sets another (tests on a loaded machine wait longer).
    static let watcherAnswerTimeout: Double = {
        if let text = getenv("SHEAF_WATCHER_WAIT_MS"), let ms = Double(String(cString: text)), ms >= 0, ms <= 60_000 {
            return ms / 1000  // (longer, or not a number: ignored; poll(2) takes an Int32 of ms)
        }
        return 0.05
    }()

    /// Watches the vault until `stopper` is told to stop, keeping the index up to date, and
    /// (with `options.sync`) committing and syncing in the background (`BackgroundSync`, on a
    /// thread of its own, started once the index has caught up, stopped before this returns).
    /// The subscribers (`subscribe`) are told what happens, from this thread or the sync's, one
    /// event at a time; `afterBatch` is called after each batch of changes is applied, with the paths it changed
    /// (on this thread, after the background sync was told).
    /// Throws when another process watches the vault (naming it, exit code 2), when the vault
    /// cannot be watched, or when the vault folder goes away.
    public func watch(options: VaultWatchOptions, stopper: WatchStopper,
                      afterBatch: (VaultChangeSet) -> Void = { _ in }) throws(SheafError) {
        // Two threads report (this one and the sync's): one event at a time, the session's own
        // (a lock wait, a warning) included.
        let serial = SerialEvents(events)
        let subscribed = subscribers
        subscribers = [serial.send]
        defer { subscribers = subscribed }
        // A problem that comes back batch after batch (a full disk, a missing thumbnail helper)
        // is reported once, until a batch goes through again.
        var lastProblem: SheafError?
        func report(_ event: VaultEvent) {
            if case .problem(let error) = event {
                if error == lastProblem { return }
                lastProblem = error
            }
            serial.send(event)
        }
        let claim = try WatcherClaim.claim(vault)
        defer {
            unlink(WatcherRecord.path(vault))  // still holding the claim: no newer watcher's record
            withExtendedLifetime(claim) {}
        }
        var background: BackgroundSync?
        // Declared after the claim's defer, so it runs before it: a sync in progress ends while
        // this process still holds the claim and its record.
        defer { background?.stop() }
        var batching = WatchOptions()
        batching.quietPeriod = options.quietPeriod
        batching.maxLatency = max(options.maxLatency, options.quietPeriod)
        let watcher = try VaultWatcher(vault: vault, filter: try watchFilter(), options: batching, stop: stopper.signal)
        report(.started(pid: getpid(), folders: watcher.watchedFolders))
        if let why = watcher.cannotVouch {
            report(.warning(VaultWarning(path: ".", message: why + "; read commands walk the vault as without a watcher")))
        }
        for (folder, why) in watcher.unwatchedFolders {
            report(.problem(SheafError("cannot watch a folder; read commands walk the vault meanwhile", path: folder.isEmpty ? "." : folder, cause: why)))
        }

        // Catch up on what changed before the watches existed.
        let caughtUp = updateIndex(rescan: true, changes: VaultChangeSet(), events: report)
        var indexBehind = !caughtUp.applied
        var rulesPending = false
        if caughtUp.applied {
            report(.rescanned(reasons: ["catching up with changes made while no watcher ran"], changes: caughtUp.changes))
            if !caughtUp.changes.isEmpty {
                makeWatchedThumbnails(for: caughtUp.changes, events: report)
                afterBatch(caughtUp.changes)
            }
        }
        if options.sync && !stopper.signal.isStopped {  // (a Ctrl-C during the catch-up: no sync begins)
            // Its first attempt commits what changed while no watcher ran, then fetches.
            background = BackgroundSync(vault: vault, options: options.syncOptions, events: serial.send)
            background?.start()
        }
        while true {
            let batch: WatchBatch
            do {
                guard let next = try watcher.nextBatch() else { break }
                batch = next
            } catch {
                report(.stopped(reason: error.what))
                throw error
            }
            for line in batch.warnings { report(.warning(Self.warning(line))) }
            if batch.rulesChanged || rulesPending {
                // Until the new rules are in place the watches may miss folders they now follow:
                // the cookies are answered stale, and every batch tries again.
                do {
                    watcher.replaceFilter(try watchFilter())
                    rulesPending = false
                } catch {
                    rulesPending = true
                    report(.problem(error))
                }
            }
            var changes = batch.changes
            var applied = true
            if batch.rescanNeeded || indexBehind {
                let reasons = batch.reasons + (indexBehind ? ["the last index update failed"] : [])
                let step = updateIndex(rescan: true, changes: changes, events: report)
                applied = step.applied
                changes = step.changes
                if applied { report(.rescanned(reasons: reasons, changes: changes)) }
            } else if !changes.isEmpty {
                let step = updateIndex(rescan: false, changes: changes, events: report)
                applied = step.applied
                changes = step.changes
                if applied && !changes.isEmpty { report(.indexed(changes)) }
            }
            if applied && indexBehind { lastProblem = nil }  // back on its feet: say it again next time
            indexBehind = !applied
            // Fresh only once the index holds every change made before each cookie.
            WatchCookies.acknowledge(batch.cookies, vault: vault, fresh: applied && watcher.isComplete && !rulesPending)
            guard !changes.isEmpty else { continue }
            background?.localChanges(changes)
            if applied { makeWatchedThumbnails(for: changes, events: report) }
            afterBatch(changes)
        }
        background?.stop()
        report(.stopped(reason: "asked to stop"))
    }

    /// Hands events to `events` one at a time, from whichever thread sends them.
    private final class SerialEvents: @unchecked Sendable {
        private let lock = NSLock()
        private let events: @Sendable (VaultEvent) -> Void
        init(_ events: @escaping @Sendable (VaultEvent) -> Void) { self.events = events }
        @Sendable func send(_ event: VaultEvent) {
            lock.lock()
            defer { lock.unlock() }
            events(event)
        }
    }

    /// The rules of what the index holds, as the watcher applies them.
    private func watchFilter() throws(SheafError) -> WatchFilter {
        WatchFilter(walker: try walker(forIndex: true))
    }

    /// Applies `changes` to the index (or, with `rescan`, runs one incremental scan), holding
    /// `.sheaf/lock` and waiting for it. Returns whether the index is now up to date and what
    /// changed in it: the events only name paths, and what is on disk now decides (a note saved
    /// by rename and deleted since is a removal, not the addition the events suggest). When the
    /// update fails, `changes` as they were named.
    private func updateIndex(rescan: Bool, changes: VaultChangeSet,
                             events: (VaultEvent) -> Void) -> (applied: Bool, changes: VaultChangeSet) {
        do {
            return try withWriterLock(commits: false) { (_) throws(SheafError) in
                invalidate()
                let index = try writableIndex()
                let walker = try walker(forIndex: true)
                var report = rescan ? try index.scan(vault: vault, walker: walker)
                                    : try index.apply(changes, vault: vault, walker: walker, reread: true)
                var applied = report.changes
                if rescan && !changes.isEmpty {
                    // The scan trusts size, mtime and inode; a path the events named is read again
                    // whatever they say (a same-size save within one tick, `cp -p`).
                    let named = try index.apply(changes, vault: vault, walker: walker, reread: true)
                    report.warnings += named.warnings
                    applied = applied.followed(by: named.changes)
                }
                try index.finishBuild()
                for w in report.warnings { events(.warning(VaultWarning(path: w.path, message: w.message))) }
                return (true, applied)
            }
        } catch {
            events(.problem(error))
            return (false, changes)
        }
    }

    /// Thumbnails for the attachments a batch added or changed (as a pull makes them). Results
    /// are recorded only for files unchanged since the helper read them.
    private func makeWatchedThumbnails(for changes: VaultChangeSet, events: (VaultEvent) -> Void) {
        let attachments = changes.written.map(\.path).filter { !VaultPath.isNote($0) }
        guard !attachments.isEmpty else { return }
        do {
            // Without `.sheaf/lock`, as `sheaf thumb` makes them: images can take seconds, and a
            // watcher stopped meanwhile (^Z) must not keep every other command waiting.
            let report = try makeThumbnails(in: try NoteIndex(vault: vault), forPaths: attachments)
            for failure in report.failed { events(.warning(failure)) }
            if let missing = report.helperMissing { events(.problem(missing)) }
        } catch {
            events(.problem(error))
        }
    }

    /// A watcher's warning line ("path: message") as a VaultWarning.
    private static func warning(_ line: String) -> VaultWarning {
        guard let colon = line.range(of: ": ") else { return VaultWarning(path: ".", message: line) }
        return VaultWarning(path: String(line[..<colon.lowerBound]), message: String(line[colon.upperBound...]))
    }

    /// How long, at most, a read command waits for a running watcher that has not answered yet
    /// while `.sheaf/lock` is held (seconds): the watcher applying the batch that holds the
    /// reader's cookie, most often, whose answer comes once the batch is committed.
    static let watcherBusyWait: Double = max(2, watcherAnswerTimeout)

    /// What a running watcher said about the index.
    enum WatcherVerdict {
        /// It has applied every change made before the question: the index as it is, no walk, no lock.
        case vouched(NoteIndex)
        /// It did not answer, and `.sheaf/lock` was free: walk, holding it.
        case walkHolding(VaultLock)
        /// No watcher runs, it cannot vouch, or it gave no answer in time: walk as without one.
        case walk
    }

    /// Asks a running watcher whether it has applied every change made before this call. It
    /// has `watcherAnswerTimeout` to answer; after that the reader walks once the lock is free,
    /// but while another process holds the lock (walking would then answer from the index as it
    /// is) it waits for the answer up to `watcherBusyWait`: only a stuck watcher costs a stale
    /// answer. `queryOnly`: see `freshIndex`.
    func askWatcher(queryOnly: Bool = false) -> WatcherVerdict {
        guard let record = WatcherRecord.read(vault), record.state == .running,
              let question = WatchCookies.Question(vault: vault) else { return .walk }
        var answer = question.wait(Self.watcherAnswerTimeout)
        let deadline = Date(timeIntervalSinceNow: Self.watcherBusyWait - Self.watcherAnswerTimeout)
        while answer == nil {
            do {
                if let lock = try VaultLock.take(vault.lockPath, wait: false) {
                    question.withdraw()
                    return .walkHolding(lock)
                }
            } catch {
                break  // the walk says why the lock cannot be had
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            answer = question.wait(min(0.02, left))
        }
        guard answer == .fresh, let index = try? indexAsIs(queryOnly: queryOnly) else {
            if answer == nil { question.withdraw() }
            return .walk
        }
        return .vouched(index)
    }
}
