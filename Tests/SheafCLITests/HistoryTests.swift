// `sheaf log`, `show NOTE@REV` and `restore` (docs/sync.md, "History is the trash"): git history is
// the trash. Driven through the built binary, with renames made by the shell as a user would.
import Foundation
import TestSupport
import Testing

@Suite struct HistoryTests {
    let first = "# Plan\n\nfirst text\n"
    let second = "# Plan\n\nfirst text\nsecond text\n"

    /// A committed sample vault in which `Notes/Plan.md` was then added, edited, and moved by the
    /// shell to `Archive/Old plan.md`, each step its own commit.
    func renamedNote(_ temp: TempDir) -> String {
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        CLI.write(first, to: vault + "/Notes/Plan.md")
        #expect(CLI.run(["commit"], in: vault).status == 0)
        CLI.write(second, to: vault + "/Notes/Plan.md")
        #expect(CLI.run(["commit"], in: vault).status == 0)
        #expect(CLI.sh("mkdir Archive && mv Notes/Plan.md 'Archive/Old plan.md'", in: vault).status == 0)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        return vault
    }

    @Test func logOfANoteFollowsARenameMadeInTheShell() throws {
        let temp = TempDir()
        let vault = renamedNote(temp)
        let log = CLI.run(["log", "Archive/Old plan.md"], in: vault)
        #expect(log.status == 0, "\(log.stderr)")
        let lines = log.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(log.stdout)")
        #expect(lines.first?.contains("renamed") == true && lines.first?.contains("[Notes/Plan.md -> Archive/Old plan.md]") == true)
        #expect(lines.dropFirst().first?.contains("edited") == true)
        #expect(lines.last?.contains("added") == true && lines.last?.hasSuffix("[Notes/Plan.md]") == true)

        let json = CLI.run(["log", "Archive/Old plan.md", "--json"], in: vault)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1 && object["path"] as? String == "Archive/Old plan.md")
        let commits = try #require(object["commits"] as? [[String: Any]])
        #expect(commits.map { $0["kind"] as? String } == ["renamed", "edited", "added"])
        #expect(commits.map { $0["path"] as? String } == ["Archive/Old plan.md", "Notes/Plan.md", "Notes/Plan.md"])
        let head = Replicas.git(["rev-parse", "HEAD"], in: vault).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(commits.first?["id"] as? String == head)

