// The background sync of `sheaf watch`: its own thread, its own `VaultSession` per attempt
// (a session is not thread-safe, and a fresh one reads the config and the repository as they
// are now). The watcher loop tells it what changed (`localChanges`); it commits and syncs once
// local changes have settled for a quiet period, fetches the remote every interval and on start,
// and never starts while a file was reported changed within the quiet period (it is being
// written), nor commits one whose ctime says so (a save not reported yet), nor while git has a
// merge or rebase unfinished. It fetches first without the lock (an
// unreachable or silent remote holds up nobody); the sync itself is `VaultSession.sync`, which
// takes `.sheaf/lock`: a manual `sheaf sync`, `mv` or `index --rebuild` makes it wait, and
// whatever that command committed is not committed again. Offline, it says so once, commits
// local changes as they settle (kept for later) and retries on `SyncBackoff`; back online it says
// so once and pushes them. Every repeated state is reported once (`BackgroundSyncNotices`).
// After every attempt `.sheaf/watch-sync` tells `sheaf status` what happened and what waits.
import Foundation
import SheafCore
import SheafGit
import SheafSync
#if canImport(Glibc)
import Glibc
#endif

/// Commits and syncs a watched vault in the background, on a thread of its own.
///
/// `start()` once, `localChanges(_:)` after every batch of changes the watcher applied, and
/// `stop()` at the end, which returns once a commit or sync that holds the vault's lock has
/// ended (nothing is left half done); a fetch in progress (no lock, no file of the vault) gets
/// `fetchGrace` seconds to end, then is left to the process's end. Every call may come from any thread. `events` is called on the sync's thread.
public final class BackgroundSync: @unchecked Sendable {
    public let vault: Vault
    public let options: BackgroundSyncOptions
    private let events: @Sendable (VaultEvent) -> Void

    // Shared with the callers' threads, guarded by `condition`.
    private let condition = NSCondition()
    private var started = false
    private var stopping = false
    private var finished = false
    /// Whether an attempt holds `.sheaf/lock` (committing, merging, pushing): `stop()` waits for
    /// it to end, and none begins once `stop()` was called.
    private var changing = false
    /// Whether an attempt is fetching without the lock (`stop()` gives it `fetchGrace`).
    private var fetching = false
    /// When the last local change was reported (monotonic seconds), and each path's last report.
    private var lastChange: Double?
    private var recentPaths: [PathKey: Double] = [:]  // by bytes: twins written at once are two
    /// Local changes reported since the last attempt began.
    private var pendingLocal = false
    private var syncRequested = false
    private var attempts = 0

    // The sync thread's own.
    private var notices: BackgroundSyncNotices
    private var state: BackgroundSyncState
    /// When the remote is next due (monotonic seconds), and before when local changes may not
    /// start an attempt (after a failure: the backoff; while waiting: the next look).
    private var nextNetwork = 0.0
    private var localNotBefore = 0.0

    /// A background sync of `vault`; nothing runs before `start()`.
    public init(vault: Vault, options: BackgroundSyncOptions = BackgroundSyncOptions(),
                events: @escaping @Sendable (VaultEvent) -> Void) {
        self.vault = vault
        self.options = options
        self.events = events
        notices = BackgroundSyncNotices(backoff: options.backoff)
        state = BackgroundSyncState(pid: getpid(), updated: Self.wallClock())
    }

    deinit { stop() }

