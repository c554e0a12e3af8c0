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
    private func heldGC() -> (Replicas, environment: [String: String], started: String, release: String) {
        let (r, started, release) = dueAtTheSecondPack()
        let hooks = r[1] + "/.git/hooks"
        try? FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        TestFile.write("#!/bin/sh\ntouch '\(started)'\ni=0\n"
                       + "while [ ! -e '\(release)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n",
                       to: hooks + "/pre-auto-gc")
        chmod(hooks + "/pre-auto-gc", 0o755)
        return (r, cleanEnvironment(home: r[1]), started, release)
    }

    /// `dueAtTheSecondPack`, with a `git` first on PATH that holds the housekeeper's first git run
    /// (`repack`, or the `gc` itself): the sync run with `environment` starts that housekeeper.
    private func heldHousekeeping() -> (Replicas, environment: [String: String], started: String, release: String) {
        let (r, started, release) = dueAtTheSecondPack()
        let shims = r.temp.path + "/shims"
        try? FileManager.default.createDirectory(atPath: shims, withIntermediateDirectories: true)
        TestFile.write("""
            #!/bin/sh
            for a in "$@"; do
              case "$a" in
                repack|gc)
                  if mkdir '\(started)' 2>/dev/null; then
                    i=0; while [ ! -e '\(release)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
                  fi
                  break;;
              esac
            done
            exec /usr/bin/git "$@"

            """, to: shims + "/git")
        chmod(shims + "/git", 0o755)
        var environment = cleanEnvironment(home: r[1])
        environment["PATH"] = shims + ":" + environment["PATH", default: "/usr/bin:/bin"]
        return (r, environment, started, release)
    }

    /// Regression: the first write command after one that made a gc due waited for the whole gc
    /// (`sheaf index` took 5.4 s after the first commit of a 10k vault, minutes at 100k), because
    /// the housekeeper held the writer lock while git packed. The packing now runs without it.
    @Test func aCommandRightAfterOneThatMadeAGcDueDoesNotWaitForThePacking() {
        let (r, environment, started, release) = heldHousekeeping()
        r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\n")
        #expect(r.sync(0).status == 0)
        #expect(runProcess(CLI.binary, ["sync"], in: r[1], environment: environment, deadline: 20).status == 0)
        #expect(eventually(timeout: 20) { FileManager.default.fileExists(atPath: started) }, "the housekeeper's git never ran")
        // The housekeeper's first git is held: a write command goes on beside it.
        r.write(1, "Second.md", "# Second\n")
        let commit = runProcess(CLI.binary, ["commit"], in: r[1], deadline: 20)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(r.git(1, ["log", "--format=%s", "-1", "--", "Second.md"]).stdout.contains("1 added"))
        #expect(!housekeepers(r[1]).isEmpty)
        TestFile.write("", to: release)
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty })
        #expect(packs(r[1]) == 1)
        #expect(r.git(1, ["count-objects"]).stdout.hasPrefix("0 objects"), "\(r.git(1, ["count-objects"]).stdout)")
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
        #expect(r.git(1, ["status", "--porcelain"]).stdout.isEmpty)
    }

    /// The watcher's sync makes a gc due as a command's does, and packs without the lock too: a
    /// command run meanwhile goes on; the gc then completes under the lock, on the sync thread.
    @Test func aWatcherWhoseSyncMadeAGcDuePacksWithoutHoldingTheVault() throws {
        let (r, environment, started, release) = heldHousekeeping()
        let watcher = try WatcherProcess(vault: r[1], temp: r.temp, arguments: ["watch", "--json", "--interval", "1"],
                                         environment: environment)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\n")
        #expect(r.sync(0).status == 0)
        #expect(eventually(timeout: 30) { FileManager.default.fileExists(atPath: started) }, "\(CLI.read(watcher.err))")
        #expect(r.file(1, "Start.md") == "# Start\n\nfirst line\nsecond line\n")
        r.write(1, "Second.md", "# Second\n")
        let commit = runProcess(CLI.binary, ["commit"], in: r[1], deadline: 20)
        #expect(commit.status == 0, "\(commit.stderr)")
        TestFile.write("", to: release)
        #expect(eventually(timeout: 60) { packs(r[1]) == 1 }, "\(packs(r[1])) packs")
        #expect(watcher.stop() == 0, "\(CLI.read(watcher.err))")
        #expect(r.git(1, ["fsck", "--no-progress"]).status == 0)
        #expect(r.git(1, ["log", "--format=%s", "-1", "--", "Second.md"]).stdout.contains("1 added"))
    }

    @Test func aSyncAnswersBeforeTheGitGcItMadeDueFinishes() {
        let (r, _, started, release) = heldGC()
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
    /// it: the held git, or git gc and its hook) leaves a vault whose next sync works and whose
    /// next gc completes.
    @Test(arguments: ["packing", "gc"])
    func aKilledHousekeeperLeavesAVaultTheNextSyncUses(step: String) {
        let (r, environment, started, release) = if step == "packing" { heldHousekeeping() } else { heldGC() }
        r.write(0, "Start.md", "# Start\n\nfirst line\nsecond line\n")
        #expect(r.sync(0).status == 0)
        #expect(runProcess(CLI.binary, ["sync"], in: r[1], environment: environment, deadline: 20).status == 0)
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
        #expect(eventually(timeout: 60) { housekeepers(r[1]).isEmpty && packs(r[1]) == 1 }, "\(packs(r[1])) packs")
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
