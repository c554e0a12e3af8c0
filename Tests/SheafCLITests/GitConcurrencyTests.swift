// Sheaf beside plain git in the same vault: a `git commit` waiting for its editor, a merge or
// rebase left unfinished, and the lock files a killed sync leaves. Real git, real processes.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that accepts connections (the kernel's backlog does) and never
/// answers: a remote that keeps a sync waiting in its fetch.
final class SilentListener {
    let fd: Int32
    let port: UInt16

    init() {
        let (fd, port) = Loopback.bind(listen: 8)!
        self.fd = fd
        self.port = UInt16(port)
    }

    /// Waits until a client has connected (at most `seconds`).
    func waitForClient(seconds: Double) -> Bool {
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&poll, 1, Int32(seconds * 1000)) == 1
    }

    deinit { close(fd) }
}

@Suite struct GitConcurrencyTests {
    /// A script editor for `git commit` that waits until `go` exists, then writes the message.
    static func waitingEditor(_ folder: String) -> (editor: String, go: String) {
        let editor = folder + "/editor.sh", go = folder + "/go"
        CLI.write("#!/bin/sh\nwhile [ ! -e '\(go)' ]; do sleep 0.05; done\necho 'plain git commit' > \"$1\"\n", to: editor)
        chmod(editor, 0o755)
        return (editor, go)
    }