        // The vault's log: every commit on the first-parent chain, newest first.
        let all = CLI.run(["log"], in: vault)
        #expect(all.status == 0 && all.stdout.split(separator: "\n").count == 4)
        #expect(all.stdout.hasPrefix(String(head.prefix(7))))
        #expect(CLI.run(["log", "--limit", "2"], in: vault).stdout.split(separator: "\n").count == 2)
    }

    @Test func showNoteAtRevisionPrintsTheVersionThenUnderItsOldPath() {
        let temp = TempDir()
        let vault = renamedNote(temp)
        let previous = CLI.run(["show", "Archive/Old plan.md@HEAD~1"], in: vault)
        #expect(previous.status == 0, "\(previous.stderr)")
        #expect(previous.stdout == second)
        let oldest = CLI.run(["show", "Old plan@HEAD~2"], in: vault)
        #expect(oldest.status == 0, "\(oldest.stderr)")
        #expect(oldest.stdout == first)
        let before = CLI.run(["show", "Archive/Old plan.md@HEAD~3"], in: vault)
        #expect(before.status == 2 && before.stderr.contains("the note did not exist at this revision"), "\(before.stderr)")
    }

    /// Issue 9, item 7: `restore` on a note with uncommitted edits discarded them.
    @Test func restoreOfANoteWithUncommittedEditsKeepsThemInHistory() {
        let temp = TempDir()
        let vault = renamedNote(temp)
        let path = "Archive/Old plan.md"
        let unsaved = second + "typed since the last commit\n"
        CLI.write(unsaved, to: vault + "/" + path)
        let restored = CLI.run(["restore", path], in: vault)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(CLI.read(vault + "/" + path) == second)
        // The edit is in history: `show NOTE@HEAD` has it, and a restore at HEAD brings it back.
        #expect(CLI.run(["show", path + "@HEAD"], in: vault).stdout == unsaved)
        #expect(CLI.run(["restore", path, "--at", "HEAD"], in: vault).status == 0)
        #expect(CLI.read(vault + "/" + path) == unsaved)
    }

    @Test func restoreBringsBackADeletedNoteWithItsLastText() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let path = "Scratchpad/Temp idea.md"
        CLI.write("# Temp idea\n\ncommitted\n", to: vault + "/" + path)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        CLI.write("# Temp idea\n\ncommitted\nand edited before rm\n", to: vault + "/" + path)
        #expect(CLI.run(["rm", path], in: vault).status == 0)
        #expect(!FileManager.default.fileExists(atPath: vault + "/Scratchpad"))

        let log = CLI.run(["log", path], in: vault)
        #expect(log.status == 0, "\(log.stderr)")
        #expect(log.stdout.split(separator: "\n").first?.contains("deleted") == true)

        let restored = CLI.run(["restore", path], in: vault)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.hasPrefix("restored \(path) from "))
        #expect(CLI.read(vault + "/" + path) == "# Temp idea\n\ncommitted\nand edited before rm\n")
        // Nothing is committed: the restored note waits for the next commit.
        #expect(Replicas.git(["status", "--porcelain"], in: vault).stdout.contains("?? Scratchpad/"))
        #expect(CLI.run(["show", "Temp idea"], in: vault).status == 0)
    }

    @Test func restoreAtRevisionOfAnExistingNoteAndWithoutUndoesEdits() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let path = "Notes/Budget draft.md"
        let v1 = "---\ntitle: Budget draft\n---\nrent 500\n"
        let v2 = "---\ntitle: Budget draft\n---\nrent 500\nfood 300\n"
        CLI.write(v1, to: vault + "/" + path)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        let firstID = Replicas.git(["rev-parse", "HEAD"], in: vault).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        CLI.write(v2, to: vault + "/" + path)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        CLI.write(v2 + "uncommitted line\n", to: vault + "/" + path)

        let undone = CLI.run(["restore", "Budget draft"], in: vault)
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(CLI.read(vault + "/" + path) == v2)

        let older = CLI.run(["restore", "Budget draft", "--at", String(firstID.prefix(8))], in: vault)
        #expect(older.status == 0, "\(older.stderr)")
        #expect(older.stdout == "restored \(path) from \(firstID.prefix(7))\n")
        #expect(CLI.read(vault + "/" + path) == v1)
    }

    @Test func aNameHoldingAtThatIsARealNoteShowsTheNote() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Meet bob\n\nthe plain note\n", to: vault + "/Inbox/Meet bob.md")
        CLI.write("# Meet bob at head\n\ncommitted\n", to: vault + "/Inbox/Meet bob@HEAD.md")
        #expect(CLI.run(["commit"], in: vault).status == 0)
        CLI.write("# Meet bob at head\n\nedited since\n", to: vault + "/Inbox/Meet bob@HEAD.md")
        let shown = CLI.run(["show", "Inbox/Meet bob@HEAD"], in: vault)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "# Meet bob at head\n\nedited since\n")
        // A name that is no note, with a revision after the last `@`, is NOTE@REV.
        let plain = CLI.run(["show", "Inbox/Meet bob.md@HEAD"], in: vault)
        #expect(plain.status == 0 && plain.stdout == "# Meet bob\n\nthe plain note\n")
    }

    @Test func anUnknownRevisionOrNameIsAnErrorThatSaysSo() {
        let temp = TempDir()
        let vault = renamedNote(temp)
        let show = CLI.run(["show", "Archive/Old plan.md@no-such-rev"], in: vault)
        #expect(show.status == 2)
        #expect(show.stderr.hasPrefix("sheaf: unknown revision: no-such-rev\n") && show.stderr.contains("hint:"))
        let restore = CLI.run(["restore", "Archive/Old plan.md", "--at", "no-such-rev"], in: vault)
        #expect(restore.status == 2 && restore.stderr.hasPrefix("sheaf: unknown revision: no-such-rev"))
        #expect(CLI.read(vault + "/Archive/Old plan.md") == second)
        let never = CLI.run(["log", "Nowhere/Never.md"], in: vault)
        #expect(never.status == 2 && never.stderr.hasPrefix("sheaf: no note has this name, now or in history: Nowhere/Never.md"))
    }
}