    /// Starts the sync thread; the first sync (commit, fetch, merge, push) begins at once.
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return }
        started = true
        WorkerThread.start(name: "sheaf-bg-sync") { [self] in run() }
    }

    /// Tells the sync what the watcher just applied: the quiet period starts again, and these
    /// paths count as being written until it ends.
    public func localChanges(_ changes: VaultChangeSet) {
        guard !changes.isEmpty else { return }
        let now = Self.monotonic()
        condition.lock()
        lastChange = now
        for key in changes.paths { recentPaths[key] = now }
        pendingLocal = true
        condition.broadcast()
        condition.unlock()
    }

    /// Asks for a sync as soon as nothing is being written, without waiting for the interval.
    public func syncSoon() {
        condition.lock()
        syncRequested = true
        condition.broadcast()
        condition.unlock()
    }

    private func setFetching(_ value: Bool) {
        condition.lock()
        fetching = value
        condition.broadcast()
        condition.unlock()
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// How many attempts have begun (each look for whether a sync may start counts).
    public var attemptCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return attempts
    }

    /// Stops the sync thread and returns when it has ended: a sync in progress is finished first,
    /// and none is started after this call.
    public func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        // A sync that holds the lock is waited for to its end. A fetch (no lock, nothing of the
        // vault touched) is given a few seconds: one that is receiving ends within them and its
        // ref update (milliseconds) is not cut in half, leaving a stale `.lock` file; one stuck
        // on a silent remote is left, so Ctrl-C is not held up for the transfer's time limit.
        let graceEnd = Date(timeIntervalSinceNow: Self.fetchGrace)
        while started && !finished && (changing || (fetching && Date() < graceEnd)) {
            // (Foundation's wait(until: .distantFuture) traps on Linux: the deadline overflows.)
            if changing { condition.wait() } else { _ = condition.wait(until: graceEnd) }
        }
    }

    /// How long `stop()` waits for a fetch in progress (seconds).
    static let fetchGrace = 3.0

    // MARK: the loop

    private enum Step {
        /// Commit, fetch, merge and push; `local` when only local changes asked for it.
        case sync(local: Bool)
        /// Commit local changes without the remote (it is unreachable).
        case commit

        var isCommit: Bool { if case .commit = self { true } else { false } }
        /// Whether local changes asked for this attempt.
        var isLocal: Bool { if case .sync(local: false) = self { false } else { true } }
    }

    private func run() {
        nextNetwork = Self.monotonic()
        while let step = nextStep() {
            attempt(step)
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until an attempt is due and nothing is being written; nil once `stop()` was called.
    private func nextStep() -> Step? {
        condition.lock()
        defer { condition.unlock() }
        while !stopping {
            let now = Self.monotonic()
            if let last = lastChange, last + options.quietPeriod > now {
                let writing = recentPaths.filter { $0.value + options.quietPeriod > now }.keys.map(\.path).sorted(by: PathBytes.precedes)
                if !writing.elementsEqual(state.writing, by: PathBytes.same) { unlocked { noteWriting(writing) } }
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.01, last + options.quietPeriod - now)))
                continue
            }
            recentPaths.removeAll()
            if !state.writing.isEmpty { unlocked { noteWriting([]) } }
            if pendingLocal && now >= localNotBefore {
                pendingLocal = false
                return notices.isOffline && now < nextNetwork ? .commit : .sync(local: true)
            }
            if syncRequested || now >= nextNetwork {
                syncRequested = false
                pendingLocal = false
                return .sync(local: false)
            }
            let due = pendingLocal ? min(nextNetwork, localNotBefore) : nextNetwork
            _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.01, due - now)))
        }
        return nil
    }

    /// Runs `body` with `condition` unlocked (the caller holds it).
    private func unlocked(_ body: () -> Void) {
        condition.unlock()
        body()
        condition.lock()
    }

    private func noteWriting(_ paths: [String]) {
        state.writing = Array(paths.prefix(20))
        save()
    }

    /// One attempt: look whether a sync may start, then commit (and sync), then report.
    private func attempt(_ step: Step) {
        condition.lock()
        attempts += 1
        condition.unlock()
        let session = VaultSession(vault: vault, workingDirectory: vault.root)
        session.defersHousekeeping = true
        defer { housekeep(session) }
        let remote = options.remote ?? session.config["remote"] ?? "origin"
        do throws(SheafError) {
            let repo = try session.requireRepository()
            if let operation = repo.operationInProgress() {
                wait(for: "a git \(operation.rawValue) is in progress: \(operation.howToFinish)", local: step.isLocal)
                return
            }
            let hasRemote: Bool
            do { hasRemote = try repo.remoteURL(remote) != nil } catch {
                throw SheafError("cannot read the remotes", path: vault.root, cause: error.description)
            }
            // A vault that only takes part in shares syncs them though it has no remote.
            let hasShares = !session.shareList().shares.isEmpty
            var failedShareFetches: [String: PendingFetch] = [:]
            if (hasRemote || hasShares) && !step.isCommit {
                // The network first, without the lock: an unreachable or silent remote (the
                // vault's or a share's) is found out while edits go on being indexed and other
                // commands run (see fetchWithoutLock, startShareFetchesWithoutLock).
                var fetchOptions = SyncOptions()
                fetchOptions.remote = remote
                setFetching(true)
                defer { setFetching(false) }
                let shareFetches = session.startShareFetchesWithoutLock(fetchOptions)
                defer { failedShareFetches = shareFetches() }
                do {
                    if hasRemote { try session.fetchWithoutLock(fetchOptions) }
                } catch where error.kind == .offline && !isStopping {
                    // The local changes that asked for this attempt are committed next, without
                    // the remote (kept for later), once the failure is recorded.
                    if step.isLocal {
                        condition.lock()
                        pendingLocal = true
                        condition.unlock()
                    }
                    throw error
                } catch {
                    // Anything else (a tracking ref another fetch holds locked, ...): the sync
                    // under the lock fetches again and reports what still fails.
                }
                if isStopping { return }  // stopped during the fetch: nothing more to say
            }
            guard waitForLock() else { return }
            defer { changed() }
            let status = try session.status()
            if holdWhileWritten(status.changes.filter { $0.kind != .removed }.map(\.path)) { return }
            let syncs = hasRemote || hasShares
            if !syncs || step.isCommit {
                let committed = try session.commit(settledFor: options.quietPeriod)
                if let committed { events(.committedLocally(summary: committed.summary)) }
                finishWithoutRemote(committed: committed, hasRemote: hasRemote, remote: remote)
                return
            }
            if case .sync(local: true) = step {
                // Only local changes asked: when git sees nothing to commit or push (the files a
                // pull just wrote, a save of the same bytes), the remote is not asked.
                if status.changes.isEmpty && status.ahead == 0 {
                    report(notices.wait(nil))
                    if state.waiting != nil {
                        state.waiting = nil
                        save()
                    }
                    return
                }
            }
            var syncOptions = SyncOptions()
            syncOptions.remote = remote
            syncOptions.settledFor = options.quietPeriod
            syncOptions.failedShareFetches = failedShareFetches
            let run = try session.sync(syncOptions)
            succeeded(run)
        } catch where error.kind == .unsettled {
            // A save landed after the check above and before the commit staged it: the quiet
            // period runs from it, then the sync runs again.
            _ = holdWhileWritten(error.details)
        } catch {
            if let operation = try? session.requireRepository().operationInProgress() {
                // A merge began while this attempt ran, and the commit refused: wait for it.
                wait(for: "a git \(operation.rawValue) is in progress: \(operation.howToFinish)", local: step.isLocal)
                return
            }
            failed(error, remote: remote)
        }
    }

    /// Whether a changed file was written within the quiet period, by what the disk says (its
    /// ctime, which no tool sets back): the watcher reports a save only once it is indexed, so a
    /// sync that began in between (the interval, or the quiet period of an earlier save ending)
    /// would commit a file an editor may still be writing. Such files count as reported now,
    /// with their age: the quiet period runs from their last change, then the sync runs.
    private func holdWhileWritten(_ paths: [String]) -> Bool {
        let ages = VaultSession.changedWithin(options.quietPeriod, paths, root: vault.root)
        guard let youngest = ages.values.min() else { return false }
        let monotonic = Self.monotonic()
        condition.lock()
        lastChange = max(lastChange ?? 0, monotonic - youngest)
        for (key, age) in ages { recentPaths[key] = max(recentPaths[key] ?? 0, monotonic - age) }
        pendingLocal = true
        condition.unlock()
        return true
    }

    /// The gc an attempt made due (VaultSession+Housekeeping), once the attempt let go of the lock:
    /// the packing without it, while saves go on being indexed and other commands run; then the gc
    /// under it, as a change to the vault `stop()` waits for (a watcher that ended during a gc
    /// would leave git at work in `.git` without Sheaf's lock). Failures are git's to report the
    /// next time: the repository is as it was.
    private func housekeep(_ session: VaultSession) {
        guard session.housekeepingDue, !isStopping,
              let collection = try? session.packForCollection(waitingForAnother: false), waitForLock() else { return }
        defer { changed() }
        try? session.collectGarbage(collection)
    }

    /// Waits for `.sheaf/lock` without holding it, looking every 0.2 s: another command (a
    /// manual sync, `mv`, `index --rebuild`) finishes first. False when `stop()` was called
    /// meanwhile (then no attempt begins). The sync then takes the lock itself (and waits,
    /// should another command take it again in between).
    private func waitForLock() -> Bool {
        var waited = false
        while true {
            do {
                if try VaultLock.take(vault.lockPath, wait: false) != nil { break }
            } catch {
                break  // the lock file cannot be opened: the sync's own attempt reports why
            }
            if !waited {
                waited = true
                state.waiting = "another sheaf command is changing the vault"
                save()
            }
            condition.lock()
            let stop = stopping
            if !stop { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.2)) }
            condition.unlock()
            if stop { return false }
        }
        if waited {
            state.waiting = notices.waiting
            save()
        }
        // From here the attempt changes the vault: `stop()` waits for it; after `stop()`, none starts.
        condition.lock()
        defer { condition.unlock() }
        if stopping { return false }
        changing = true
        return true
    }

    /// Ends what `waitForLock` began: `stop()` no longer waits.
    private func changed() {
        condition.lock()
        changing = false
        condition.broadcast()
        condition.unlock()
    }

    // MARK: outcomes

    private func succeeded(_ run: SyncRun) {
        let now = Self.monotonic()
        report(notices.wait(nil))
        report(notices.succeeded())
        if let pull = run.pull {
            report(notices.conflicts(pull.outcomes, arrived: run.arrivedConflicts))
            for event in notices.refusals(pull.refused) { events(event) }
        }
        for warning in run.warnings { events(.warning(warning)) }
        for event in notices.shares(run.shares) { events(event) }
        let pushed = (run.push?.pushed ?? 0) > 0
        let didSomething = run.committed != nil || !run.changes.isEmpty || pushed
        if didSomething {
            events(.synced(committed: run.committed != nil, pulled: run.changes, pushed: pushed))
        }
        nextNetwork = now + options.interval
        localNotBefore = 0
        let wall = Self.wallClock()
        state.lastAttempt = wall
        state.lastSuccess = wall
        state.lastResult = didSomething ? .synced : .upToDate
        state.lastMessage = Self.summary(run, pushed: pushed)
        state.offlineSince = nil
        state.waiting = nil
        save()
    }

    private func finishWithoutRemote(committed: VaultCommit?, hasRemote: Bool, remote: String) {
        let wall = Self.wallClock()
        if !hasRemote {
            report(notices.wait("the vault has no remote \(remote): add one with `sheaf remote add \(remote) URL`"))
            nextNetwork = Self.monotonic() + options.interval
        }
        state.lastAttempt = wall
        state.lastResult = .committed
        // lastResult already says "committed": the message is the commit's summary alone.
        state.lastMessage = committed.map(\.summary) ?? "nothing to commit"
        state.waiting = notices.waiting
        save()
    }

    private func failed(_ error: SheafError, remote: String) {
        let now = Self.monotonic()
        let (event, retryIn) = notices.failed(error, remote: remote, now: Self.wallClock())
        report(event)
        nextNetwork = now + retryIn
        // Offline, settled local changes are committed at once (kept for later); after another
        // failure they wait for the next attempt like everything else.
        localNotBefore = notices.isOffline ? 0 : nextNetwork
        let wall = Self.wallClock()
        state.lastAttempt = wall
        state.lastResult = error.kind == .offline ? .offline : .failed
        state.lastMessage = [error.what, error.path, error.cause].compactMap { $0 }.joined(separator: ": ")
        state.offlineSince = notices.offline?.since
        save()
    }

    /// No sync may start now (`reason`); looks again after `options.recheck` seconds. The local
    /// changes that asked for it stay pending.
    private func wait(for reason: String, local: Bool) {
        report(notices.wait(reason))
        let again = Self.monotonic() + options.recheck
        condition.lock()
        if local { pendingLocal = true }
        condition.unlock()
        localNotBefore = again
        nextNetwork = max(nextNetwork, again)
        state.waiting = reason
        save()
    }

    private func report(_ event: VaultEvent?) {
        if let event { events(event) }
    }

    /// Writes `.sheaf/watch-sync`; a failure to write it is not worth stopping a sync for.
    private func save() {
        let wall = Self.wallClock()
        state.updated = wall
        state.nextAttempt = wall + Int64(max(0, nextNetwork - Self.monotonic()).rounded(.up))
        try? state.write(vault)
    }

    static func summary(_ run: SyncRun, pushed: Bool) -> String {
        var parts: [String] = []
        if let committed = run.committed { parts.append("committed: " + committed.summary) }
        if !run.changes.isEmpty { parts.append("pulled \(run.changes.count) file\(run.changes.count == 1 ? "" : "s")") }
        if let conflicts = run.pull?.conflicts, conflicts > 0 { parts.append("\(conflicts) conflict\(conflicts == 1 ? "" : "s")") }
        if pushed, let n = run.push?.pushed { parts.append("pushed \(n) commit\(n == 1 ? "" : "s")") }
        return parts.isEmpty ? "up to date with \(run.remote)" : parts.joined(separator: ", ")
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func wallClock() -> Int64 { Int64(time(nil)) }
}

