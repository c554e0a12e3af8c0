import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafWatch

@Suite struct WatcherRecordTests {
    func sleeper() throws -> pid_t {
        try #require(Spawn.start("/bin/sleep", ["30"], in: "/", environment: cleanEnvironment(home: "/")))
    }

    @Test func aRecordTellsRunningStoppedAndKilledProcessesApart() throws {
        let pid = try sleeper()
        let record = try #require(WatcherRecord.of(pid: pid))
        #expect(record.state == .running)
        #expect(WatcherRecord(text: record.text) == record)
        kill(pid, SIGSTOP)
        // A signal's effect is not immediate.
        #expect(eventually(timeout: 5) { record.state == .stopped })
        kill(pid, SIGCONT)
        kill(pid, SIGKILL)
        _ = Spawn.wait(pid)
        #expect(record.state == .gone)
    }

    @Test func aReusedPidIsNotTakenForTheWatcher() throws {
        let pid = try sleeper()
        defer { kill(pid, SIGKILL); _ = Spawn.wait(pid) }
        let record = try #require(WatcherRecord.of(pid: pid))
        // The same pid with another start time: another process that got the pid.
        let older = WatcherRecord(pid: record.pid, startTicks: record.startTicks - 1, bootID: record.bootID, since: record.since)
        #expect(older.state == .gone)
        let otherBoot = WatcherRecord(pid: record.pid, startTicks: record.startTicks, bootID: "another-boot", since: record.since)
        #expect(otherBoot.state == .gone)
    }

    @Test func aSecondClaimIsRefusedNamingTheWatcherAndTheLockDiesWithIt() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        #expect(!WatcherClaim.isHeld(box.vault))
        var claim: WatcherClaim? = try WatcherClaim.claim(box.vault)
        #expect(WatcherClaim.isHeld(box.vault))
        #expect(WatcherRecord.read(box.vault)?.pid == getpid())
        #expect(WatcherRecord.read(box.vault)?.state == .running)
        #expect(throws: SheafError.self) { try WatcherClaim.claim(box.vault) }
        do { _ = try WatcherClaim.claim(box.vault) } catch {
            #expect(error.cause?.contains("process \(getpid())") == true, "\(error)")
        }
        _ = claim
        claim = nil
        #expect(!WatcherClaim.isHeld(box.vault))
        // A lock held by another process that is killed -9 is free at once.
        let holder = try #require(Spawn.start(  // one process holding the lock
            "/usr/bin/python3", ["-c", "import fcntl, sys, time; f = open(sys.argv[1], 'w'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(30)",
                                 WatcherClaim.lockPath(box.vault)], in: "/", environment: cleanEnvironment(home: "/")))
        #expect(eventually(timeout: 5) { WatcherClaim.isHeld(box.vault) })
        kill(holder, SIGKILL)
        _ = Spawn.wait(holder)
        #expect(!WatcherClaim.isHeld(box.vault))
    }

    /// CI saw the lock still held just after the claim was let go: another test's child process,
    /// between its clone and its exec, held a copy of the lock's descriptor.
    @Test func aReleasedClaimIsFreeThoughAChildProcessHoldsACopyOfItsDescriptor() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        var claim: WatcherClaim? = try WatcherClaim.claim(box.vault)
        let fd = try #require(claim?.fd)
        let child = try #require(Spawn.start("/bin/sleep", ["30"], in: "/", environment: cleanEnvironment(home: "/"),
                                             inheriting: [fd]))
        defer { kill(child, SIGKILL); _ = Spawn.wait(child) }
        #expect(WatcherClaim.isHeld(box.vault))
        claim = nil
        #expect(!WatcherClaim.isHeld(box.vault))
        let next = try WatcherClaim.claim(box.vault)
        #expect(WatcherRecord.read(box.vault)?.pid == getpid())
        _ = next
    }
}
