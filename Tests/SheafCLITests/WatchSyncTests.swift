// Two devices each running `sheaf watch` (the watcher and its background sync in one process, as
// a user runs it) on clones of one bare repository: an edit saved in one reaches the other's
// file, and edits that overlap end as one conflict file beside the note, reported once.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct WatchSyncTests {
    static func kinds(_ events: [[String: Any]], _ kind: String) -> [[String: Any]] {
        events.filter { $0["kind"] as? String == kind }
    }

    static func waitFor(_ timeout: Double = 60, _ done: () -> Bool) -> Bool {
        eventually(timeout: timeout, done)
    }

    /// When the background sync of the watcher in `vault` last ended an attempt (seconds since
    /// 1970) and how (`upToDate`, `offline`...), as it records each one in `.sheaf/watch-sync`;
    /// nil before the first.
    static func lastAttempt(_ vault: String) -> (time: Int, result: String)? {
        guard let data = FileManager.default.contents(atPath: vault + "/.sheaf/watch-sync"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let time = (object["lastAttempt"] as? NSNumber)?.intValue else { return nil }
        return (time, object["lastResult"] as? String ?? "")
    }

    /// Waits until the watcher in `vault` has ended an attempt (one that ended as `result`, when
    /// given) at least `seconds` after the last one recorded now: the events of the attempts
    /// meanwhile are out, since it reports an attempt's events before it records the attempt.
    static func waitForAttempts(_ seconds: Int, in vault: String, result: String? = nil, timeout: Double = 60) -> Bool {
        let since = lastAttempt(vault)?.time ?? 0
        return waitFor(timeout) {
            guard let last = lastAttempt(vault) else { return false }
            return last.time >= since + seconds && (result == nil || last.result == result)
        }
    }

    /// How many uncommitted changes `sheaf status --json` lists.
    static func uncommitted(_ vault: String) -> Int? {
        let out = CLI.run(["status", "--json"], in: vault).stdout
        let object = try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        return (object?["changes"] as? [Any])?.count
    }

    @Test func twoWatchersSyncAnEditAcrossAndLeaveOneConflictFileWhereEditsOverlap() throws {
        let replicas = Replicas(2, samples: false)
        let watchers = try (0..<2).map {
            try WatcherProcess(vault: replicas[$0], temp: replicas.temp, arguments: ["watch", "--json", "--interval", "1"])
        }
        for w in watchers { #expect(w.waitUntilReady(), "\(CLI.read(w.err))") }

        // A save in r0 reaches r1's file, through r0's commit and push and r1's periodic fetch.
        replicas.edit(0, "Start.md") { $0 + "\nfrom the first device\n" }
        #expect(Self.waitFor { replicas.file(1, "Start.md").contains("from the first device") },
                "r0: \(CLI.read(watchers[0].err))\nr1: \(CLI.read(watchers[1].err))")
        #expect(Self.kinds(watchers[0].events, "synced").contains { $0["pushed"] as? Bool == true })
        // r1's watcher indexed what its pull wrote: a search there finds it without a walk.
        let found = WatchTests.search("device", in: replicas[1])
        #expect(found.stdout == "Start.md\n", "\(found.stderr)")

        // Both change the same line at once: one conflict file, the same on both devices.
        #expect(Self.waitFor { replicas.identical(0, 1) })
        replicas.edit(0, "Start.md") { $0.replacingOccurrences(of: "first line", with: "first line, said zero") }
        replicas.edit(1, "Start.md") { $0.replacingOccurrences(of: "first line", with: "first line, said one") }
        #expect(Self.waitFor(90) {
            replicas.conflictFiles(0).count == 1 && replicas.conflictFiles(1).count == 1 && replicas.identical(0, 1)
        }, "r0: \(CLI.read(watchers[0].err))\nr1: \(CLI.read(watchers[1].err))\n\(replicas.differences(0, 1))")
        // Nothing lost: one side's words in the note, the other's in the conflict file.
        let note = replicas.file(0, "Start.md")
        let conflict = replicas.file(0, replicas.conflictFiles(0)[0])
        #expect(note.contains("said zero") != note.contains("said one"))
        #expect((note + conflict).contains("said zero") && (note + conflict).contains("said one"))
        #expect(!hasConflictMarkers(note))

        // Each device reports the conflict once (the one that merged, and the one that pushed
        // first when the conflict file arrives); further fetch cycles do not report it again.
        #expect(Self.waitFor(30) { watchers.allSatisfy { !Self.kinds($0.events, "conflicts").isEmpty } })
        // Further fetch cycles (`--interval 1`: about three in three seconds) report nothing new.
        for i in 0..<2 { #expect(Self.waitForAttempts(3, in: replicas[i])) }
        for w in watchers { #expect(Self.kinds(w.events, "conflicts").count == 1, "\(Self.kinds(w.events, "conflicts"))") }
        for w in watchers { #expect(w.stop() == 0) }
        // The watchers committed everything: nothing waits uncommitted in either clone.
        for i in 0..<2 { #expect(Self.uncommitted(replicas[i]) == 0) }
    }

    @Test func aRemoteThatGoesAwayIsReportedOnceAndTheEditArrivesWhenItComesBack() throws {
        let replicas = Replicas(2, samples: false)
        let watcher = try WatcherProcess(vault: replicas[0], temp: replicas.temp, arguments: ["watch", "--json", "--interval", "1"])
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        // The first sync at start has run (it records each attempt for `sheaf status`).
        #expect(Self.waitFor { FileManager.default.fileExists(atPath: replicas[0] + "/.sheaf/watch-sync") })
        let away = replicas.bare + ".away"
        #expect(rename(replicas.bare, away) == 0)
        replicas.edit(0, "Start.md") { $0 + "\nwritten offline\n" }
        // The first failure says so; the next try (after the backoff's first wait, 5 s) does not.
        #expect(Self.waitFor(30) { !Self.kinds(watcher.events, "offline").isEmpty }, "\(CLI.read(watcher.err))")
        #expect(Self.waitFor(30) { Self.lastAttempt(replicas[0])?.result == "offline" })
        #expect(Self.waitForAttempts(1, in: replicas[0], result: "offline"))
        #expect(Self.kinds(watcher.events, "offline").count == 1, "\(watcher.events)")
        // The edit was committed meanwhile (kept in history), not left waiting.
        #expect(Self.waitFor(10) { Self.uncommitted(replicas[0]) == 0 })

        #expect(rename(away, replicas.bare) == 0)
        #expect(Self.waitFor(60) { !Self.kinds(watcher.events, "online").isEmpty }, "\(CLI.read(watcher.err))")
        #expect(watcher.stop() == 0)
        #expect(replicas.sync(1).status == 0)
        #expect(replicas.file(1, "Start.md").contains("written offline"))
        #expect(Self.kinds(watcher.events, "online").count == 1)
    }

    /// Regression: the background sync took `.sheaf/lock` before reaching the remote, so a
    /// remote that answers nothing (a pulled cable, a dead server) held the lock for the whole
    /// transfer time limit at every retry: `sheaf commit`, `new` and `mv` waited, and the
    /// watcher could not index edits meanwhile. It now fetches first, without the lock.
    @Test func aSilentRemoteDoesNotHoldTheVaultsLockWhileTheBackgroundSyncWaitsOnIt() throws {
        let replicas = Replicas(1, samples: false)
        let listener = SilentListener()
        #expect(replicas.git(0, ["remote", "set-url", "origin", "git://127.0.0.1:\(listener.port)/vault.git"]).status == 0)
        var environment = cleanEnvironment(home: replicas.temp.path)
        environment["SHEAF_TRANSFER_TIMEOUT"] = "60"
        let out = replicas.temp.path + "/watch.out", err = replicas.temp.path + "/watch.err"
        let pid = try #require(Spawn.start(CLI.binary, ["watch", "--json", "--interval", "1"], in: replicas[0],
                                           environment: environment, stdout: out, stderr: err))
        defer { if Spawn.poll(pid) == nil { kill(pid, SIGKILL); _ = Spawn.wait(pid) } }
        // The sync at start is now waiting on the silent remote.
        #expect(listener.waitForClient(seconds: 30), "the background sync never reached the remote: \(CLI.read(err))")
        replicas.write(0, "Start.md", "# Start\n\nmarmalade edit\n")
        let started = Date()
        let commit = CLI.run(["commit"], in: replicas[0])
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(!commit.stderr.contains("waiting for another sheaf command"), "\(commit.stderr)")
        #expect(Date().timeIntervalSince(started) < 30, "sheaf commit waited for the background sync's transfer")
        // The watcher indexed the edit meanwhile: a search is answered from its index.
        let found = WatchTests.search("marmalade", in: replicas[0])
        #expect(found.stdout == "Start.md\n" && WatchTests.vouched(found), "\(found.stderr)")
        // Ctrl-C is not held up by the fetch either (it holds nothing of the vault).
        let stopping = Date()
        kill(pid, SIGINT)
        var status: Int32?
        _ = Self.waitFor(30) { status = Spawn.poll(pid); return status != nil }
        #expect(status == 0, "\(CLI.read(err))")
        #expect(Date().timeIntervalSince(stopping) < 20, "the watcher waited for the silent remote before stopping")
    }

    /// Regression: the background sync fetched the vault's remote without the lock, but each
    /// share's under it: a share host that answers nothing held `.sheaf/lock` for the transfer's
    /// time limit at every attempt, and its failure was never said in `sheaf watch`'s output.
    /// Shares now fetch without the lock too; the sync under the lock takes their failure as it
    /// came, and each share's failure is reported once.
    @Test func aSilentShareRemoteDoesNotHoldTheVaultsLockAndItsFailureIsReported() throws {
        let replicas = Replicas(1, samples: false)
        let shareRemote = replicas.temp.path + "/shared.git"
        runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", shareRemote], in: replicas.temp.path)
        CLI.write("# Shared\n\nshared line\n", to: replicas[0] + "/Shared/Plan.md")
        let shared = CLI.run(["share", "Shared", "--remote", shareRemote], in: replicas[0])
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(replicas.sync(0).status == 0)
        let listener = SilentListener()
        let zones = try FileManager.default.contentsOfDirectory(atPath: replicas[0] + "/.sheaf/shares")
        let zone = try #require(zones.first { !$0.hasSuffix(".join-base") })
        GitCLI.run(["--git-dir=" + replicas[0] + "/.sheaf/shares/" + zone + "/repo.git", "remote", "set-url", "origin",
                    "git://127.0.0.1:\(listener.port)/shared.git"], in: replicas[0])
        var environment = cleanEnvironment(home: replicas.temp.path)
        environment["SHEAF_TRANSFER_TIMEOUT"] = "20"
        let out = replicas.temp.path + "/watch.out", err = replicas.temp.path + "/watch.err"
        let pid = try #require(Spawn.start(CLI.binary, ["watch", "--json", "--interval", "1"], in: replicas[0],
                                           environment: environment, stdout: out, stderr: err))
        defer { if Spawn.poll(pid) == nil { kill(pid, SIGKILL); _ = Spawn.wait(pid) } }
        #expect(listener.waitForClient(seconds: 30), "the background sync never reached the share's remote: \(CLI.read(err))")
        replicas.write(0, "Start.md", "# Start\n\nquince edit\n")
        let commit = CLI.run(["commit"], in: replicas[0])
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(!commit.stderr.contains("waiting for another sheaf command"), "\(commit.stderr)")
        // Once the share's fetch gives up, the vault still syncs and the share's failure is said.
        #expect(Self.waitFor(60) { CLI.read(out).contains("\"problem\"") && CLI.read(out).contains("Shared") },
                "\(CLI.read(out))\n\(CLI.read(err))")
        #expect(GitCLI.output(["--git-dir=" + replicas.bare, "show", "main:Start.md"], in: replicas.temp.path).contains("quince"))
        kill(pid, SIGINT)
        _ = Self.waitFor(30) { Spawn.poll(pid) != nil }
    }
}
