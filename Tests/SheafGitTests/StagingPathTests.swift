// Staging paths that libgit2's status and Swift's String disagree about: a name that is not
// UTF-8 (Swift repairs it to U+FFFD, a name no file has), NFC/NFD twins, and a folder chain
// deeper than libgit2's status limit (100). Names are made from bytes with open(2).
import Foundation
import Testing
import TestSupport
@testable import SheafGit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct StagingPathTests {
    /// `git ls-files -z` as byte strings.
    func trackedPaths(_ dir: String) -> [[UInt8]] {
        runProcess("/usr/bin/git", ["-C", dir, "ls-tree", "-r", "-z", "--name-only", "HEAD"], in: dir)
            .output.split(separator: 0).map { Array($0) }
    }

    func commitAll(_ repo: Repository) throws -> CommitInfo {
        _ = try repo.stageAll()
        return try repo.commitIndex(message: "snapshot\n", fallbackName: "test")
    }

    /// Regression: libgit2 reported `bad\xFF.md`, Swift read it as `bad\u{FFFD}.md`, and
    /// git_index_add_bypath failed on that name: nothing in the vault could be committed.
    @Test func stagingSkipsANameThatIsNotUTF8() throws {
        let dir = TempDir.make("staging")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let invalid = Array("bad".utf8) + [0xFF] + Array(".md".utf8)
        ByteName.write("raw\n", name: invalid, in: dir)
        ByteName.write("fine\n", name: Array("a.md".utf8), in: dir)
        let report = try repo.stageAll()
        #expect(report.skipped.map(\.path) == ["bad\\xFF.md"])
        _ = try repo.commitIndex(message: "snapshot\n", fallbackName: "test")
        #expect(trackedPaths(dir) == [Array("a.md".utf8)])
        #expect(try repo.workTreeStatus().skipped.map(\.path) == ["bad\\xFF.md"])
    }

    /// Twins by canonical equivalence are two files for git too.
    @Test func nfcAndNfdTwinsAreBothCommitted() throws {
        let dir = TempDir.make("staging")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let nfc = Array("caf\u{E9}.md".utf8), nfd = Array("cafe\u{301}.md".utf8)
        ByteName.write("composed\n", name: nfc, in: dir)
        ByteName.write("decomposed\n", name: nfd, in: dir)
        _ = try commitAll(repo)
        #expect(Set(trackedPaths(dir)) == [nfc, nfd])
        ByteName.write("decomposed, edited\n", name: nfd, in: dir)
        _ = try repo.stageAll()
        #expect(try repo.stagedChanges().map { Array($0.path.utf8) } == [nfd])
    }

    /// Regression: git_status_list_new failed with "directory nesting too deep (100)", so no
    /// commit could be made while the vault held such a chain; `git add -A` copes.
    @Test func folderChainDeeperThan100IsCommitted() throws {
        let dir = TempDir.make("staging")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let chain = Array(repeating: "d", count: 101).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: dir + "/" + chain, withIntermediateDirectories: true)
        ByteName.write("deep\n", name: Array((chain + "/deep.md").utf8), in: dir)
        ByteName.write("top\n", name: Array("top.md".utf8), in: dir)
        ByteName.write("*.tmp\n", name: Array(".gitignore".utf8), in: dir)
        ByteName.write("ignored\n", name: Array((chain + "/x.tmp").utf8), in: dir)
        _ = try commitAll(repo)
        #expect(Set(trackedPaths(dir)) == [Array("top.md".utf8), Array((chain + "/deep.md").utf8), Array(".gitignore".utf8)])
        #expect(try repo.workTreeChanges().isEmpty)
        // An edit and a deletion down there are seen and committed too.
        ByteName.write("deep, edited\n", name: Array((chain + "/deep.md").utf8), in: dir)
        #expect(try repo.workTreeChanges().map(\.path) == [chain + "/deep.md"])
        _ = try commitAll(repo)
        #expect(try repo.workTreeChanges().isEmpty)
        try FileManager.default.removeItem(atPath: dir + "/top.md")
        #expect(try repo.workTreeChanges() == [StagedChange(kind: .deleted, path: "top.md", oldPath: nil)])
        _ = try commitAll(repo)
        #expect(Set(trackedPaths(dir)) == [Array((chain + "/deep.md").utf8), Array(".gitignore".utf8)])
    }
}
