// A writer session's start after a killed one (Repository+StaleLocks.swift).
import Foundation
import Testing
import TestSupport
@testable import SheafGit

@Suite struct LockSessionTests {
    /// CI saw the sync after a `kill -9` fail on `refs/remotes/origin/main.lock`: the killed
    /// Sheaf's `git fetch` outlived it and took the tracking ref's lock after the next session
    /// had looked for locks, so that session's own write of the ref failed.
    @Test func aSessionAfterAKilledOneWaitsForTheGitItLeftRunning() throws {
        let dir = TempDir.make("lock-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let work = dir + "/w"
        let repo = try Repository.create(workTree: work)
        let record = dir + "/git-session"
        var killed = LockSessionRecord.current(existingLocks: [])
        killed.processStart = "0"  // another start time: the process that wrote it is gone
        killed.write(to: record)
        #expect(LockSessionRecord.read(record)?.isDead == true)

        // A git at work in the repository and no child of this process (a killed Sheaf's fetch is
        // nobody's), which takes the tracking ref's lock a moment later and then lets it go.
        let refs = ".git/refs/remotes/origin"
        let script = "sleep 0.5; mkdir -p \(refs); touch \(refs)/main.lock; sleep 0.5; mv \(refs)/main.lock \(refs)/main.done"
        _ = runProcess("/bin/sh", ["-c", "git -c 'alias.slow=!\(script)' slow </dev/null >/dev/null 2>&1 &"], in: work)
        let roots = [URL(fileURLWithPath: work).resolvingSymlinksInPath().path]
        #expect(eventually(timeout: 10) { Repository.gitProcessRunning(in: roots) })

        let check = repo.beginLockSession(record: record)
        defer { repo.endLockSession(record: record) }
        #expect(!Repository.gitProcessRunning(in: roots), "the session began while the killed session's git still ran")
        #expect(check.held.isEmpty && check.removed.isEmpty, "\(check)")
        #expect(FileManager.default.fileExists(atPath: work + "/" + refs + "/main.done"))
    }

    /// This process's own git children (a share's fetch begun before the writer lock) are not
    /// taken for another process's git.
    @Test func aGitThisProcessStartedIsNotAnotherProcesssGit() throws {
        let dir = TempDir.make("lock-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let work = dir + "/w"
        _ = try Repository.create(workTree: work)
        let roots = [URL(fileURLWithPath: work).resolvingSymlinksInPath().path]
        let child = try #require(Spawn.start("/usr/bin/git", ["-c", "alias.slow=!sleep 30", "slow"], in: work,
                                             environment: cleanEnvironment(home: dir)))
        defer { kill(child, SIGKILL); _ = Spawn.wait(child) }
        // Spawn's shell becomes git: wait until it has, then ask.
        #expect(eventually(timeout: 10) {
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/exe")) ?? "").hasSuffix("/git")
        })
        #expect(Repository.isDescendant(child, of: getpid()))
        #expect(!Repository.gitProcessRunning(in: roots))
    }
}

/// A push while another git writes the tracking ref (the watcher's fetch beside a `sheaf sync`):
/// libgit2's push updated `refs/remotes/origin/main` itself, gave up at once on its lock, and the
/// push the remote had taken was reported as failed.
@Suite struct TrackingRefLockTests {
    func pushable(_ dir: String) throws -> (Repository, String) {
        let bare = dir + "/remote.git"
        _ = runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare], in: dir)
        let repo = try Repository.create(workTree: dir + "/w")
        try repo.addRemote(name: "origin", url: bare)
        TestFile.replace("one\n", at: dir + "/w/a.md")
        try repo.stageAll()
        try repo.commitIndex(message: "first", fallbackName: "dev")
        return (repo, bare)
    }

    /// The lock file another git makes while it writes `refs/remotes/origin/main`.
    func holdTrackingRefLock(_ dir: String) throws -> String {
        try FileManager.default.createDirectory(atPath: dir + "/w/.git/refs/remotes/origin", withIntermediateDirectories: true)
        let lock = dir + "/w/.git/refs/remotes/origin/main.lock"
        TestFile.replace("", at: lock)
        return lock
    }

    @Test func aPushSucceedsWhileAnotherProcessHoldsTheTrackingRefsLock() throws {
        let dir = TempDir.make("tracking-lock")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (repo, bare) = try pushable(dir)
        let lock = try holdTrackingRefLock(dir)
        try repo.push(remote: "origin", branch: "main", options: TransferOptions(home: dir))
        let head = try #require(try repo.head()).id
        #expect(GitCLI.output(["--git-dir", bare, "rev-parse", "main"], in: dir) == head)
        #expect(FileManager.default.fileExists(atPath: lock), "the other git's lock is its own")
    }

    @Test func aTrackingRefIsSetOnceAnotherProcessLetsGoOfItsLock() throws {
        let dir = TempDir.make("tracking-lock")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (repo, _) = try pushable(dir)
        let lock = try holdTrackingRefLock(dir)
        // Another git's brief hold: it lets go a moment later.
        _ = runProcess("/bin/sh", ["-c", "(sleep 0.3; rm -f '\(lock)') >/dev/null 2>&1 &"], in: dir)
        let head = try #require(try repo.head()).id
        try repo.setReference("refs/remotes/origin/main", to: head, message: "test")
        #expect(try repo.referenceTarget("refs/remotes/origin/main") == head)
    }
}
