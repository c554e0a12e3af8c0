// Sheaf's commit messages have one owner (`CommitMessage`): what it writes, it reads back.
@testable import SheafGit
import Testing
@testable import SheafSync

@Suite struct CommitMessageTests {
    @Test func aSnapshotMessageNamesItsDeviceAndCountsAndReadsBack() {
        let message = CommitMessage.snapshot(device: "laptop", changes: [
            StagedChange(kind: .edited, path: "a.md", oldPath: nil),
            StagedChange(kind: .edited, path: "b.md", oldPath: nil),
            StagedChange(kind: .added, path: "c.md", oldPath: nil),
            StagedChange(kind: .renamed, path: "e.md", oldPath: "d.md"),
        ])
        #expect(message == "sheaf: laptop: 2 edited, 1 added, 1 renamed\n\nedited: a.md\nedited: b.md\nadded: c.md\nrenamed: d.md -> e.md\n")
        let summary = String(message.prefix { $0 != "\n" })
        #expect(CommitMessage.device(inSummary: summary) == "laptop")
    }

    @Test func aMergeMessageReadsBackItsDeviceAndOtherMessagesNameNone() {
        let merge = CommitMessage.merge(device: "phone", remote: "origin", branch: "main", outcomes: [])
        #expect(merge == "sheaf: phone: merge origin/main\n\n\n")
        #expect(CommitMessage.device(inSummary: "sheaf: phone: merge origin/main") == "phone")
        #expect(CommitMessage.device(inSummary: "Fix typo: in notes") == nil)
        #expect(CommitMessage.device(inSummary: "sheaf: : empty") == nil)
        #expect(CommitMessage.device(inSummary: "sheaf: push") == nil)
    }
}
