import Foundation
import Testing
import TestSupport
@testable import SheafGit

/// The status skips HEAD against the index when the index's cached tree ids say the index is
/// HEAD's tree; whatever is staged must still be reported.
@Suite struct IndexTreeCacheTests {
    func write(_ text: String, _ path: String) { TestFile.replace(text, at: path) }

    func committed(_ dir: String) throws -> Repository {
        let repo = try Repository.create(workTree: dir)
        write("one\n", dir + "/a.md")
        write("two\n", dir + "/notes/b.md")
        try repo.stageAll()
        _ = try repo.commitIndex(message: "first", fallbackName: "test")
        return repo
    }

    @Test func statusStillReportsWhatIsStagedButNotCommitted() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try committed(dir)
        #expect(repo.indexMatchesHead())
        #expect(try repo.workTreeChanges().isEmpty)
        // Staged by hand (a move git knows of), the work tree matching the index.
        try FileManager.default.moveItem(atPath: dir + "/notes/b.md", toPath: dir + "/notes/c.md")
        try repo.stageMove(from: "notes/b.md", to: "notes/c.md")
        #expect(!repo.indexMatchesHead())
        #expect(try repo.workTreeChanges().map(\.path) == ["notes/c.md"])
        // Removed from the index only: the file stays, and git sees a deletion plus an untracked file.
        try repo.untrack(["a.md"])
        #expect(!repo.indexMatchesHead())
        #expect(try repo.workTreeChanges().contains { $0.path == "a.md" })
    }

    @Test func resetIndexLeavesTheCachedTreeValid() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try committed(dir)
        let head = try #require(try repo.head()?.id)
        write("one, edited\n", dir + "/a.md")
        try repo.resetIndex(toCommit: head, refreshing: ["a.md"])
        // a.md differs from the commit: its entry is the commit's, and the status says edited.
        #expect(repo.indexMatchesHead())
        #expect(try repo.workTreeChanges().map(\.path) == ["a.md"])
        write("one\n", dir + "/a.md")
        try repo.resetIndex(toCommit: head, refreshing: ["a.md"])
        #expect(repo.indexMatchesHead())
        #expect(try repo.workTreeChanges().isEmpty)
    }

    func stagedEntries(_ dir: String) -> String {
        runProcess("/usr/bin/git", ["-C", dir, "ls-files", "--stage"], in: dir).stdout
    }

    @Test func resetIndexByTheDiffGivesTheCommitsIndex() throws {
        let dir = TempDir.make("git")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try committed(dir)
        let first = try #require(try repo.head()?.id)
        write("one, edited\n", dir + "/a.md")
        try FileManager.default.removeItem(atPath: dir + "/notes/b.md")
        write("three\n", dir + "/deep/er/c.md")
        write("two\n", dir + "/moved/b.md")
        try repo.stageAll()
        let second = try repo.commitIndex(message: "second", fallbackName: "test").id
        let changes = try repo.changes(from: first, to: second)
        #expect(changes.count >= 3)
        // The index back at the first commit (whole tree), then moved by the diff.
        try repo.resetIndex(toCommit: first, refreshing: [])
        #expect(stagedEntries(dir).contains("notes/b.md"))
        try repo.resetIndex(toCommit: second, from: first, changes: changes, refreshing: ["a.md", "deep/er/c.md"])
        let byDiff = stagedEntries(dir)
        try repo.resetIndex(toCommit: second, refreshing: [])
        #expect(byDiff == stagedEntries(dir))
        #expect(!byDiff.contains("notes/b.md"))
        #expect(repo.indexMatchesHead())
        // An index that is not the diff's start is read from the tree instead.
        try repo.resetIndex(toCommit: first, refreshing: [])
        try repo.resetIndex(toCommit: second, from: second, changes: [], refreshing: [])
        #expect(stagedEntries(dir) == byDiff)
    }
}