    /// Regression: `sheaf sync` deleted the `.git/index.lock` of a `git commit` waiting in its
    /// editor (git does not keep the lock open meanwhile), then committed under it.
    @Test func syncLeavesTheIndexLockOfAGitCommitWaitingForItsEditor() throws {
        let r = Replicas(1, samples: false)
        let (editor, go) = Self.waitingEditor(r.temp.path)
        // `git commit -a` (or with paths) keeps `index.lock` as the index it commits while the
        // editor runs; a plain `git commit` of what is staged has no lock by then.
        r.write(0, "Start.md", "# Start\n\ncommitted by git\n")
        let git = try #require(Spawn.start("/usr/bin/git", ["commit", "-a"], in: r[0], environment: [
            "PATH": "/usr/bin:/bin", "HOME": r.temp.path, "GIT_EDITOR": editor, "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Plain Git", "GIT_AUTHOR_EMAIL": "git@example.invalid",
            "GIT_COMMITTER_NAME": "Plain Git", "GIT_COMMITTER_EMAIL": "git@example.invalid"]))
        var finished = false
        defer { if !finished { CLI.write("", to: go); _ = Spawn.wait(git) } }
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: r[0] + "/.git/index.lock") { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: r[0] + "/.git/index.lock"))
        r.write(0, "Other.md", "# Other\n\nwritten while git waits\n")

        for command in [["sync"], ["commit"]] {
            let result = CLI.run(command, in: r[0])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("locked"), "\(result.stderr)")
            #expect(result.stderr.contains("index.lock"))
            #expect(FileManager.default.fileExists(atPath: r[0] + "/.git/index.lock"), "\(command) deleted git's lock")
        }
        // git finishes its commit with what it staged; then Sheaf syncs the rest.
        CLI.write("", to: go)
        #expect(Spawn.wait(git) == 0)
        finished = true
        #expect(r.git(0, ["log", "-1", "--format=%s"]).stdout.contains("plain git commit"))
        let after = r.sync(0)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(r.git(0, ["status", "--porcelain"]).stdout.isEmpty)
    }

    /// Regression: `sheaf sync` during a `git merge` stopped on conflicts committed the work
    /// tree with one parent (markers and all) and merged again, making a second conflict file.
    /// Every committing command refuses while a merge, rebase, cherry-pick or revert is unfinished.
    @Test(arguments: ["merge", "rebase", "cherry-pick", "revert"])
    func commitsRefuseDuringAnUnfinishedGitOperation(_ operation: String) {
        let r = Replicas(2, samples: false)
        r.write(0, "Start.md", "# Start\n\nfirst line from r0\n")
        #expect(r.sync(0).status == 0)
        r.write(1, "Start.md", "# Start\n\nfirst line from r1\n")
        #expect(r.git(1, ["commit", "-qam", "r1 edit"]).status == 0)
        #expect(r.git(1, ["fetch", "-q", "origin"]).status == 0)
        let stopped: RunResult
        switch operation {
        case "merge": stopped = r.git(1, ["merge", "origin/main"])
        case "rebase": stopped = r.git(1, ["rebase", "origin/main"])
        case "cherry-pick": stopped = r.git(1, ["cherry-pick", "origin/main"])
        default:
            // Reverting the commit before r1's edit conflicts with that edit.
            r.write(1, "Start.md", "# Start\n\nfirst line from r1, again\n")
            #expect(r.git(1, ["commit", "-qam", "r1 again"]).status == 0)
            stopped = r.git(1, ["revert", "--no-edit", "HEAD~1"])
        }
        #expect(stopped.status != 0, "git \(operation) did not stop on a conflict")
        let head = r.git(1, ["rev-parse", "HEAD"]).stdout
        let before = CLI.snapshot(r[1])
        for command in [["commit"], ["sync"], ["pull"], ["push"], ["rm", "Start"]] {
            let result = CLI.run(command, in: r[1])
            #expect(result.status == 2, "\(operation) \(command): \(result.stderr)")
            #expect(result.stderr.contains("git \(operation) is in progress"), "\(result.stderr)")
            #expect(result.stderr.contains("--abort") || result.stderr.contains("git commit"))
        }
        #expect(r.git(1, ["rev-parse", "HEAD"]).stdout == head)
        #expect(CLI.snapshot(r[1]) == before, "a command changed the work tree")
        #expect(r.conflictFiles(1).isEmpty)
    }

    /// Starts `sheaf sync` of r[0] (Start.md edited) against a remote that never answers, waits
    /// until the sync has made its commit (its fetch runs meanwhile), then leaves .git/index.lock
    /// as a writer killed in that moment would; returns the sync's pid, still running.
    static func syncWaitingForItsFetchWithALockLeft(_ r: Replicas, _ listener: SilentListener) throws -> pid_t {
        #expect(r.git(0, ["remote", "set-url", "origin", "git://127.0.0.1:\(listener.port)/vault.git"]).status == 0)
        r.write(0, "Start.md", "# Start\n\nedited\n")
        let sync = try #require(Spawn.start(CLI.binary, ["sync"], in: r[0],
                                            environment: ["PATH": "/usr/bin:/bin", "HOME": r.temp.path]))
        #expect(listener.waitForClient(seconds: 30), "the sync never reached the remote")
        // The fetch runs while the sync commits: the lock appears once that commit is made, and
        // only where no lock is (O_EXCL, as git makes one). Overwriting the sync's own live
        // index.lock made libgit2 rename the test's empty file to .git/index (seen once in CI).
        let start = Date()
        while r.git(0, ["status", "--porcelain"]).stdout.contains("Start.md") && Date().timeIntervalSince(start) < 30 { usleep(20_000) }
        var lock: Int32 = -1
        while lock < 0 && Date().timeIntervalSince(start) < 30 {
            lock = open(r[0] + "/.git/index.lock", O_WRONLY | O_CREAT | O_EXCL, 0o644)
            if lock < 0 { usleep(5_000) }
        }
        #expect(lock >= 0, "no moment without another index.lock")
        close(lock)
        return sync
    }

    /// kill -9 of that sync, then, with the remote back, another edit and a sync, which must
    /// clear the lock the killed one left and commit.
    static func killAndSyncAgain(_ sync: pid_t, _ r: Replicas) {
        kill(sync, SIGKILL)
        #expect(Spawn.wait(sync) == 128 + SIGKILL)
        #expect(r.git(0, ["remote", "set-url", "origin", r.bare]).status == 0)
        r.write(0, "Start.md", "# Start\n\nedited again\n")
        let result = r.sync(0)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: r[0] + "/.git/index.lock"))
        #expect(r.git(0, ["status", "--porcelain"]).stdout.isEmpty)
    }

    /// Regression (kept from the first lock fix): a sync killed while it may hold a git lock
    /// left `.git/index.lock`, and every later sync failed with "the index is locked". The sync
    /// here is really killed (kill -9) while it waits on a silent remote, and the lock file
    /// appears during its session, as libgit2's own would.
    @Test func staleIndexLockLeftByAKilledSyncIsCleared() throws {
        let r = Replicas(1, samples: false)
        let listener = SilentListener()
        let sync = try Self.syncWaitingForItsFetchWithALockLeft(r, listener)
        Self.killAndSyncAgain(sync, r)
    }

    /// Seen in `killedSyncsLoseNothing` under load: a sync killed while its `git fetch` (of a
    /// local remote) ran left index.lock, and the fetch, its child, outlived it for a moment; the
    /// retry saw a git process in the repository, kept the lock and refused ("locked, 0 s old").
    /// Now the retry waits for git processes to end when only they keep such a lock.
    @Test func aLockAKilledSyncLeftIsClearedOnceAGitProcessStillRunningEnds() throws {
        let r = Replicas(1, samples: false)
        let listener = SilentListener()
        let sync = try Self.syncWaitingForItsFetchWithALockLeft(r, listener)
        // A git process in the repository that holds no lock and ends in 1.5 s, as the killed
        // sync's fetch would.
        let git = try #require(Spawn.start("/bin/sh", ["-c", "sleep 1.5 | git hash-object --stdin"], in: r[0],
                                           environment: ["PATH": "/usr/bin:/bin", "HOME": r.temp.path]))
        Self.killAndSyncAgain(sync, r)
        #expect(Spawn.wait(git) == 0)
    }

    /// A lock file that appeared while no Sheaf ran is some other program's: never removed,
    /// and the message names it.
    @Test func aLockNoSheafMadeIsReportedNotRemoved() {
        let r = Replicas(1, samples: false)
        CLI.write("", to: r[0] + "/.git/refs/heads/main.lock")
        r.write(0, "Start.md", "# Start\n\nedited\n")
        let result = r.sync(0)
        #expect(result.status == 2)
        #expect(result.stderr.contains("main.lock"), "\(result.stderr)")
        #expect(result.stderr.contains("if none is running, delete the file"))
        #expect(FileManager.default.fileExists(atPath: r[0] + "/.git/refs/heads/main.lock"))
    }
}
