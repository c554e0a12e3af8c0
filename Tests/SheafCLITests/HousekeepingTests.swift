// `.git` is packed as git packs it after its own fetches: Sheaf's fetch runs git with auto-gc
// off and libgit2 never packs, so packs and loose objects grew without end (101 packs after 100
// pulls of 100 notes, each searched for every object a pull reads). The gc runs after the command
// has answered, in a detached `sheaf housekeep` (it took a first commit of an adopted 100k vault to
// 6 min in the foreground), which packs without the writer lock and runs the gc itself under it.
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct HousekeepingTests {
    private func packs(_ vault: String) -> Int {
        let out = Replicas.git(["count-objects", "-v"], in: vault).stdout
        let line = out.split(separator: "\n").first { $0.hasPrefix("packs: ") }
        return line.flatMap { Int($0.dropFirst("packs: ".count)) } ?? -1
    }

    @Test func packsPulledOneAfterAnotherAreGatheredAsGitWould() {
        let r = Replicas(2, samples: false)
        // Every fetch keeps its pack, and more than two packs are due for a gc.
        #expect(r.git(1, ["config", "transfer.unpackLimit", "1"]).status == 0)
        #expect(r.git(1, ["config", "gc.autoPackLimit", "2"]).status == 0)
        var expected = "# Start\n\nfirst line\n"
        for round in 1...4 {
            expected += "line \(round)\n"
            r.write(0, "Start.md", expected)
            #expect(r.sync(0).status == 0)
            let pulled = r.sync(1)
            #expect(pulled.status == 0, "\(pulled.stderr)")
            #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty && packs(r[1]) <= 2 }, "round \(round): \(packs(r[1])) packs")
        }
        #expect(r.file(1, "Start.md") == expected)
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
        // Turned off by the user's setting: nothing is gathered.
        #expect(r.git(1, ["config", "gc.auto", "0"]).status == 0)
        let before = packs(r[1])
        for round in 5...7 {
            expected += "line \(round)\n"
            r.write(0, "Start.md", expected)
            #expect(r.sync(0).status == 0)
            #expect(r.sync(1).status == 0)
        }
        #expect(packs(r[1]) == before + 3)
        #expect(r.file(1, "Start.md") == expected)
    }

    /// Replicas whose second vault keeps every fetched pack and is due for a gc at its second
    /// pack, with the paths a held step says it began at (`started`) and waits for (`release`, a
    /// minute at most).
    private func dueAtTheSecondPack() -> (Replicas, started: String, release: String) {
        let r = Replicas(2, samples: false)
        #expect(r.git(1, ["config", "transfer.unpackLimit", "1"]).status == 0)
        #expect(r.git(1, ["config", "gc.autoPackLimit", "1"]).status == 0)
        // A clone leaves its objects loose: one pull makes the first pack, the test's pull the second.
        r.write(0, "Start.md", "# Start\n\nfirst line\nzero line\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty })
        return (r, r.temp.path + "/held", r.temp.path + "/release")
    }

    /// `dueAtTheSecondPack`, with a `pre-auto-gc` hook (git runs it once it has decided a gc is
    /// due) that holds the gc itself.
    private func heldGC() -> (Replicas, started: String, release: String) {
        let (r, started, release) = dueAtTheSecondPack()
        hook(r[1], "touch '\(started)'\ni=0\nwhile [ ! -e '\(release)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n")
        return (r, started, release)
    }

    private func hook(_ vault: String, _ body: String) {
        let hooks = vault + "/.git/hooks"
        try? FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        TestFile.write("#!/bin/sh\n" + body, to: hooks + "/pre-auto-gc")
        chmod(hooks + "/pre-auto-gc", 0o755)
    }

    /// Replicas whose second vault is due for a gc by its loose objects alone, as after a first
    /// commit of many notes: `gc.auto=1` (git then counts it due at 2 loose objects in
    /// `objects/17`, the folder it samples), notes committed with the gc off until that folder
    /// holds 2, so the next command that adds objects makes it due.
    private func dueByLooseObjects() -> Replicas {
        let r = Replicas(2, samples: false)
        #expect(r.git(1, ["config", "gc.auto", "0"]).status == 0)
        var round = 0
        while looseObjectsSampled(r[1]) < 2 && round < 30 {
            for k in 0..<200 { r.write(1, "Bulk/note \(round)-\(k).md", "# Note \(round) \(k)\n") }
            #expect(CLI.run(["commit"], in: r[1]).status == 0)
            round += 1
        }
        #expect(looseObjectsSampled(r[1]) >= 2)
        #expect(r.git(1, ["config", "gc.auto", "1"]).status == 0)
        return r
    }

    private func looseObjectsSampled(_ vault: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: vault + "/.git/objects/17")) ?? []).count
    }

    private func looseObjects(_ vault: String) -> Int {
        Int(Replicas.git(["count-objects"], in: vault).stdout.split(separator: " ").first ?? "") ?? -1
    }

    /// A `git` first on PATH for the commands run with `environment` (and the housekeepers they
    /// start): it appends each run's arguments to `log` (and, before a `gc`, the objects git
    /// counts then) and, with `holding`, holds the first `repack` or `gc` until `release` exists
    /// (a minute at most), having made `started`.
    private func gitShim(_ r: Replicas, holding: Bool) -> (environment: [String: String], log: String, started: String, release: String) {
        let shims = r.temp.path + "/shims", log = r.temp.path + "/git.log"
        let started = r.temp.path + "/held", release = r.temp.path + "/release"
        try? FileManager.default.createDirectory(atPath: shims, withIntermediateDirectories: true)
        TestFile.write("""
            #!/bin/sh
            echo "$*" >> '\(log)'
            for a in "$@"; do
              case "$a" in
                repack|gc)
                  [ "$a" = gc ] && /usr/bin/git count-objects -v | grep in-pack >> '\(log)'
                  if \(holding) && mkdir '\(started)' 2>/dev/null; then
                    i=0; while [ ! -e '\(release)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
                  fi
                  break;;
              esac
            done
            exec /usr/bin/git "$@"

            """, to: shims + "/git")
        chmod(shims + "/git", 0o755)
        var environment = cleanEnvironment(home: r.temp.path)
        environment["PATH"] = shims + ":" + environment["PATH", default: "/usr/bin:/bin"]
        return (environment, log, started, release)
    }

    /// The housekeepers' git runs the shim logged: each line's words.
    private func gitRuns(_ log: String) -> [[String]] {
        CLI.read(log).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// Regression: the first write command after one that made a gc due waited for the whole gc
    /// (`sheaf index` took 5.5-6 s after the first commit of a 10k vault, minutes at 100k), because
    /// the housekeeper held the writer lock while git packed. The packing now runs without it,
    /// and the gc under the lock then finds the objects packed.
    @Test func aCommandRightAfterOneThatMadeAGcDueDoesNotWaitForThePacking() {
        let r = dueByLooseObjects()
        let inPackBefore = Replicas.git(["count-objects", "-v"], in: r[1]).stdout
        let (environment, log, started, release) = gitShim(r, holding: true)
        r.write(1, "First.md", "# First\n")
        #expect(runProcess(CLI.binary, ["commit"], in: r[1], environment: environment, deadline: 20).status == 0)
        #expect(eventually(timeout: 20) { FileManager.default.fileExists(atPath: started) }, "the housekeeper's git never ran")
        // The housekeeper's packing is held: a write command goes on beside it.
        r.write(1, "Second.md", "# Second\n")
        let commit = runProcess(CLI.binary, ["commit"], in: r[1], deadline: 20)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(r.git(1, ["log", "--format=%s", "-1", "--", "Second.md"]).stdout.contains("1 added"))
        #expect(!housekeepers(r[1]).isEmpty)
        TestFile.write("", to: release)
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty })
        // The repack (no -d) ran first; when the gc began, the loose objects were in a pack.
        let runs = gitRuns(log)
        let repack = runs.firstIndex { $0.contains("repack") }, gc = runs.firstIndex { $0.contains("gc") }
        #expect(repack != nil && gc != nil && repack! < gc!, "\(runs)")
        #expect(runs.first { $0.contains("repack") }.map { !$0.contains("-d") } == true)
        let inPack = { (text: String) in Int(text.split(separator: "\n").first { $0.hasPrefix("in-pack: ") }?.dropFirst(9) ?? "") ?? 0 }
        let atGC = runs.first { $0.first == "in-pack:" }.flatMap { Int($0.last ?? "") } ?? 0
        #expect(atGC >= inPack(inPackBefore) + 200, "\(runs)")  // 200 notes a round at least
        #expect(looseObjects(r[1]) == 0)
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
        #expect(r.git(1, ["status", "--porcelain"]).stdout.isEmpty)
    }

    /// Regression: the packing ahead of the lock ran even when the repository's `pre-auto-gc`
    /// hook said "not now" (git runs it only inside the gc), so each commit added a pack.
    @Test func aPreAutoGcHookThatSaysNotNowKeepsTheObjectsAsTheyAre() {
        let r = dueByLooseObjects()
        hook(r[1], "exit 1\n")
        let packsBefore = packs(r[1])
        for round in 1...2 {
            r.write(1, "Round \(round).md", "# Round \(round)\n")
            #expect(CLI.run(["commit"], in: r[1]).status == 0)
            #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty })
        }
        #expect(packs(r[1]) == packsBefore)
        #expect(looseObjectsSampled(r[1]) >= 2)
    }

    /// A gc due by its count of packs rewrites them all under the lock, whatever ran first: no
    /// packing runs ahead of it then (it would only add one more pack).
    @Test func aGcDueByItsCountOfPacksIsNotPackedAheadOfTheLock() {
        let (r, _, _) = dueAtTheSecondPack()
        let (environment, log, _, _) = gitShim(r, holding: false)
        r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\n")
        #expect(r.sync(0).status == 0)
        #expect(runProcess(CLI.binary, ["sync"], in: r[1], environment: environment, deadline: 20).status == 0)
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty && packs(r[1]) == 1 }, "\(packs(r[1])) packs")
        let runs = gitRuns(log)
        #expect(runs.contains { $0.contains("gc") } && !runs.contains { $0.contains("repack") }, "\(runs)")
    }

    /// The watcher's sync makes a gc due as a command's does, and packs without the lock too: a
    /// command run meanwhile goes on; the gc then completes under the lock, on the sync thread.
    @Test func aWatcherWhoseSyncMadeAGcDuePacksWithoutHoldingTheVault() throws {
        let r = dueByLooseObjects()
        let (environment, _, started, release) = gitShim(r, holding: true)
        let watcher = try WatcherProcess(vault: r[1], temp: r.temp, arguments: ["watch", "--json", "--interval", "1"],
                                         environment: environment)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        r.write(1, "First.md", "# First\n")
        #expect(eventually(timeout: 30) { FileManager.default.fileExists(atPath: started) }, "\(CLI.read(watcher.err))")
        r.write(1, "Second.md", "# Second\n")
        let commit = runProcess(CLI.binary, ["commit"], in: r[1], deadline: 20)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(r.git(1, ["log", "--format=%s", "-1", "--", "Second.md"]).stdout.contains("1 added"))
        TestFile.write("", to: release)
        #expect(eventually(timeout: 60) { looseObjects(r[1]) == 0 && housekeepers(r[1]).isEmpty }, "\(looseObjects(r[1])) loose")
        #expect(watcher.stop() == 0, "\(CLI.read(watcher.err))")
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
    }

    @Test func aSyncAnswersBeforeTheGitGcItMadeDueFinishes() {
        let (r, started, release) = heldGC()
        r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\n")
        #expect(r.sync(0).status == 0)
        // The gc is held until `release`: a sync that ran it in the foreground would not return.
        let pulled = runProcess(CLI.binary, ["sync"], in: r[1], deadline: 20)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(r.file(1, "Start.md") == "# Start\n\nfirst line\nsecond line\n")
        #expect(eventually(timeout: 20) { FileManager.default.fileExists(atPath: started) }, "the gc never started")
        #expect(!housekeepers(r[1]).isEmpty)
        // A command started while the gc runs waits for it, and both complete.
        r.write(1, "Second.md", "# Second\n")
        let err = r.temp.path + "/commit.err"
        let commit = Spawn.start(CLI.binary, ["commit"], in: r[1], environment: cleanEnvironment(home: r[1]), stderr: err)
        usleep(300_000)
        TestFile.write("", to: release)
        #expect(commit.map { Spawn.wait($0) } == 0, "\(CLI.read(err))")
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty })
        #expect(packs(r[1]) == 1)
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
        #expect(r.git(1, ["status", "--porcelain"]).stdout.isEmpty)
        #expect(r.git(1, ["log", "--format=%s", "-1", "--", "Second.md"]).stdout.contains("1 added"))
    }

    /// A housekeeper killed at either step (kill -9 of `sheaf housekeep` and every process under
    /// it: the git held before it packs, or git gc and its hook) leaves a vault whose next sync
    /// works and whose next gc completes.
    @Test(arguments: ["packing", "gc"])
    func aKilledHousekeeperLeavesAVaultTheNextSyncUses(step: String) {
        let r: Replicas, started: String, release: String
        if step == "packing" {
            r = dueByLooseObjects()
            let shim = gitShim(r, holding: true)
            (started, release) = (shim.started, shim.release)
            r.write(1, "First.md", "# First\n")
            #expect(runProcess(CLI.binary, ["commit"], in: r[1], environment: shim.environment, deadline: 20).status == 0)
        } else {
            (r, started, release) = heldGC()
            r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\n")
            #expect(r.sync(0).status == 0)
            #expect(runProcess(CLI.binary, ["sync"], in: r[1], deadline: 20).status == 0)
        }
        #expect(eventually(timeout: 20) { FileManager.default.fileExists(atPath: started) }, "the held step never began")
        let tree = housekeepers(r[1]).flatMap { descendants(of: $0) + [$0] }
        #expect(!tree.isEmpty)
        for pid in tree { kill(pid, SIGKILL) }
        #expect(eventually(timeout: 20) { housekeepers(r[1]).isEmpty })
        TestFile.write("", to: release)
        r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\nthird line\n")
        #expect(r.sync(0).status == 0)
        let next = runProcess(CLI.binary, ["sync"], in: r[1], deadline: 30)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(r.file(1, "Start.md") == "# Start\n\nfirst line\nsecond line\nthird line\n")
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty && (step == "gc" ? packs(r[1]) == 1 : looseObjects(r[1]) == 0) },
                "\(packs(r[1])) packs, \(looseObjects(r[1])) loose")
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
    }
}

/// The pids of the `sheaf housekeep` processes working on `vault`.
private func housekeepers(_ vault: String) -> [pid_t] {
    let resolved = URL(fileURLWithPath: vault).resolvingSymlinksInPath().path
    return processes().compactMap { pid, arguments in
        arguments.contains("housekeep") && arguments.contains(where: { $0 == vault || $0 == resolved }) ? pid : nil
    }
}

/// Every process below `root`, from the parent pids in /proc.
private func descendants(of root: pid_t) -> [pid_t] {
    var parents: [pid_t: pid_t] = [:]
    for (pid, _) in processes() {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
    }
    var found: [pid_t] = [], frontier = [root]
    while let next = frontier.popLast() {
        let children = parents.compactMap { $0.value == next ? $0.key : nil }
        found += children
        frontier += children
    }
    return found
}

/// Running processes with their arguments (/proc/PID/cmdline).
private func processes() -> [(pid_t, [String])] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
        guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
        return (pid, data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }
}
