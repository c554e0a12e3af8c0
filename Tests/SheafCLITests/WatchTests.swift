// `sheaf watch` as a user runs it: a real watcher process on a real vault, edits made by real
// commands (`sed -i`, `mv`, an editor's temporary file renamed over the note, `git checkout`,
// `cp -r`), and read commands run beside it. What the watcher did is read from its `--json`
// event lines; whether a read command skipped its walk, from `-v` ("the watcher vouches").
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `sheaf watch --json --no-sync` process on a vault, stopped by the test.
final class WatcherProcess {
    let pid: pid_t
    let out: String
    let err: String
    private var status: Int32?

    init(vault: String, temp: TempDir, arguments: [String] = ["watch", "--json", "--no-sync"],
         environment: [String: String]? = nil) throws {
        let name = UUID().uuidString
        out = temp.path + "/watch-\(name).out"
        err = temp.path + "/watch-\(name).err"
        pid = try #require(Spawn.start(CLI.binary, arguments, in: vault,
                                       environment: environment ?? cleanEnvironment(home: temp.path), stdout: out, stderr: err))
    }

    /// The event lines so far, as JSON objects.
    var events: [[String: Any]] {
        CLI.read(out).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until `done` holds for the events (or `timeout` seconds pass); whether it did.
    @discardableResult
    func wait(timeout: Double = 30, until done: ([[String: Any]]) -> Bool) -> Bool {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if done(events) { return true }
            if exited != nil { return done(events) }
            usleep(20_000)
        }
        return done(events)
    }

    /// Waits for the watcher to have caught up (its first scan done).
    func waitUntilReady() -> Bool {
        wait { $0.contains { $0["kind"] as? String == "rescanned" } }
    }

    /// Every path the `indexed` and `rescanned` events named (added, changed, renamed to).
    func indexedPaths(_ events: [[String: Any]]) -> Set<String> {
        var paths = Set<String>()
        for event in events {
            guard let changes = event["changes"] as? [String: Any] else { continue }
            for key in ["added", "changed", "removed"] { paths.formUnion(changes[key] as? [String] ?? []) }
            for rename in changes["renamed"] as? [[String: String]] ?? [] { paths.insert(rename["to"] ?? "") }
        }
        return paths
    }

    /// The exit status once it has ended.
    var exited: Int32? {
        if status == nil { status = Spawn.poll(pid) }
        return status
    }

    /// Sends `signal` and waits for the end (killing it after `timeout`); the exit status.
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 30) -> Int32 {
        if let exited { return exited }
        kill(pid, signal)
        let start = Date()
        while exited == nil && Date().timeIntervalSince(start) < timeout { usleep(20_000) }
        if exited == nil { kill(pid, SIGKILL); status = Spawn.wait(pid) }
        return status ?? -1
    }

    deinit { _ = stop(SIGKILL, timeout: 5) }
}

@Suite struct WatchTests {
    /// Read commands wait up to 20 s for the watcher's answer, so that on a loaded machine the
    /// answer still comes and the test checks the watcher's index, not a walk.
    static let patient = ["SHEAF_WATCHER_WAIT_MS": "20000"]

    static func search(_ word: String, in vault: String, environment: [String: String] = patient) -> RunResult {
        runProcess(CLI.binary, ["search", "-v", "--paths", word], in: vault, environment: environment, deadline: 60)
    }

    static func vouched(_ r: RunResult) -> Bool { r.stderr.contains("the watcher vouches for the index") }

    /// A shell command that turns Inbox/Quince.md's "alpha word" into "bravo word": the same number
    /// of bytes, written in place (same inode), the old mtime put back.
    static let sameSizeSave = "touch -r Inbox/Quince.md /tmp/.sheaf-quince-$$ && printf '# Quince\\n\\nbravo word\\n' > Inbox/Quince.md"
        + " && touch -r /tmp/.sheaf-quince-$$ Inbox/Quince.md && rm /tmp/.sheaf-quince-$$"

    @Test func aSaveFollowedAtOnceByASearchFindsTheNewWordFromTheWatchersIndex() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        for round in 0..<5 {
            let word = "quasar\(round)word"
            CLI.write("# Fresh \(round)\n\nthe \(word) is here\n", to: vault + "/Inbox/Fresh.md")
            let r = Self.search(word, in: vault)
            #expect(r.stdout.split(separator: "\n").map(String.init) == ["Inbox/Fresh.md"], "round \(round): \(r.stderr)")
            #expect(Self.vouched(r), "round \(round): the search walked: \(r.stderr)")
            // The word before is gone from the index, not only the new one added.
            if round > 0 { #expect(Self.search("quasar\(round - 1)word", in: vault).stdout.isEmpty) }
        }
        #expect(watcher.stop() == 0)
    }

