import Foundation
import SheafCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import SheafWatch

@Suite struct VaultWatcherTests {
    @Test func anEditBySedInPlaceNamesTheNoteAndNotSedsTemporaryFile() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("old words\n", "notes/a.md")
        let watcher = try VaultWatcher(vault: box.vault)
        #expect(shell("sed -i s/old/new/ notes/a.md", in: box.root) == 0)
        let got = try gather(watcher) { $0.changes.wrote("notes/a.md") }
        #expect(got.changes.wrote("notes/a.md"))
        #expect(got.changes.paths == [PathKey("notes/a.md")], "\(got.changes)")
        #expect(!got.rescanNeeded)
    }

    @Test func anEditorsTemporaryFileRenamedOverTheNoteIsOneChangeOfTheNote() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("v1\n", "a.md")
        box.write("v1\n", "b.md")
        let watcher = try VaultWatcher(vault: box.vault)
        // A hidden temporary file (as many editors do) and a visible one (as others do).
        #expect(shell("printf 'v2\\n' > .a.md.tmp && mv .a.md.tmp a.md && printf 'v2\\n' > b.md.sheaf~ && mv b.md.sheaf~ b.md", in: box.root) == 0)
        let got = try gather(watcher) { $0.changes.wrote("a.md") && $0.changes.wrote("b.md") }
        #expect(got.changes.paths == [PathKey("a.md"), PathKey("b.md")], "\(got.changes)")
    }

    @Test func movingANoteIsARename() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("x\n", "a.md")
        box.write("", "sub/.keep")
        let watcher = try VaultWatcher(vault: box.vault)
        #expect(shell("mv a.md sub/b.md", in: box.root) == 0)
        let got = try gather(watcher) { !$0.changes.renamed.isEmpty }
        #expect(got.changes.renamed == [VaultChangeSet.Rename(from: PathKey("a.md"), to: PathKey("sub/b.md"))], "\(got.changes)")
        #expect(got.changes.added.isEmpty && got.changes.removed.isEmpty)
    }

    @Test func movingAFolderRenamesEveryFileInItAndItsWatchesFollow() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("1\n", "trips/one.md")
        box.write("2\n", "trips/deep/two.md")
        let watcher = try VaultWatcher(vault: box.vault)
        #expect(shell("mv trips journeys", in: box.root) == 0)
        let got = try gather(watcher) { $0.changes.renamed.count == 2 }
        #expect(Set(got.changes.renamed) == [
            VaultChangeSet.Rename(from: PathKey("trips/one.md"), to: PathKey("journeys/one.md")),
            VaultChangeSet.Rename(from: PathKey("trips/deep/two.md"), to: PathKey("journeys/deep/two.md")),
        ], "\(got.changes)")
        // The moved folder's watches now report under its new path.
        box.write("3\n", "journeys/deep/three.md")
        let later = try gather(watcher) { $0.changes.wrote("journeys/deep/three.md") }
        #expect(later.changes.paths == [PathKey("journeys/deep/three.md")], "\(later.changes)")
    }

    @Test func aFolderMovedInFromOutsideTheVaultIsAddedWholeAndWatched() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let outside = TemporaryVault()
        defer { outside.remove() }
        outside.write("a\n", "import/a.md")
        outside.write("b\n", "import/sub/b.md")
        outside.write("c\n", "import/sub/deeper/c.png")
        let watcher = try VaultWatcher(vault: box.vault)
        #expect(shell("mv '\(outside.root)/import' '\(box.root)/import'", in: box.root) == 0)
        let expected: Set<PathKey> = [PathKey("import/a.md"), PathKey("import/sub/b.md"), PathKey("import/sub/deeper/c.png")]
        let got = try gather(watcher) { $0.changes.added.isSuperset(of: expected) }
        #expect(got.changes.added == expected, "\(got.changes)")
        box.write("d\n", "import/sub/deeper/d.md")
        let later = try gather(watcher) { $0.changes.wrote("import/sub/deeper/d.md") }
        #expect(later.changes.wrote("import/sub/deeper/d.md"))
    }

    @Test func aFolderMovedOutOfTheVaultIsNamedToRecheckAndLosesItsWatches() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let outside = TemporaryVault()
        defer { outside.remove() }
        box.write("a\n", "old/a.md")
        let watcher = try VaultWatcher(vault: box.vault)
        let before = watcher.watchedFolders
        #expect(shell("mv old '\(outside.root)/old'", in: box.root) == 0)
        // Which files it held only the index knows: the applier compares its rows with the disk.
        let got = try gather(watcher) { $0.changes.recheck.contains(PathKey("old")) }
        #expect(got.changes.recheck == [PathKey("old")], "\(got.changes)")
        #expect(!got.rescanNeeded)
        #expect(watcher.watchedFolders == before - 1)
        // An edit in the folder now outside the vault is not reported under its old path.
        outside.write("b\n", "old/a.md")
        box.write("marker\n", "marker.md")
        let later = try gather(watcher) { $0.changes.wrote("marker.md") }
        #expect(later.changes.paths == [PathKey("marker.md")], "\(later.changes)")
    }

    /// Regression: the watches under a folder were found with `==` on Strings, so moving `café/`
    /// (NFC) out of the vault also dropped the watch of its twin `café/` (NFD), whose edits were
    /// then never seen and the index went stale.
    @Test func aFolderMovedOutKeepsTheWatchOfItsTwinFolder() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let outside = TemporaryVault()
        defer { outside.remove() }
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        for folder in [nfc, nfd] {
            #expect(mkdir(box.root + "/" + folder, 0o755) == 0)
            ByteName.write("a\n", name: Array((folder + "/a.md").utf8), in: box.root)
        }
        let watcher = try VaultWatcher(vault: box.vault)
        let before = watcher.watchedFolders
        #expect(rename(box.root + "/" + nfc, outside.root + "/gone") == 0)
        let got = try gather(watcher) { $0.changes.recheck.contains(PathKey(nfc)) }
        #expect(got.changes.recheck.map { Array($0.path.utf8) } == [Array(nfc.utf8)], "\(got.changes)")
        #expect(watcher.watchedFolders == before - 1)
        ByteName.write("edited\n", name: Array((nfd + "/a.md").utf8), in: box.root)
        let later = try gather(watcher) { $0.changes.wrote(nfd + "/a.md") }
        #expect(later.changes.paths.map { Array($0.path.utf8) } == [Array((nfd + "/a.md").utf8)], "\(later.changes)")
    }

    @Test func deletionsAreRemovals() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("a\n", "a.md")
        box.write("b\n", "f/b.md")
        box.write("c\n", "f/g/c.md")
        let watcher = try VaultWatcher(vault: box.vault)
        #expect(shell("rm a.md && rm -r f", in: box.root) == 0)
        let got = try gather(watcher) { $0.changes.removed.count == 3 }
        #expect(got.changes.removed == [PathKey("a.md"), PathKey("f/b.md"), PathKey("f/g/c.md")], "\(got.changes)")
        #expect(!got.rescanNeeded)
        #expect(watcher.watchedFolders == 1)
    }

    @Test func changesInGitSheafDotFoldersAndIgnoredPathsAreNotReported() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("x\n", ".git/HEAD")
        box.write("{}\n", ".obsidian/app.json")
        box.write("x\n", "build/out.md")
        let filter = WatchFilter { path, isFolder in (isFolder && path == "build") || path.hasSuffix(".log") }
        let watcher = try VaultWatcher(vault: box.vault, filter: filter)
        box.write("y\n", ".git/HEAD")
        box.write("y\n", ".git/refs/heads/main")
        box.write("y\n", ".sheaf/index.sqlite")
        box.write("{ }\n", ".obsidian/workspace.json")
        box.write("y\n", ".hidden.md")
        box.write("y\n", "build/out.md")
        box.write("y\n", "build/new/other.md")
        box.write("y\n", "run.log")
        box.write("y\n", "marker.md")
        let got = try gather(watcher) { $0.changes.wrote("marker.md") }
        #expect(got.changes.paths == [PathKey("marker.md")], "\(got.changes)")
    }

    @Test func aCopyOf2000NotesArrivesInFewBatchesWithEveryPath() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let source = TemporaryVault()
        defer { source.remove() }
        let count = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1" ? 20_000 : 2000
        for i in 0..<count { source.write("note \(i)\n", "batch/f\(i % 20)/n\(i).md") }
        let watcher = try VaultWatcher(vault: box.vault, options: WatchOptions(quietPeriod: 0.5, maxLatency: 30))
        #expect(shell("cp -r '\(source.root)/batch' batch", in: box.root) == 0)
        let got = try gather(watcher, timeout: 60) { $0.rescanNeeded || $0.changes.added.count >= count }
        #expect(!got.rescanNeeded, "\(got.reasons)")
        #expect(got.changes.added.count == count)
        #expect(got.changes.added.contains(PathKey("batch/f7/n1987.md")))
        #expect(got.batches.count <= 3, "\(got.batches.map(\.changes.count))")
    }

    @Test func aFullQueueAsksForARescanAndFoldersMadeMeanwhileAreWatchedAfter() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let flood = box.root + "/flood"
        mkdir(flood, 0o755)
        let watcher = try VaultWatcher(vault: box.vault)
        // Not reading while more events arrive than the kernel queues (each file: IN_CREATE and
        // IN_CLOSE_WRITE), then a folder the lost events would have announced.
        let limit = Int(InotifyQueue.limit("max_queued_events")) ?? 16384
        for i in 0..<(limit / 2 + 500) {
            let fd = open(flood + "/f\(i).md", O_CREAT | O_WRONLY, 0o644)
            close(fd)
        }
        box.write("x\n", "late/made.md")
        let got = try gather(watcher) { $0.rescanNeeded }
        let rescanNeeded = got.rescanNeeded, reasons = got.reasons
        #expect(rescanNeeded)
        #expect(reasons.contains { $0.contains("max_queued_events") }, "\(reasons)")
        box.write("y\n", "late/after.md")
        let later = try gather(watcher) { $0.changes.wrote("late/after.md") }
        #expect(later.changes.wrote("late/after.md"))
        #expect(!later.rescanNeeded)
    }

    @Test func editingAGitignoreAsksForARescan() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("x\n", "sub/note.md")
        let watcher = try VaultWatcher(vault: box.vault)
        box.write("drafts/\n", "sub/.gitignore")
        let got = try gather(watcher) { $0.rescanNeeded }
        #expect(got.reasons.contains { $0.contains("sub/.gitignore") }, "\(got.reasons)")
    }

    /// `.obsidian/app.json` (Obsidian's excluded files) and `.git/info/exclude` change what the
    /// walk follows, though the watcher follows neither folder: editing either asks for a
    /// rescan with new rules, and so does `.git/info` appearing with its exclude file.
    @Test func editingObsidiansAppJsonOrGitsInfoExcludeAsksForNewRules() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("{}\n", ".obsidian/app.json")
        box.write("x\n", ".git/HEAD")
        let watcher = try VaultWatcher(vault: box.vault)
        box.write("{ }\n", ".obsidian/workspace.json")
        box.write("y\n", ".git/index")
        box.write("y\n", "marker.md")
        let quiet = try gather(watcher) { $0.changes.wrote("marker.md") }
        #expect(!quiet.rescanNeeded && !quiet.batches.contains { $0.rulesChanged }, "\(quiet.reasons)")

        box.write("drafts/\n", ".git/info/exclude")  // .git/info did not exist: it appears
        var got = try gather(watcher) { $0.batches.contains { $0.rulesChanged } }
        #expect(got.rescanNeeded && got.reasons.contains { $0.contains(".git/info") }, "\(got.reasons)")
        box.write("drafts/\nold/\n", ".git/info/exclude")
        got = try gather(watcher) { $0.batches.contains { $0.rulesChanged } }
        #expect(got.reasons.contains { $0.contains(".git/info/exclude") }, "\(got.reasons)")
        // Obsidian saves through a temporary file renamed over app.json.
        box.write("{\"userIgnoreFilters\": [\"old/\"]}\n", ".obsidian/app.json.tmp")
        #expect(shell("mv .obsidian/app.json.tmp .obsidian/app.json", in: box.root) == 0)
        got = try gather(watcher) { $0.batches.contains { $0.rulesChanged } }
        #expect(got.reasons.contains { $0.contains(".obsidian/app.json") }, "\(got.reasons)")
    }

    /// After new rules, folders they no longer ignore are watched and those they ignore are not.
    @Test func replacingTheFilterWatchesWhatTheNewRulesFollow() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        box.write("x\n", "drafts/a.md")
        box.write("x\n", "kept/b.md")
        let watcher = try VaultWatcher(vault: box.vault, filter: WatchFilter { path, _ in path == "drafts" })
        #expect(watcher.watchedFolders == 2)
        watcher.replaceFilter(WatchFilter { path, _ in path == "kept" })
        #expect(watcher.watchedFolders == 2)
        box.write("y\n", "kept/b.md")
        box.write("y\n", "drafts/a.md")
        let got = try gather(watcher) { $0.changes.wrote("drafts/a.md") }
        #expect(got.changes.paths == [PathKey("drafts/a.md")], "\(got.changes)")
    }

    @Test func stopEndsTheWait() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let watcher = try VaultWatcher(vault: box.vault)
        let stop = watcher.stop
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { stop.stop() }
        #expect(try watcher.nextBatch() == nil)
    }
}
