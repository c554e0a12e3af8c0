// The work-tree update of a pull against a real repository: an editor's save during the pull
// survives, and a journal left by a killed process is completed by the next run.
import Foundation
import SheafCore
import SheafGit
import Testing
import TestSupport
@testable import SheafSync

@Suite struct WorkTreeUpdateTests {
    /// A repository with `a.md` and `b.md` committed (c1), and a second commit c2 made in the
    /// object database only (as a pull makes its merge): a.md and b.md changed, c.md added.
    struct Fixture {
        let root: String
        let repo: Repository
        let c1: String
        let c2: String
        var journal: String { root + "/.git/sheaf-journal" }

        init() throws {
            root = TempDir.make("wtu")
            repo = try Repository.create(workTree: root)
            try "one\ntwo\nthree\nfour\nfive\n".write(toFile: root + "/a.md", atomically: true, encoding: .utf8)
            try "b\n".write(toFile: root + "/b.md", atomically: true, encoding: .utf8)
            try repo.stageAll()
            c1 = try repo.commitIndex(message: "c1", fallbackName: "test").id
            let a2 = try repo.createBlob(Array("one\ntwo\nthree\nfour\nfive, remote\n".utf8))
            let b2 = try repo.createBlob(Array("b, remote\n".utf8))
            let c = try repo.createBlob(Array("c\n".utf8))
            let tree = try repo.tree(applying: [.put(path: "a.md", blob: a2, mode: 0o100644),
                                                .put(path: "b.md", blob: b2, mode: 0o100644),
                                                .put(path: "sub/c.md", blob: c, mode: 0o100644)], toCommit: c1)
            c2 = try repo.createCommit(tree: tree, parents: [c1], message: "c2", fallbackName: "test")
        }

        func read(_ path: String) -> String { (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "" }
        func write(_ text: String, _ path: String) throws { TestFile.replace(text, at: root + "/" + path) }
        func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func anEditorSaveDuringThePullIsKeptAndMerged() throws {
        let f = try Fixture()
        defer { f.cleanUp() }
        // The user saved a.md after Sheaf committed and read it.
        try f.write("one, local\ntwo\nthree\nfour\nfive\n", "a.md")
        let result = try WorkTreeUpdate(repository: f.repo, workTree: f.root, journal: f.journal).run(from: f.c1, to: f.c2)
        #expect(result.keptLocalEdits == ["a.md"])
        #expect(f.read("a.md") == "one, local\ntwo\nthree\nfour\nfive, remote\n")
        #expect(f.read("b.md") == "b, remote\n" && f.read("sub/c.md") == "c\n")
        #expect(try f.repo.head()?.id == f.c2)
        // The user's edit is an uncommitted change now, recorded by the next commit.
        #expect(try f.repo.workTreeChanges().map(\.path) == ["a.md"])
        #expect(!FileManager.default.fileExists(atPath: f.journal))
    }

    @Test func aJournalLeftByAKilledPullIsCompleted() throws {
        let f = try Fixture()
        defer { f.cleanUp() }
        // Killed after the journal and one file were written, before the branch moved.
        try "\(f.c1)\n\(f.c2)\n".write(toFile: f.journal, atomically: true, encoding: .utf8)
        try f.write("b, remote\n", "b.md")
        let update = WorkTreeUpdate(repository: f.repo, workTree: f.root, journal: f.journal)
        #expect(try update.resume())
        #expect(f.read("a.md") == "one\ntwo\nthree\nfour\nfive, remote\n")
        #expect(f.read("b.md") == "b, remote\n" && f.read("sub/c.md") == "c\n")
        #expect(try f.repo.head()?.id == f.c2)
        #expect(try f.repo.workTreeChanges().isEmpty)
        #expect(try !update.resume(), "nothing left to do")
    }

    @Test func aJournalWhoseBranchAlreadyMovedOnlyFinishesTheFiles() throws {
        let f = try Fixture()
        defer { f.cleanUp() }
        try "\(f.c1)\n\(f.c2)\n".write(toFile: f.journal, atomically: true, encoding: .utf8)
        try f.repo.moveBranch(to: f.c2, expected: f.c1, message: "test")
        #expect(try WorkTreeUpdate(repository: f.repo, workTree: f.root, journal: f.journal).resume())
        #expect(f.read("sub/c.md") == "c\n")
        #expect(try f.repo.workTreeChanges().isEmpty)
    }
}

@Suite struct UntrustedTreeTests {
    /// A folder of the work tree that is a symlink leading out of the vault, and a remote commit
    /// with a file "inside" it: the update must not write through the link (git refuses too).
    @Test func aPullNeverWritesThroughASymlinkedFolder() throws {
        let f = try WorkTreeUpdateTests.Fixture()
        defer { f.cleanUp() }
        let outside = TempDir.make("outside")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: f.root + "/escape", withDestinationPath: outside)
        let payload = try f.repo.createBlob(Array("pwned\n".utf8))
        let tree = try f.repo.tree(applying: [.put(path: "escape/x.md", blob: payload, mode: 0o100644)], toCommit: f.c1)
        let evil = try f.repo.createCommit(tree: tree, parents: [f.c1], message: "evil", fallbackName: "test")
        // Nothing is written (and the branch stays) until the user moves the symlink away.
        #expect(throws: SheafError.self) {
            try WorkTreeUpdate(repository: f.repo, workTree: f.root, journal: f.journal).run(from: f.c1, to: evil)
        }
        #expect(!FileManager.default.fileExists(atPath: outside + "/x.md"))
        #expect(try f.repo.head()?.id == f.c1)
    }
}

@Suite struct StuckJournalTests {
    /// Issue 9, item 9: an update that cannot complete left a journal every later command
    /// replayed and failed on. Now it is rolled back: the error is reported once, then gone.
    @Test func aJournalThatCannotCompleteIsRolledBackNotReplayedForever() throws {
        let f = try WorkTreeUpdateTests.Fixture()
        defer { f.cleanUp() }
        // A file where c2 needs a folder: writing sub/c.md fails.
        try f.write("in the way\n", "sub")
        try "\(f.c1)\n\(f.c2)\n".write(toFile: f.journal, atomically: true, encoding: .utf8)
        let update = WorkTreeUpdate(repository: f.repo, workTree: f.root, journal: f.journal)
        #expect(throws: (any Error).self) { try update.resume() }
        #expect(!FileManager.default.fileExists(atPath: f.journal))
        #expect(try !update.resume())
        #expect(try f.repo.head()?.id == f.c1, "the branch did not move")
        #expect(f.read("sub") == "in the way\n")
    }
}