    /// Regression: a search that got no answer within its wait found `.sheaf/lock` taken by the
    /// watcher applying the batch that held its cookie, and answered from the index as it was,
    /// without the save just made ("another sheaf command is updating the index; answering from
    /// the index as it is"; 3 of 60 saves at load 6). Here the first wait is 1 ms, so the answer
    /// always comes after it, as on a loaded machine: the reader must wait for the busy watcher
    /// (or walk itself once the lock is free), never answer stale.
    @Test func aSearchRightAfterASaveWaitsForTheBusyWatcherInsteadOfAnsweringStale() throws {
        let seed = Int.random(in: 0..<1_000_000)
        var rng = SeededRandom(seed: seed)
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        for round in 0..<(longTests ? 200 : 20) {
            let word = "zephyr\(UInt32.random(in: 0...UInt32.max, using: &rng))word"
            let note = "Inbox/Fresh\(Int.random(in: 0..<3, using: &rng)).md"
            CLI.write("# Fresh \(round)\n\nthe \(word) is here\n", to: vault + "/" + note)
            let r = Self.search(word, in: vault, environment: ["SHEAF_WATCHER_WAIT_MS": "1"])
            #expect(r.stdout == note + "\n", "seed \(seed), round \(round): \(r.stderr)")
            #expect(!r.stderr.contains("answering from the index as it is"), "seed \(seed), round \(round): \(r.stderr)")
        }
        #expect(watcher.stop() == 0)
    }

    @Test func editsBySedMvAndAnEditorsTemporaryFileAreIndexed() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Moth\n\nplain words\n", to: vault + "/Inbox/Moth.md")
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")

        #expect(CLI.sh("sed -i 's/plain words/gibbous words/' Inbox/Moth.md", in: vault).status == 0)
        #expect(watcher.wait { watcher.indexedPaths($0).contains("Inbox/Moth.md") && $0.last?["kind"] as? String == "indexed" })
        var r = Self.search("gibbous", in: vault)
        #expect(r.stdout == "Inbox/Moth.md\n" && Self.vouched(r), "\(r.stderr)")

        #expect(CLI.sh("mv Inbox/Moth.md Work/Lamp.md", in: vault).status == 0)
        r = Self.search("gibbous", in: vault)
        #expect(r.stdout == "Work/Lamp.md\n" && Self.vouched(r), "\(r.stderr)")

