// Staging paths that libgit2's status and Swift's String disagree about: a name that is not
// UTF-8 (Swift repairs it to U+FFFD, a name no file has), NFC/NFD twins, and a folder chain
// deeper than libgit2's status limit (100). Names are made from bytes with open(2).
import Foundation
import Testing
@testable import SheafGit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct StagingPathTests {
    func tempFolder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sheaf-staging-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func write(_ text: String, name: [UInt8], in folder: String) {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        precondition(fd >= 0, "open failed")
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }

    /// `git ls-files -z` as byte strings.
    func trackedPaths(_ dir: String) -> [[UInt8]] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = ["-C", dir, "ls-tree", "-r", "-z", "--name-only", "HEAD"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try! p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data.split(separator: 0).map { Array($0) }
    }

    func commitAll(_ repo: Repository) throws -> CommitInfo {
        _ = try repo.stageAll()
        return try repo.commitIndex(message: "snapshot\n", fallbackName: "test")
    }

    /// Regression: libgit2 reported `bad\xFF.md`, Swift read it as `bad\u{FFFD}.md`, and
    /// git_index_add_bypath failed on that name: nothing in the vault could be committed.
    @Test func stagingSkipsANameThatIsNotUTF8() throws {
        let dir = tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let invalid = Array("bad".utf8) + [0xFF] + Array(".md".utf8)
        write("raw\n", name: invalid, in: dir)
        write("fine\n", name: Array("a.md".utf8), in: dir)
        let report = try repo.stageAll()
        #expect(report.skipped.map(\.path) == ["bad\\xFF.md"])
        _ = try repo.commitIndex(message: "snapshot\n", fallbackName: "test")
        #expect(trackedPaths(dir) == [Array("a.md".utf8)])
        #expect(try repo.workTreeStatus().skipped.map(\.path) == ["bad\\xFF.md"])
    }

    /// Twins by canonical equivalence are two files for git too.
    @Test func nfcAndNfdTwinsAreBothCommitted() throws {
        let dir = tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let nfc = Array("caf\u{E9}.md".utf8), nfd = Array("cafe\u{301}.md".utf8)
        write("composed\n", name: nfc, in: dir)
        write("decomposed\n", name: nfd, in: dir)
        _ = try commitAll(repo)
        #expect(Set(trackedPaths(dir)) == [nfc, nfd])
        write("decomposed, edited\n", name: nfd, in: dir)
        _ = try repo.stageAll()
        #expect(try repo.stagedChanges().map { Array($0.path.utf8) } == [nfd])
    }

    /// Regression: git_status_list_new failed with "directory nesting too deep (100)", so no
    /// commit could be made while the vault held such a chain; `git add -A` copes.
    @Test func folderChainDeeperThan100IsCommitted() throws {
        let dir = tempFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let repo = try Repository.create(workTree: dir)
        let chain = Array(repeating: "d", count: 101).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: dir + "/" + chain, withIntermediateDirectories: true)
        write("deep\n", name: Array((chain + "/deep.md").utf8), in: dir)
        write("top\n", name: Array("top.md".utf8), in: dir)
        write("*.tmp\n", name: Array(".gitignore".utf8), in: dir)
        write("ignored\n", name: Array((chain + "/x.tmp").utf8), in: dir)
        _ = try commitAll(repo)
        #expect(Set(trackedPaths(dir)) == [Array("top.md".utf8), Array((chain + "/deep.md").utf8), Array(".gitignore".utf8)])
        #expect(try repo.workTreeChanges().isEmpty)
        // An edit and a deletion down there are seen and committed too.
        write("deep, edited\n", name: Array((chain + "/deep.md").utf8), in: dir)
        #expect(try repo.workTreeChanges().map(\.path) == [chain + "/deep.md"])
        _ = try commitAll(repo)
        #expect(try repo.workTreeChanges().isEmpty)
        try FileManager.default.removeItem(atPath: dir + "/top.md")
        #expect(try repo.workTreeChanges() == [StagedChange(kind: .deleted, path: "top.md", oldPath: nil)])
        _ = try commitAll(repo)
        #expect(Set(trackedPaths(dir)) == [Array((chain + "/deep.md").utf8), Array(".gitignore".utf8)])
    }
}
