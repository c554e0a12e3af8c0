// A shared note's history is in its share's repository: `log`, `show NOTE@REV` and `restore` read
// it there first, then the vault's history from before the note was shared.
import Foundation
import Testing
import TestSupport

@Suite struct ShareHistoryTests {
    /// Regression: `restore` of a note in a shared folder took the version the vault's history had
    /// before the folder was shared, over every edit made since (they were in the share's
    /// repository only, out of `log`'s sight); `log` listed only the vault's commits, the last
    /// one "deleted" by the hand-over.
    @Test func aSharedNotesLogShowAndRestoreReadTheSharesHistory() throws {
        let p = ShareTests.People()
        let vault = p.r[0], note = "Trips/Trip ideas.md"
        let original = p.r.file(0, note)
        #expect(CLI.run(["share", "Trips", "--remote", p.shareRemote], in: vault).status == 0)
        for edit in ["second", "third"] {
            p.r.write(0, note, original + "\n\(edit) edit\n")
            #expect(p.r.sync(0).status == 0)
        }
        let log = CLI.run(["log", note], in: vault)
        #expect(log.status == 0, "\(log.stderr)")
        let lines = log.stdout.split(separator: "\n")
        #expect(lines.count >= 4, "\(log.stdout)")
        #expect(lines.first.map { $0.contains("edited") } == true, "the share's last commit first: \(log.stdout)")
        #expect(lines.contains { $0.contains("handed to shares") }, "then the vault's own, from before the share: \(log.stdout)")
        let shown = CLI.run(["show", note + "@HEAD~1"], in: vault)
        #expect(shown.status == 0 && shown.stdout.contains("second edit") && !shown.stdout.contains("third edit"), "\(shown.stdout)\(shown.stderr)")

        // An unsynced edit, then restore: the note comes back as the share's last commit has it,
        // and the edit is in the share's history.
        p.r.write(0, note, original + "\nfourth, not synced\n")
        let restored = CLI.run(["restore", note], in: vault)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(p.r.file(0, note).contains("third edit") && !p.r.file(0, note).contains("fourth"), "\(p.r.file(0, note))")
        let kept = CLI.run(["show", note + "@HEAD"], in: vault)
        #expect(kept.stdout.contains("fourth, not synced"), "\(kept.stdout)\(kept.stderr)")

        // The version from before the share, by the vault's commit id.
        let vaultCommit = try #require(CLI.run(["log", note], in: vault).stdout.split(separator: "\n").last?.split(separator: " ").first)
        #expect(CLI.run(["restore", note, "--at", String(vaultCommit)], in: vault).status == 0)
        #expect(p.r.file(0, note) == original)
    }

    /// A single shared note: its share's repository names it by its file name alone.
    @Test func aSharedSingleNotesVersionsAreTheShares() throws {
        let p = ShareTests.People()
        let vault = p.r[0], note = "Inbox/Ideas.md"
        let original = p.r.file(0, note)
        #expect(CLI.run(["share", note, "--remote", p.shareRemote], in: vault).status == 0)
        p.r.write(0, note, original + "\nshared edit\n")
        #expect(p.r.sync(0).status == 0)
        let shareHead = GitCLI.output(["--git-dir=" + p.shareRemote, "rev-parse", "--short", "main"], in: p.r.temp.path)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        p.r.write(0, note, original + "\nlater edit\n")
        let restored = CLI.run(["restore", note, "--at", shareHead], in: vault)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(p.r.file(0, note).contains("shared edit") && !p.r.file(0, note).contains("later edit"))
        #expect(CLI.run(["log", note], in: vault).stdout.contains(shareHead))
    }

    /// A shared folder deleted outside Sheaf (the share refuses to sync its deletion): its notes
    /// come back from the share's history, read without the folder.
    @Test func aNoteOfASharedFolderThatIsGoneIsRestoredFromTheSharesHistory() throws {
        let p = ShareTests.People()
        let vault = p.r[0], note = "Trips/Trip ideas.md"
        #expect(CLI.run(["share", "Trips", "--remote", p.shareRemote], in: vault).status == 0)
        p.r.write(0, note, p.r.file(0, note) + "\nshared edit\n")
        #expect(p.r.sync(0).status == 0)
        try FileManager.default.removeItem(atPath: vault + "/Trips")
        let log = CLI.run(["log", note], in: vault)
        #expect(log.status == 0 && log.stdout.split(separator: "\n").first?.contains("edited") == true, "\(log.stdout)\(log.stderr)")
        let restored = CLI.run(["restore", note], in: vault)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(p.r.file(0, note).contains("shared edit"))
    }

    /// A note share's history is synced content: a member's commits that renamed the note to a
    /// neighbour's name and back must not make `show` name (or `restore` write) that neighbour.
    @Test func aNoteSharesHistoryNeverNamesTheNotesNeighbours() throws {
        let p = ShareTests.People()
        let vault = p.r[0], note = "Inbox/Ideas.md"
        #expect(CLI.run(["share", note, "--remote", p.shareRemote], in: vault).status == 0)
        let member = p.r.temp.path + "/member"
        GitCLI.run(["clone", "-q", p.shareRemote, member], in: p.r.temp.path)
        for (from, to) in [("Ideas.md", "Secret.md"), ("Secret.md", "Ideas.md")] {
            GitCLI.run(["mv", from, to], in: member)
            GitCLI.run(["-c", "user.name=m", "-c", "user.email=m@x", "commit", "-qm", "rename"], in: member)
        }
        #expect(GitCLI.run(["push", "-q", "origin", "HEAD:main"], in: member).status == 0)
        #expect(p.r.sync(0).status == 0)
        let renamed = GitCLI.output(["rev-parse", "HEAD~1"], in: member).trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = CLI.run(["show", note + "@" + renamed], in: vault)
        #expect(shown.status == 2 && shown.stderr.contains("did not exist at this revision"), "\(shown.stdout)\(shown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: vault + "/Inbox/Secret.md"))
    }

    /// Another person who joined the share (a vault and HOME of their own) reads the same history
    /// under their own mount, and restores the owner's version.
    @Test func aJoinedSharesNoteHistoryIsTheSharesOnEveryMembersDevice() throws {
        let p = ShareTests.People()
        let note = "Trips/Trip ideas.md"
        #expect(CLI.run(["share", "Trips", "--remote", p.shareRemote], in: p.r[0]).status == 0)
        p.r.write(0, note, p.r.file(0, note) + "\nalice's edit\n")
        #expect(p.r.sync(0).status == 0)
        #expect(CLI.run(["join", p.shareRemote, "From Alice"], in: p.bob).status == 0)
        let bobNote = p.bob + "/From Alice/Trip ideas.md"
        TestFile.write(CLI.read(bobNote) + "bob's edit\n", to: bobNote)
        #expect(CLI.run(["sync"], in: p.bob).status == 0)
        let log = CLI.run(["log", "From Alice/Trip ideas.md"], in: p.bob)
        #expect(log.status == 0 && log.stdout.split(separator: "\n").count >= 3, "\(log.stdout)\(log.stderr)")
        let restored = CLI.run(["restore", "From Alice/Trip ideas.md", "--at", "HEAD~1"], in: p.bob)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(CLI.read(bobNote).contains("alice's edit") && !CLI.read(bobNote).contains("bob's edit"))
        #expect(p.r.sync(0).status == 0)
        #expect(CLI.run(["log", note], in: p.r[0]).stdout.split(separator: "\n").first?.contains("edited") == true)
        #expect(p.r.file(0, note).contains("bob's edit"), "Alice has Bob's edit from the share")
    }
}
