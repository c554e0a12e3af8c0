// The background sync of `sheaf watch`, driven directly (the tests play the watcher's part by
// calling `localChanges`): real git repositories, a real bare remote that disappears (renamed
// away) and comes back, real git merges in progress, a real `sheaf sync` process holding the
// lock. Waits are short (fractions of a second), so each test runs in seconds.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct BackgroundSyncScheduleTests {
    @Test func backoffIsFiveFifteenSixtyThenEveryFiveMinutes() {
        let b = SyncBackoff.standard
        #expect((1...7).map { b.delay(afterFailures: $0) } == [5, 15, 60, 300, 300, 300, 300])
        #expect(b.delay(afterFailures: 0) == 0)
        #expect(b.scaled(0.01).delays == [0.05, 0.15, 0.6, 3])
        #expect(SyncBackoff(delays: []).delays == [5, 15, 60, 300])
    }

    @Test func offlineIsReportedOnceAndOnlineOnceWithTheWaitsGrowingAndResetOnSuccess() {
        var notices = BackgroundSyncNotices(backoff: .standard)
        let unreachable = SheafError("cannot reach the remote origin", path: "/r.git", cause: "no route", kind: .offline)
        var events: [VaultEvent] = []
        var waits: [Double] = []
        for t in 0..<5 {
            let (event, wait) = notices.failed(unreachable, remote: "origin", now: Int64(100 + t))
            if let event { events.append(event) }
            waits.append(wait)
        }
        #expect(events == [.offline(remote: "origin", cause: "no route", retryIn: 5)])
        #expect(waits == [5, 15, 60, 300, 300])
        #expect(notices.offline?.since == 100)
        #expect(notices.succeeded() == .online(remote: "origin"))
        #expect(notices.succeeded() == nil, "online is said once")
        let (again, wait) = notices.failed(unreachable, remote: "origin", now: 200)
        #expect(again == .offline(remote: "origin", cause: "no route", retryIn: 5), "a new outage starts the schedule over")
        #expect(wait == 5)
    }

    @Test func aProblemIsReportedOncePerDistinctErrorAndAgainAfterASuccess() {
        var notices = BackgroundSyncNotices(backoff: .standard)
        let locked = SheafError("the vault's git repository is locked", path: "/v/.git/index.lock")
        let refused = SheafError("the remote refused the push", path: "/r.git")
        #expect(notices.failed(locked, remote: "origin", now: 1).event == .problem(locked))
        #expect(notices.failed(locked, remote: "origin", now: 2).event == nil)
        #expect(notices.failed(refused, remote: "origin", now: 3).event == .problem(refused))
        #expect(notices.succeeded() == nil)
        #expect(notices.failed(refused, remote: "origin", now: 4).event == .problem(refused))
    }

    /// Outcomes as a pull reports them (read from their JSON form: their initialiser is SheafSync's).
    private func outcomes(_ json: String) throws -> [VaultChange] {
        try JSONDecoder().decode([VaultChange].self, from: Data(json.utf8))
    }

    @Test func aConflictIsReportedOncePerConflictFileAndAWaitOncePerReason() throws {
        var notices = BackgroundSyncNotices(backoff: .standard)
        let first = try outcomes(#"[{"kind":"conflict","path":"A.md","conflictFile":"A.conflict-1-b.md"},{"kind":"merged","path":"B.md"}]"#)
        #expect(notices.conflicts(first) == .conflicts(paths: ["A.md"]))
        #expect(notices.conflicts(first) == nil)
        let later = try outcomes(#"[{"kind":"conflict","path":"A.md","conflictFile":"A.conflict-2-b.md"}]"#)
        #expect(notices.conflicts(later) == .conflicts(paths: ["A.md"]), "a new conflict of the same note is news")
        #expect(notices.wait("a git merge is in progress") == .syncWaiting(reason: "a git merge is in progress"))
        #expect(notices.wait("a git merge is in progress") == nil)
        #expect(notices.wait(nil) == nil)
        #expect(notices.wait("a git merge is in progress") != nil, "a new wait after the last one ended is news")
    }
}

@Suite struct BackgroundSyncTests {
    @Test func twoClonesConvergeWithAConflictFileExactlyWhereEditsOverlapReportedOnce() throws {
        let c = try SyncedClones(2)
        let plan = "# Plan\n\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n"
        c.save(0, "Plan.md", plan)
        _ = try VaultSession(vault: c.vault(0), workingDirectory: c[0]).sync(SyncOptions())
        _ = try VaultSession(vault: c.vault(1), workingDirectory: c[1]).sync(SyncOptions())
        #expect(c.read(1, "Plan.md") == plan)

        let logs = [EventLog(), EventLog()]
        let syncs = (0..<2).map { i in BackgroundSync(vault: c.vault(i), options: quickOptions(), events: logs[i].record) }
        syncs.forEach { $0.start() }
        defer { syncs.forEach { $0.stop() } }

        // Both edit line "two" (overlap); c1 also edits line "nine" and Start.md, c0 adds a note.
        c.save(0, "Plan.md", plan.replacingOccurrences(of: "two\n", with: "two from c0\n"))
        c.save(0, "Ideas/New.md", "# New\n\nfrom c0\n")
        syncs[0].localChanges(VaultChangeSet(added: ["Ideas/New.md"], changed: ["Plan.md"]))
        c.save(1, "Plan.md", plan.replacingOccurrences(of: "two\n", with: "two from c1\n")
            .replacingOccurrences(of: "nine\n", with: "nine from c1\n"))
        c.save(1, "Start.md", "# Start\n\nfirst line, edited on c1\n")
        syncs[1].localChanges(VaultChangeSet(changed: ["Plan.md", "Start.md"]))

        let converged = eventually(timeout: 30) {
            c.isClean(0) && c.isClean(1) && c.head(0) == c.head(1) && c.head(0) == c.remoteHead() && c.files(0) == c.files(1)
        }
        #expect(converged, "c0: \(logs[0].events)\nc1: \(logs[1].events)")
        let conflicts = c.conflictFiles(0)
        #expect(conflicts.count == 1 && conflicts.first?.hasPrefix("Plan.conflict-") == true, "\(conflicts)")
        #expect(c.read(0, "Ideas/New.md") == "# New\n\nfrom c0\n" && c.read(1, "Ideas/New.md") == "# New\n\nfrom c0\n")
        #expect(c.read(0, "Start.md").contains("edited on c1"))
        #expect(c.read(0, "Plan.md").contains("nine from c1"), "the edit that does not overlap is merged")
        // Several more cycles run; the conflict stays reported once on each clone: by the one that
        // merged, and by the one that pushed first when the conflict file reaches it.
        let attempts = syncs.map(\.attemptCount)
        #expect(eventually(timeout: 10) { zip(syncs, attempts).allSatisfy { $0.attemptCount >= $1 + 3 } })
        #expect(logs[0].conflictPaths == ["Plan.md"] && logs[1].conflictPaths == ["Plan.md"],
                "\(logs[0].conflictPaths) \(logs[1].conflictPaths)")
        #expect(logs[0].problems.isEmpty && logs[1].problems.isEmpty, "\(logs[0].problems) \(logs[1].problems)")
        #expect(logs[0].offline == 0 && logs[1].offline == 0)
    }

    @Test func anUnreachableRemoteIsReportedOnceRetriedOnTheBackoffAndLocalCommitsArePushedWhenItReturns() throws {
        let c = try SyncedClones(1)
        let log = EventLog()
        var options = quickOptions(interval: 0.3, quiet: 0.1)
        options.backoff = SyncBackoff(delays: [0.1, 0.2, 0.3, 0.4])
        let sync = BackgroundSync(vault: c.vault(0), options: options, events: log.record)
        sync.start()
        defer { sync.stop() }
        #expect(eventually(timeout: 10) { BackgroundSyncState.read(c.vault(0))?.lastResult == .upToDate })

        let away = c.bare + ".away"
        try FileManager.default.moveItem(atPath: c.bare, toPath: away)
        c.save(0, "Offline.md", "# Offline\n\nwritten offline\n")
        sync.localChanges(VaultChangeSet(added: ["Offline.md"]))
        #expect(eventually(timeout: 10) { log.offline == 1 })
        let before = sync.attemptCount
        #expect(eventually(timeout: 10) { sync.attemptCount >= before + 4 }, "it keeps trying")
        #expect(log.offline == 1, "\(log.events)")
        #expect(log.events.contains(.offline(remote: "origin", cause: log.offlineCause ?? "", retryIn: 0.1)))
        // The change that asked for the failed attempt is committed locally, without the remote.
        #expect(c.isClean(0), "the settled change is committed locally")
        #expect(log.committedLocally == 1, "\(log.events)")
        let state = BackgroundSyncState.read(c.vault(0))
        #expect(state?.lastResult == .offline && state?.offlineSince != nil)

        // Another change while offline: committed at once, not held for the next attempt.
        c.save(0, "Offline2.md", "# Offline 2\n")
        sync.localChanges(VaultChangeSet(added: ["Offline2.md"]))
        #expect(eventually(timeout: 10) { log.committedLocally == 2 && c.isClean(0) }, "\(log.events)")
        let local = c.head(0)

        try FileManager.default.moveItem(atPath: away, toPath: c.bare)
        #expect(eventually(timeout: 10) { log.online == 1 && c.remoteHead() == local }, "\(log.events)")
        #expect(log.offline == 1 && log.online == 1)
        #expect(log.problems.isEmpty, "\(log.problems)")
        #expect(eventually(timeout: 5) { BackgroundSyncState.read(c.vault(0))?.offlineSince == nil })
    }

    @Test func aGitMergeInProgressStopsTheSyncAndIsReportedOnce() throws {
        let c = try SyncedClones(1)
        let head = c.head(0)
        try Data((head + "\n").utf8).write(to: URL(fileURLWithPath: c[0] + "/.git/MERGE_HEAD"))
        let log = EventLog()
        let sync = BackgroundSync(vault: c.vault(0), options: quickOptions(quiet: 0.1), events: log.record)
        sync.start()
        defer { sync.stop() }
        c.save(0, "During.md", "# During a merge\n")
        sync.localChanges(VaultChangeSet(added: ["During.md"]))
        #expect(eventually(timeout: 10) { sync.attemptCount >= 5 })
        #expect(log.waiting.count == 1 && log.waiting.first?.contains("git merge") == true, "\(log.events)")
        #expect(c.head(0) == head && !c.isClean(0), "nothing is committed in the middle of a merge")
        #expect(BackgroundSyncState.read(c.vault(0))?.waiting?.contains("git merge") == true)

        try FileManager.default.removeItem(atPath: c[0] + "/.git/MERGE_HEAD")
        #expect(eventually(timeout: 10) { c.isClean(0) && c.remoteHead() == c.head(0) && c.head(0) != head }, "\(log.events)")
        #expect(log.waiting.count == 1)
        #expect(log.problems.isEmpty, "\(log.problems)")
        #expect(eventually(timeout: 5) { BackgroundSyncState.read(c.vault(0))?.waiting == nil })
    }

    @Test func aManualSyncHoldingTheLockMakesTheBackgroundSyncWaitAndNothingIsCommittedTwice() throws {
        let c = try SyncedClones(1)
        let log = EventLog()
        let sync = BackgroundSync(vault: c.vault(0), options: quickOptions(quiet: 0.1), events: log.record)
        sync.start()
        defer { sync.stop() }
        #expect(eventually(timeout: 10) { BackgroundSyncState.read(c.vault(0))?.lastResult == .upToDate })
        let before = c.head(0)

        // This test holds `.sheaf/lock` (as a long command would); a real `sheaf sync` process
        // and the background sync both wait for it, then each runs once.
        var held = try VaultLock.take(c.vault(0).lockPath, wait: false)
        #expect(held != nil)
        c.save(0, "Manual.md", "# Manual\n\nsaved once\n")
        sync.localChanges(VaultChangeSet(added: ["Manual.md"]))
        let out = c.temp.path + "/manual.err"
        let manual = Spawn.start(sheafBinary, ["sync"], in: c[0], environment: cleanEnvironment(home: c.temp.path),
                                 stderr: out)
        #expect(manual != nil)
        #expect(eventually(timeout: 5) { BackgroundSyncState.read(c.vault(0))?.waiting == "another sheaf command is changing the vault" })
        // Both wait at the lock: the background sync said so above, and `sheaf sync` says so once
        // it has found the lock taken.
        #expect(eventually(timeout: 10) { ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("waiting for another sheaf command") })
        #expect(c.head(0) == before && !c.isClean(0), "nobody commits while the lock is held")
        held = nil
        let status = manual.map { Spawn.wait($0) }
        #expect(status == 0, "\((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
        #expect(eventually(timeout: 10) { c.isClean(0) && c.remoteHead() == c.head(0) })
        // The background sync's own attempt after the lock came free: one begun after this
        // point has ended once another has begun.
        let attempts = sync.attemptCount
        #expect(eventually(timeout: 10) { sync.attemptCount >= attempts + 2 })
        let commits = c.git(0, ["rev-list", "--count", "\(before)..HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(commits == "1", "one commit for one change, made by whichever got the lock first")
        #expect(c.git(0, ["log", "--format=%H", "--", "Manual.md"]).stdout.split(separator: "\n").count == 1)
        #expect(log.problems.isEmpty, "\(log.problems)")
        withExtendedLifetime(held) {}
    }

    @Test func anEditorSavingInALoopWhileTheSyncPullsLosesNoSave() throws {
        let c = try SyncedClones(2)
        let saves = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1" ? 400 : 24
        let start = "# Log\n\ntop\n\nfiller 1\nfiller 2\nfiller 3\nfiller 4\nfiller 5\nfiller 6\n\n## saves\n"
        c.save(0, "Log.md", start)
        _ = try VaultSession(vault: c.vault(0), workingDirectory: c[0]).sync(SyncOptions())
        _ = try VaultSession(vault: c.vault(1), workingDirectory: c[1]).sync(SyncOptions())
        let logs = [EventLog(), EventLog()]
        let syncs = (0..<2).map { i in
            BackgroundSync(vault: c.vault(i), options: quickOptions(interval: 0.2, quiet: 0.1), events: logs[i].record)
        }
        syncs.forEach { $0.start() }
        defer { syncs.forEach { $0.stop() } }

        // c1 writes the top of the note and another note meanwhile, so c0's sync pulls into the
        // note the editor keeps saving.
        let remoteDone = DispatchSemaphore(value: 0)
        let remote = syncs[1]
        let clones = c
        Thread.detachNewThread {
            for k in 0..<(saves / 3) {
                let text = clones.read(1, "Log.md")
                clones.save(1, "Log.md", text.replacingOccurrences(of: "top\n", with: "top\nremote \(k)\n"))
                clones.save(1, "Other.md", "# Other\n\nversion \(k)\n")
                remote.localChanges(VaultChangeSet(changed: ["Log.md", "Other.md"]))
                usleep(350_000)
            }
            remoteDone.signal()
        }
        // The editor: reads the file (an editor reloads what changed on disk), adds a line, saves
        // with a temporary file and a rename; the watcher reports it a moment later.
        var rng = SeededRandom(seed: 11)
        for n in 0..<saves {
            let text = c.read(0, "Log.md")
            c.save(0, "Log.md", text + "save \(n)\n")
            usleep(UInt32(20_000 + rng.next() % 60_000))
            syncs[0].localChanges(VaultChangeSet(changed: ["Log.md"]))
            usleep(UInt32(50_000 + rng.next() % 250_000))
        }
        remoteDone.wait()
        let converged = eventually(timeout: 30) {
            c.isClean(0) && c.isClean(1) && c.head(0) == c.head(1) && c.head(0) == c.remoteHead() && c.files(0) == c.files(1)
        }
        #expect(converged, "c0: \(logs[0].events)\nc1: \(logs[1].events)")
        // Every save is in the note, or (where an overlap was kept aside) in a conflict file.
        let everything = c.files(0).filter { $0.key.hasPrefix("Log") }.values.joined(separator: "\n")
        let lost = (0..<saves).filter { !everything.contains("save \($0)\n") }
        #expect(lost.isEmpty, "lost saves: \(lost)")
        #expect(logs[0].problems.isEmpty && logs[1].problems.isEmpty, "\(logs[0].problems) \(logs[1].problems)")
    }
}

extension EventLog {
    /// The cause the first offline event gave.
    var offlineCause: String? {
        events.lazy.compactMap { if case .offline(_, let cause, _) = $0 { cause } else { nil } }.first
    }
}

/// The `sheaf` executable built beside the tests.
let sheafBinary: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sheaf").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/sheaf").path
}()

