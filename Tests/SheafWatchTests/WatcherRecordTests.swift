import Foundation
import SheafCore
import Testing
@testable import SheafWatch

/// Whether `condition` holds within a few seconds (a signal's effect is not immediate).
func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        usleep(10_000)
    }
    return false
}

@Suite struct WatcherRecordTests {
    func sleeper() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        return process
    }

    @Test func aRecordTellsRunningStoppedAndKilledProcessesApart() throws {
        let process = try sleeper()
        let pid = process.processIdentifier
        let record = try #require(WatcherRecord.of(pid: pid))
        #expect(record.state == .running)
        #expect(WatcherRecord(text: record.text) == record)
        kill(pid, SIGSTOP)
        #expect(eventually { record.state == .stopped })
        kill(pid, SIGCONT)
        kill(pid, SIGKILL)
        process.waitUntilExit()
        #expect(record.state == .gone)
    }

    @Test func aReusedPidIsNotTakenForTheWatcher() throws {
        let process = try sleeper()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let record = try #require(WatcherRecord.of(pid: process.processIdentifier))
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
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")  // one process holding the lock
        holder.arguments = ["-c", "import fcntl, sys, time; f = open(sys.argv[1], 'w'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(30)",
                            WatcherClaim.lockPath(box.vault)]
        try holder.run()
        #expect(eventually { WatcherClaim.isHeld(box.vault) })
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(!WatcherClaim.isHeld(box.vault))
    }
}
