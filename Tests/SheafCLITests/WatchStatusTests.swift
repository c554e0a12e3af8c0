// `sheaf status` on a watched vault: a real process stands in for the watcher (its record is
// written the way `sheaf watch` writes one), and `.sheaf/watch-sync` as the background sync
// writes it. Running, stopped (SIGSTOP) and gone (killed) are each told apart, in text and JSON.
import Foundation
import SheafCore
import SheafWatch
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct WatchStatusTests {
    /// The name and state letter (`R`, `S`, `T` for stopped...) of a process, from /proc/PID/stat.
    static func procStat(_ pid: pid_t) -> (name: String, state: Character)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].drop { $0 == " " }
        guard let state = rest.first else { return nil }
        return (String(text[text.index(after: open)..<close]), state)
    }

    @Test func statusShowsWhetherAWatcherRunsSinceWhenItsLastSyncAndWhatWaits() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let none = CLI.run(["status"], in: vault)
        #expect(none.status == 0 && none.stdout.contains("no watcher runs"), "\(none.stdout)")

        guard let pid = Spawn.start("/bin/sleep", ["60"], in: temp.path, environment: cleanEnvironment(home: temp.path)) else {
            Issue.record("cannot start sleep"); return
        }
        var reaped = false
        defer { if !reaped { kill(pid, SIGKILL); _ = Spawn.wait(pid) } }
        // exec'd: the record names sleep, not the shell that starts it
        #expect(eventually(timeout: 10) { Self.procStat(pid)?.name == "sleep" })
        let record = try #require(WatcherRecord.of(pid: pid))
        try record.write(Vault(root: vault))
        let state = """
            {"pid":\(pid),"updated":1700000000,"lastAttempt":1700000000,"lastResult":"offline",\
            "lastMessage":"cannot reach the remote origin","offlineSince":1699990000,"nextAttempt":1700000300,\
            "waiting":"a git merge is in progress","writing":["Inbox/Draft.md"]}
            """
        CLI.write(state + "\n", to: vault + "/.sheaf/watch-sync")

        let running = CLI.run(["status"], in: vault, environment: ["TZ": "UTC"])
        #expect(running.status == 0)
        #expect(running.stdout.contains("watched by process \(pid) since"), "\(running.stdout)")
        #expect(running.stdout.contains("last sync: 2023-11-14 22:13, offline: cannot reach the remote origin"), "\(running.stdout)")
        #expect(running.stdout.contains("offline since 2023-11-14 19:26"))
        #expect(running.stdout.contains("waiting: a git merge is in progress"))
        #expect(running.stdout.contains("waiting for files being written: Inbox/Draft.md"))
        let json = try #require(try JSONSerialization.jsonObject(with: CLI.run(["status", "--json"], in: vault).output) as? [String: Any])
        let watcher = try #require(json["watcher"] as? [String: Any])
        #expect(watcher["state"] as? String == "running")
        #expect(watcher["pid"] as? Int == Int(pid))
        #expect(watcher["syncIsCurrent"] as? Bool == true)
        let sync = try #require(watcher["sync"] as? [String: Any])
        #expect(sync["lastResult"] as? String == "offline")
        #expect(sync["offlineSince"] as? String == "2023-11-14T19:26:40Z")
        #expect(sync["waiting"] as? String == "a git merge is in progress")

        kill(pid, SIGSTOP)
        #expect(eventually(timeout: 10) { Self.procStat(pid)?.state == "T" })
        let stopped = CLI.run(["status"], in: vault)
        #expect(stopped.stdout.contains("is stopped (suspended)"), "\(stopped.stdout)")
        kill(pid, SIGCONT)

        kill(pid, SIGKILL)
        _ = Spawn.wait(pid)
        reaped = true
        let gone = CLI.run(["status"], in: vault)
        #expect(gone.stdout.contains("no watcher runs (process \(pid)"), "\(gone.stdout)")
        #expect(gone.stdout.contains("last background sync: 2023-11-14 22:13, offline"), "\(gone.stdout)")
        #expect(!gone.stdout.contains("waiting"), "what a gone watcher waited for is not current: \(gone.stdout)")
        let goneJSON = try #require(try JSONSerialization.jsonObject(with: CLI.run(["status", "--json"], in: vault).output) as? [String: Any])
        #expect((goneJSON["watcher"] as? [String: Any])?["state"] as? String == "gone")
        #expect((goneJSON["watcher"] as? [String: Any])?["syncIsCurrent"] as? Bool == false)
    }
}