        // An editor's save: the new text in a temporary file beside the note, renamed over it.
        #expect(CLI.sh("printf '# Lamp\\n\\nwaning words\\n' > Work/Lamp.md.tmp && mv Work/Lamp.md.tmp Work/Lamp.md", in: vault).status == 0)
        r = Self.search("waning", in: vault)
        #expect(r.stdout == "Work/Lamp.md\n" && Self.vouched(r), "\(r.stderr)")
        #expect(Self.search("gibbous", in: vault).stdout.isEmpty)
        #expect(Self.search("tmp", in: vault).stdout.isEmpty)  // the temporary file left no row
        #expect(watcher.stop() == 0)
    }

    /// Regression: the watcher applied a batch by the files' identities (size, mtime, inode), so
    /// a save of the same size that kept the old mtime (`cp -p`, `rsync -t`, or two saves within
    /// one clock tick) was named by the kernel's event and still not read: the watcher vouched
    /// for an index that missed it.
    @Test func aSaveThatKeepsTheSizeAndMtimeIsIndexedAllTheSame() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Quince\n\nalpha word\n", to: vault + "/Inbox/Quince.md")
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        #expect(Self.search("alpha", in: vault).stdout == "Inbox/Quince.md\n")
        #expect(CLI.sh(Self.sameSizeSave, in: vault).status == 0)
        let r = Self.search("bravo", in: vault)
        #expect(r.stdout == "Inbox/Quince.md\n" && Self.vouched(r), "\(r.stderr)")
        #expect(Self.search("alpha", in: vault).stdout.isEmpty)
        #expect(watcher.stop() == 0)
    }

    @Test func aGitCheckoutOfAnotherBranchIsIndexed() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let git = "git -c user.name=t -c user.email=t@example.com"
        #expect(CLI.sh("\(git) add -A && \(git) commit -qm base --allow-empty && \(git) checkout -qb other"
                       + " && printf '# Wombat\\n\\nmarsupial\\n' > Inbox/Wombat.md && rm -r Recipes"
                       + " && \(git) add -A && \(git) commit -qm other && \(git) checkout -q -", in: vault).status == 0)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        let recipes = Self.search("in:Recipes", in: vault).stdout
        #expect(!recipes.isEmpty)
        #expect(CLI.sh("\(git) checkout -q other", in: vault).status == 0)
        var r = Self.search("marsupial", in: vault)
        #expect(r.stdout == "Inbox/Wombat.md\n" && Self.vouched(r), "\(r.stderr)")
        let gone = Self.search("in:Recipes", in: vault)
        #expect(gone.stdout.isEmpty, "\(gone.stderr)\n\(CLI.read(watcher.out))")
        #expect(CLI.sh("\(git) checkout -q -", in: vault).status == 0)
        r = Self.search("marsupial", in: vault)
        #expect(r.stdout.isEmpty && Self.vouched(r), "\(r.stdout) \(r.stderr)")
        let back = Self.search("in:Recipes", in: vault).stdout
        #expect(Set(back.split(separator: "\n")) == Set(recipes.split(separator: "\n")))
        #expect(watcher.stop() == 0)
    }

    @Test func aCopyOfManyNotesIsOneBatchNotOnePerNote() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let source = temp.path + "/many"
        for i in 0..<400 { CLI.write("# Copied \(i)\n\nnumbat\(i) words\n", to: source + "/sub\(i % 4)/n\(i).md") }
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        let before = watcher.events.count
        #expect(CLI.sh("cp -r '\(source)' Copied", in: vault).status == 0)
        let copied = { (events: [[String: Any]]) in
            watcher.indexedPaths(Array(events.dropFirst(before))).filter { $0.hasPrefix("Copied/") }
        }
        #expect(watcher.wait { copied($0).count == 400 }, "\(copied(watcher.events).count) of 400")
        let batches = watcher.events.dropFirst(before).filter { watcher.indexedPaths([$0]).contains { $0.hasPrefix("Copied/") } }
        #expect(batches.count <= 2, "\(batches.count) batches for one cp -r")
        let r = Self.search("numbat399", in: vault)
        #expect(r.stdout == "Copied/sub3/n399.md\n" && Self.vouched(r), "\(r.stderr)")
        #expect(watcher.stop() == 0)
    }

    @Test func afterKill9ReadCommandsWalkAgainAndAreCorrect() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        #expect(watcher.stop(SIGKILL) == 128 + SIGKILL)
        CLI.write("# After\n\nthe axolotl arrived after the watcher died\n", to: vault + "/Inbox/After.md")
        let r = Self.search("axolotl", in: vault)
        #expect(r.stdout == "Inbox/After.md\n", "\(r.stderr)")
        #expect(!Self.vouched(r))
        // A new watcher starts (the lock died with the old one) and vouches again.
        let second = try WatcherProcess(vault: vault, temp: temp)
        #expect(second.waitUntilReady(), "\(CLI.read(second.err))")
        CLI.write("# After\n\nthe okapi too\n", to: vault + "/Inbox/After.md")
        let again = Self.search("okapi", in: vault)
        #expect(again.stdout == "Inbox/After.md\n" && Self.vouched(again), "\(again.stderr)")
        #expect(second.stop() == 0)
    }

    @Test func aStoppedWatcherIsNotWaitedForAndSearchWalks() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        // Idle: it has answered a reader, so it finished catching up and holds no lock.
        #expect(Self.vouched(Self.search("anything", in: vault)))
        kill(watcher.pid, SIGSTOP)
        defer { kill(watcher.pid, SIGCONT) }
        CLI.write("# Paused\n\nthe pangolin came while the watcher slept\n", to: vault + "/Inbox/Paused.md")
        // Even a patient reader does not wait for a stopped watcher (deadline: the test fails, not hangs).
        let r = Self.search("pangolin", in: vault)
        #expect(r.status == 0 && r.stdout == "Inbox/Paused.md\n", "\(r.stderr)")
        #expect(!Self.vouched(r))
        kill(watcher.pid, SIGCONT)
        #expect(watcher.stop() == 0)
    }

    @Test func aStuckWatcherIsWaitedForOnlyBriefly() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        // The watcher is stuck waiting for .sheaf/lock behind another process: it cannot apply
        // the change, so it never answers. The reader walks (it cannot take the lock either and
        // says it answers from the index as it is) within its short wait.
        let go = temp.path + "/go"
        let holder = try #require(Spawn.start("/usr/bin/flock", [vault + "/.sheaf/lock", "/bin/sh", "-c",
                                                                "while [ ! -e '\(go)' ]; do sleep 0.05; done"],
                                              in: vault, environment: ["PATH": "/usr/bin:/bin"]))
        defer { CLI.write("", to: go); _ = Spawn.wait(holder) }
        for _ in 0..<250 where CLI.sh("flock -n .sheaf/lock true", in: vault).status == 0 { usleep(20_000) }
        CLI.write("# Stuck\n\nthe tapir waits\n", to: vault + "/Inbox/Stuck.md")
        let r = Self.search("tapir", in: vault, environment: [:])
        #expect(r.status != 137 && !Self.vouched(r), "\(r.stderr)")
        CLI.write("", to: go)
        let after = Self.search("tapir", in: vault)
        #expect(after.stdout == "Inbox/Stuck.md\n", "\(after.stderr)")
        #expect(watcher.stop() == 0)
    }

    @Test func aSecondWatcherExits2NamingTheFirstsPid() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        let second = runProcess(CLI.binary, ["watch", "--no-sync"], in: vault, deadline: 60)
        #expect(second.status == 2)
        #expect(second.stderr.contains("process \(watcher.pid) already watches"), "\(second.stderr)")
        #expect(watcher.stop() == 0)
    }

    @Test func sigtermAndSigintStopCleanlyWithExit0() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        for signal in [SIGTERM, SIGINT] {
            let watcher = try WatcherProcess(vault: vault, temp: temp)
            #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
            CLI.write("# Busy \(signal)\n\nwritten just before the signal\n", to: vault + "/Inbox/Busy.md")
            #expect(watcher.stop(signal) == 0, "\(CLI.read(watcher.err))")
            #expect(watcher.events.last?["kind"] as? String == "stopped")
            #expect(!FileManager.default.fileExists(atPath: vault + "/.sheaf/watcher"))
            #expect(CLI.run(["index"], in: vault).status == 0)  // the index is whole
        }
        // Without --json: one line per event on stderr.
        let plain = try WatcherProcess(vault: vault, temp: temp, arguments: ["watch", "--no-sync"])
        #expect(plain.wait(until: { _ in CLI.read(plain.err).contains("rescanned") }), "\(CLI.read(plain.err))")
        #expect(plain.stop() == 0)
        #expect(CLI.read(plain.err).contains("sheaf: watching"))
        #expect(CLI.read(plain.err).contains("sheaf: stopped"))
        #expect(CLI.read(plain.out).isEmpty)
    }

    @Test func editingObsidiansExcludedFilesOrGitsInfoExcludeChangesWhatIsIndexed() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Secret\n\nthe narwhal hides here\n", to: vault + "/Private/Secret.md")
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        #expect(Self.search("narwhal", in: vault).stdout == "Private/Secret.md\n")

        CLI.write("{\"userIgnoreFilters\": [\"Private/\"]}\n", to: vault + "/.obsidian/app.json")
        var r = Self.search("narwhal", in: vault)
        #expect(r.stdout.isEmpty && Self.vouched(r), "\(r.stdout) \(r.stderr)")
        CLI.write("{\"userIgnoreFilters\": []}\n", to: vault + "/.obsidian/app.json")
        r = Self.search("narwhal", in: vault)
        #expect(r.stdout == "Private/Secret.md\n" && Self.vouched(r), "\(r.stderr)")

        #expect(CLI.sh("mkdir -p .git/info && echo 'Private/' >> .git/info/exclude", in: vault).status == 0)
        r = Self.search("narwhal", in: vault)
        #expect(r.stdout.isEmpty && Self.vouched(r), "\(r.stdout) \(r.stderr)")
        // The folder is no longer followed: a change in it is not indexed...
        CLI.write("# Secret\n\nthe narwhal and the dugong\n", to: vault + "/Private/Secret.md")
        #expect(Self.search("dugong", in: vault).stdout.isEmpty)
        // ... until the rule goes, and the folder is watched and scanned again.
        #expect(CLI.sh("sed -i '/Private/d' .git/info/exclude", in: vault).status == 0)
        r = Self.search("dugong", in: vault)
        #expect(r.stdout == "Private/Secret.md\n" && Self.vouched(r), "\(r.stderr)")
        CLI.write("# Secret\n\nthe beluga now\n", to: vault + "/Private/Secret.md")
        r = Self.search("beluga", in: vault)
        #expect(r.stdout == "Private/Secret.md\n" && Self.vouched(r), "\(r.stderr)")
        #expect(watcher.stop() == 0)
    }
}
