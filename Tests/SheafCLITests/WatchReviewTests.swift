// Regressions found by a review of `sheaf watch` (each a way the watcher vouched for an index
// that missed a change, or crashed).
import Foundation
import TestSupport
import Testing

@Suite struct WatchReviewTests {
    /// A symlinked note is indexed with its target's bytes, but an edit of the target raises
    /// events under the target's path only: the watcher vouched for the link's old text.
    @Test func anEditOfASymlinkedNotesTargetReachesTheLinkToo() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Real\n\nplain words\n", to: vault + "/Inbox/Real.md")
        #expect(symlink("Real.md", vault + "/Inbox/Alias.md") == 0)
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        CLI.write("# Real\n\nthe nebulith is here\n", to: vault + "/Inbox/Real.md")
        let r = WatchTests.search("nebulith", in: vault)
        #expect(WatchTests.vouched(r), "\(r.stderr)")
        #expect(Set(r.stdout.split(separator: "\n").map(String.init)) == ["Inbox/Alias.md", "Inbox/Real.md"], "\(r.stdout)")
        #expect(watcher.stop() == 0)
    }

    /// A folder renamed to a name the rules treat differently: `/Projects/old/` is ignored, so
    /// after `mv Projects Current` the folder `Current/old` is followed, but it had no watch, and
    /// notes made there were missed while the watcher vouched.
    @Test func aFolderRenamedOutOfAPathRuleIsWatchedUnderItsNewName() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("/Projects/old/\n", to: vault + "/.gitignore")
        CLI.write("# Plan\n\nzorbling\n", to: vault + "/Projects/Plan.md")
        CLI.write("# Archive\n\nplain\n", to: vault + "/Projects/old/Archive.md")
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        #expect(CLI.sh("mv Projects Current", in: vault).status == 0)
        // The search's own question to the watcher hands the rename's batch over first.
        #expect(WatchTests.search("zorbling", in: vault).stdout == "Current/Plan.md\n")
        CLI.write("# Later\n\nthe quillfern is here\n", to: vault + "/Current/old/Later.md")
        let r = WatchTests.search("quillfern", in: vault)
        #expect(r.stdout == "Current/old/Later.md\n", "\(r.stdout) \(r.stderr)")
        #expect(watcher.stop() == 0)
    }

    /// A batch that needs a rescan (here a .gitignore edit in the same batch) dropped the paths
    /// its events named, and the scan trusts size and mtime: a same-size save that put the old
    /// mtime back was missed while the watcher vouched.
    @Test func aSameSizeSaveInABatchThatRescansIsIndexed() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Quince\n\nalpha word\n", to: vault + "/Inbox/Quince.md")
        let watcher = try WatcherProcess(vault: vault, temp: temp)
        #expect(watcher.waitUntilReady(), "\(CLI.read(watcher.err))")
        #expect(WatchTests.search("alpha", in: vault).stdout == "Inbox/Quince.md\n")
        #expect(CLI.sh(WatchTests.sameSizeSave + " && echo '*.tmp' >> .gitignore", in: vault).status == 0)
        let r = WatchTests.search("bravo", in: vault)
        #expect(r.stdout == "Inbox/Quince.md\n", "\(r.stdout) \(r.stderr)")
        #expect(WatchTests.search("alpha", in: vault).stdout.isEmpty)
        #expect(watcher.stop() == 0)
    }

    /// `--interval 1e10` (fetches "never") crashed the sync thread: Foundation's timed wait
    /// overflows its clock arithmetic on Linux. Now refused with a usage error.
    @Test func anIntervalPastADayIsRefusedNotACrash() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let r = CLI.run(["watch", "--interval", "1e10"], in: vault)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--interval"), "\(r.stderr)")
    }
}
