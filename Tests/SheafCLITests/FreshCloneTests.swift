// `sheaf clone` writes its checkout into a folder that holds none of the user's files
// (FreshFolderWriter): files created where nothing is, the disk waited for once. Issue 28's clone
// row: the checkout went through the pull's careful writer, one fsync and one sync_file_range per
// file (10,005 fsyncs for a 10k vault). These pin that it waits once, that a clone killed before
// the disk had its files is finished right, and that a hostile tree is refused as a pull refuses it.
import Foundation
import SheafCore
import TestSupport
import Testing

@Suite struct FreshCloneTests {
    /// A bare remote with `count` notes in a few folders, pushed by plain git.
    static func remote(notes count: Int, in temp: TempDir) -> String {
        let source = temp.path + "/source"
        let bare = temp.path + "/remote.git"
        runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare], in: temp.path)
        runProcess("/usr/bin/git", ["init", "-q", "-b", "main", source], in: temp.path)
        for i in 0..<count {
            TestFile.write("---\ntags: [t\(i % 7)]\n---\n# Note \(i)\n\nline of note \(i)\n", to: source + "/Folder \(i % 5)/Sub \(i % 3)/Note \(i).md")
        }
        for args in [["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "notes"], ["push", "-q", bare, "main"]] {
            #expect(Replicas.git(args, in: source).status == 0)
        }
        return bare
    }

    @Test func aCloneWaitsForTheDiskOnceNotOncePerFile() throws {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else { return }  // scripts/setup installs it
        let temp = TempDir()
        let bare = Self.remote(notes: 120, in: temp)
        let trace = temp.path + "/clone.trace"
        let cloned = runProcess(strace, ["-f", "-e", "trace=fsync,fdatasync,syncfs,sync_file_range", "-o", trace,
                                         CLI.binary, "clone", bare, temp.path + "/copy"], in: temp.path)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        let lines = CLI.read(trace).split(separator: "\n")
        let fsyncs = lines.filter { $0.contains("fsync(") || $0.contains("fdatasync(") || $0.contains("sync_file_range(") }
        #expect(lines.contains { $0.contains("syncfs(") }, "the checkout is synced once")
        // Sheaf's own files and git's (journal, index, refs, config) are still synced one by one.
        #expect(fsyncs.count < 40, "\(fsyncs.count) syncs for 120 notes")
        let copy = temp.path + "/copy"
        #expect(CLI.read(copy + "/Folder 3/Sub 1/Note 13.md") == "---\ntags: [t6]\n---\n# Note 13\n\nline of note 13\n")
        #expect(CLI.run(["search", "\"note 119\"", "--paths"], in: copy).stdout.contains("Folder 4/Sub 2/Note 119.md"), "the clone indexed the last note")
        #expect(Replicas.git(["status", "--porcelain"], in: copy).stdout.isEmpty, "git sees the checkout as clean")
    }

    /// A clone killed (or a machine that lost power) after writing its files and before the disk
    /// had them leaves its journal and files that may be empty, cut short or zero-filled. The
    /// next command finishes the clone: it takes those for its own and writes them whole, and a
    /// note someone edited meanwhile keeps the edit.
    @Test func aCloneInterruptedBeforeItsFilesReachedTheDiskIsFinishedWithEveryNoteWhole() throws {
        let temp = TempDir()
        let bare = Self.remote(notes: 12, in: temp)
        let copy = temp.path + "/copy"
        #expect(CLI.run(["clone", bare, copy], in: temp.path).status == 0)
        let head = Replicas.git(["rev-parse", "HEAD"], in: copy).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (empty, cut, zeroed, edited) = ("Folder 0/Sub 0/Note 0.md", "Folder 1/Sub 1/Note 1.md",
                                            "Folder 2/Sub 2/Note 2.md", "Folder 3/Sub 0/Note 3.md")
        let whole = [empty, cut, zeroed, edited].map { CLI.read(copy + "/" + $0) }
        TestFile.write("", to: copy + "/" + empty)
        TestFile.write(String(whole[1].prefix(9)), to: copy + "/" + cut)
        try Data(whole[2].utf8.prefix(5) + [UInt8](repeating: 0, count: 12)).write(to: URL(fileURLWithPath: copy + "/" + zeroed))
        TestFile.write(whole[3] + "my edit made during the clone\n", to: copy + "/" + edited)
        TestFile.write("\n" + head + "\nfresh\n", to: copy + "/.sheaf/sync-journal")
        let finished = CLI.run(["commit"], in: copy)
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(!FileManager.default.fileExists(atPath: copy + "/.sheaf/sync-journal"))
        #expect(CLI.read(copy + "/" + empty) == whole[0])
        #expect(CLI.read(copy + "/" + cut) == whole[1])
        #expect(CLI.read(copy + "/" + zeroed) == whole[2])
        #expect(CLI.read(copy + "/" + edited).contains("my edit made during the clone"), "an edit is never lost")
        #expect(CLI.read(copy + "/" + edited).contains("line of note 3"))
    }

    /// The clone's own writer refuses what the pull's refuses: every path is still checked by
    /// the vault-path guard, folders it did not make are looked at, and a symlink is never
    /// written through or out of the vault.
    @Test func aCloneOfAHostileTreeWritesNothingOutsideTheVaultOrIntoItsState() throws {
        let temp = TempDir()
        let bare = Self.remote(notes: 3, in: temp)
        plantCommit(in: bare, [("../\u{301}escape.md", "# out\n"), ("Trips/../../escape.md", "x"), (".GIT/config", "[core]\n\tbare = true\n"),
                               (".sheaf/config.toml", "remote = \"attacker\"\n"),
                               ("ok/after.md", "# After\n")],
                    symlinks: [("leak.md", "../../../etc/passwd"), ("inside.md", "ok/after.md"), ("Out", "../..")])
        let copy = temp.path + "/vaults/copy"
        try FileManager.default.createDirectory(atPath: temp.path + "/vaults", withIntermediateDirectories: true)
        let cloned = CLI.run(["clone", bare, copy], in: temp.path)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(cloned.stderr.contains("unsafe path from the remote"), "\(cloned.stdout) // \(cloned.stderr)")
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/vaults/\u{301}escape.md"))
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/escape.md"))
        #expect(!FileManager.default.fileExists(atPath: copy + "/leak.md") && !FileManager.default.fileExists(atPath: copy + "/Out"))
        #expect(CLI.read(copy + "/.git/config").contains("bare = false"))
        #expect(!CLI.read(copy + "/.sheaf/config.toml").contains("attacker"))
        #expect(CLI.read(copy + "/ok/after.md") == "# After\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: copy + "/inside.md")) == "ok/after.md")
        #expect(CLI.read(copy + "/Folder 0/Sub 0/Note 0.md").contains("line of note 0"))
    }
}
