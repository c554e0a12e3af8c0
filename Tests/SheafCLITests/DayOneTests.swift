// Issue 23: what a zk, Obsidian or git user meets on the first day, each test named after what broke.
import Foundation
import Testing
import TestSupport

@Suite struct DayOneTests {
    /// Item 1: with `"folder": "Daily"` in `.obsidian/daily-notes.json`, the second `sheaf daily`
    /// of the day said "a file is already there" (the folder joined with an empty subfolder gave
    /// `Daily//2026-11-27.md`, which the path guard refused, so the note looked missing).
    @Test func dailyOpensTheExistingNoteInAFolderOnItsSecondRun() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("{\"folder\": \"Daily\"}", to: vault + "/.obsidian/daily-notes.json")
        let first = CLI.run(["daily", "--no-edit"], in: vault)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Daily/"))
        CLI.write(CLI.read(vault + "/" + first.stdout.trimmingCharacters(in: .newlines)) + "\nwritten between runs\n",
                  to: vault + "/" + first.stdout.trimmingCharacters(in: .newlines))
        let second = CLI.run(["daily", "--no-edit"], in: vault)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(CLI.read(vault + "/" + first.stdout.trimmingCharacters(in: .newlines)).contains("written between runs"))
        // An existing note of another day, named by its date, opens the same way.
        CLI.write("# An old day\n", to: vault + "/Daily/2023-09-12.md")
        let old = CLI.run(["daily", "2023-09-12", "--no-edit"], in: vault)
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stdout == "Daily/2023-09-12.md\n")
        #expect(CLI.read(vault + "/Daily/2023-09-12.md") == "# An old day\n")
    }
}

/// Item 3: a note with a conflict file was invisible in `sheaf status` (text and `--json`), and
/// the device that pushed first only learned of the conflict by running `sheaf conflicts`.
@Suite struct ConflictsInStatusTests {
    @Test func statusNamesEachNoteWithAConflictFileOnBothDevices() throws {
        let replicas = Replicas(2, samples: false)
        replicas.write(0, "Start.md", "# Start\n\nfirst line from r0\n")
        replicas.write(1, "Start.md", "# Start\n\nfirst line from r1\n")
        #expect(replicas.sync(0).status == 0)
        let second = replicas.sync(1)
        #expect(second.status == 1, "\(second.stderr)")
        let conflictFile = try #require(replicas.conflictFiles(1).first)

        // The device that pushed first learns of it on its next sync, by name and by exit code.
        let first = replicas.sync(0)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.contains("conflict: Start.md has a conflict file from another device: \(conflictFile)"))
        let json = CLI.run(["sync", "--json"], in: replicas[0])
        #expect(json.status == 0, "nothing new arrived: \(json.stderr)")

        for device in 0..<2 {
            let status = CLI.run(["status"], in: replicas[device])
            #expect(status.status == 0)
            #expect(status.stdout.contains("notes with conflicts"), "\(status.stdout)")
            #expect(status.stdout.contains("conflict Start.md  (\(conflictFile))"), "\(status.stdout)")
            let parsed = try JSONSerialization.jsonObject(with: CLI.run(["status", "--json"], in: replicas[device]).output) as? [String: Any]
            let conflicts = parsed?["conflicts"] as? [[String: String]]
            #expect(conflicts == [["path": conflictFile, "original": "Start.md"]])
        }
        // Settled, it leaves status.
        #expect(CLI.run(["resolve", "Start.md", "--keep", "local"], in: replicas[0]).status == 0)
        #expect(!CLI.run(["status"], in: replicas[0]).stdout.contains("notes with conflicts"))
    }
}
