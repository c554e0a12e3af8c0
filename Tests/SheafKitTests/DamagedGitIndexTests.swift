// A `.git/index` that cannot be read (Repository+IndexRepair): a writer rebuilds it from the last
// commit and goes on; a reader says what is wrong and what mends it.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct DamagedGitIndexTests {
    /// Regression: a 0-byte `.git/index` (left by a killed writer; seen in a test run) stopped
    /// every later sync and status with libgit2's "failed to read index: ... no longer exists"
    /// until git was mended by hand. A cut-off index does the same.
    @Test(arguments: ["empty", "cut"])
    func aSyncAfterItsGitIndexWasDamagedRebuildsItAndPushesTheNewNote(_ damage: String) throws {
        let temp = TempDir("kit")
        let bare = bareRemote(in: temp)
        let a = try KitVault("a", in: temp)
        let session = try a.session()
        _ = try session.createNote(title: "First", folder: nil, tags: [], body: "one")
        try session.addRemote(name: "origin", url: bare)
        _ = try session.sync(SyncOptions())

        let indexPath = a.root + "/.git/index"
        let bytes = try #require(FileManager.default.contents(atPath: indexPath))
        try (damage == "empty" ? Data() : bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: indexPath))
        let reader = try a.session()
        do {
            _ = try reader.status()
            Issue.record("status read a damaged index")
        } catch {
            #expect(error.what == "git's index cannot be read")
            #expect(error.hint?.contains("sheaf sync") == true)
        }

        try a.write("# Second\ntwo\n", "Second.md")
        let writer = try a.session()
        let told = EventLog()
        writer.subscribe(told.record)
        let run = try writer.sync(SyncOptions())
        #expect(run.committed != nil)
        let pushed = runProcess("/usr/bin/git", ["--git-dir", bare, "ls-tree", "-r", "--name-only", "main"], in: temp.path)
        #expect(pushed.stdout.split(separator: "\n").sorted() == ["First.md", "Second.md"])
        #expect(told.warnings.contains { $0.message.contains("rebuilt from the last commit") })
        let kept = try FileManager.default.contentsOfDirectory(atPath: a.root + "/.git").filter { $0.hasPrefix("index.damaged-") }
        #expect(kept.count == 1)
        #expect(FileManager.default.contents(atPath: a.root + "/.git/" + (kept.first ?? ""))?.count == (damage == "empty" ? 0 : bytes.count / 2))
        #expect(try a.session().status().changes.isEmpty)
        #expect(a.read("First.md")?.contains("one") == true)
    }

    /// `sheaf doctor` names the damage, and `--fix` mends it without a commit.
    @Test func doctorShowsAndRebuildsADamagedGitIndex() throws {
        let a = try KitVault()
        _ = try a.session().createNote(title: "First", folder: nil, tags: [], body: "one")
        _ = try a.session().commit()
        try Data().write(to: URL(fileURLWithPath: a.root + "/.git/index"))
        let found = try a.session().doctor()
        #expect(found.contains { $0.kind == .gitIndex && $0.path == ".git/index" })
        let fixed = try a.session().doctor(fix: true)
        #expect(fixed.contains { $0.kind == .gitIndex && $0.fixed })
        #expect(try a.session().doctor().contains { $0.kind == .gitIndex } == false)
        #expect(try a.session().status().changes.isEmpty)
    }

    /// An index git reads but this libgit2 cannot (a split index here; git 2.40+'s skipHash
    /// indexes alike) is not damage: rebuilding it would drop its state on every commit. The
    /// command fails with libgit2's reason and the index is left as it is.
    @Test func anIndexGitReadsButLibgit2CannotIsNotRebuilt() throws {
        let a = try KitVault()
        _ = try a.session().createNote(title: "First", folder: nil, tags: [], body: "one")
        _ = try a.session().commit()
        #expect(runProcess("/usr/bin/git", ["update-index", "--split-index"], in: a.root).status == 0)
        let before = FileManager.default.contents(atPath: a.root + "/.git/index")
        let session = try a.session()
        do {
            _ = try session.status()
            Issue.record("libgit2 1.5 read a split index")
        } catch {
            #expect(error.what != "git's index cannot be read")
        }
        try a.write("# Second\n", "Second.md")
        #expect(throws: SheafError.self) { try a.session().commit() }
        #expect(FileManager.default.contents(atPath: a.root + "/.git/index") == before)
        let kept = try FileManager.default.contentsOfDirectory(atPath: a.root + "/.git").filter { $0.hasPrefix("index.damaged-") }
        #expect(kept.isEmpty)
    }

    /// A rebuild that cannot be written (a full disk; here its file's place is taken) leaves the
    /// damaged index where it was: never no index, which libgit2 would read as an empty one and a
    /// commit would turn into deleting every file git does not stage again (ignored ones).
    @Test func aRebuildThatCannotBeWrittenLeavesTheDamagedIndexInPlace() throws {
        let a = try KitVault()
        _ = try a.session().createNote(title: "First", folder: nil, tags: [], body: "one")
        _ = try a.session().commit()
        try Data().write(to: URL(fileURLWithPath: a.root + "/.git/index"))
        try FileManager.default.createDirectory(atPath: a.root + "/.git/index.sheaf-rebuild", withIntermediateDirectories: false)
        #expect(throws: SheafError.self) { try a.session().commit() }
        #expect(FileManager.default.contents(atPath: a.root + "/.git/index")?.count == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: a.root + "/.git").filter { $0.hasPrefix("index.damaged-") }
        #expect(kept.isEmpty)
    }
}