@Suite struct BackgroundSyncLatencyTests {
    /// How long a save in one clone takes to reach the other's file, both syncing in the
    /// background with the default quiet period and `--interval 2` (the issue's figure). Long
    /// (about a minute): only with SHEAF_LONG_TESTS=1. Prints the figures; asserts only arrival.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1"))
    func aSaveReachesTheOtherCloneWithinSeconds() throws {
        let c = try SyncedClones(2)
        let options = BackgroundSyncOptions(interval: 2)
        let syncs = (0..<2).map { i in BackgroundSync(vault: c.vault(i), options: options, events: { _ in }) }
        syncs.forEach { $0.start() }
        defer { syncs.forEach { $0.stop() } }
        var delays: [Double] = []
        for n in 0..<12 {
            let start = Date()
            c.save(0, "Latency.md", "# Latency\n\nsave \(n)\n")
            syncs[0].localChanges(VaultChangeSet(changed: ["Latency.md"]))
            #expect(eventually(timeout: 30) { c.read(1, "Latency.md").contains("save \(n)\n") })
            delays.append(Date().timeIntervalSince(start))
            usleep(UInt32(100_000 + n * 150_000))  // saves land at different points of B's interval
        }
        let sorted = delays.sorted()
        print("save to other clone, s: p50 \(sorted[sorted.count / 2]) p95 \(sorted[Int(Double(sorted.count - 1) * 0.95)]) max \(sorted.last!)")
    }
}
