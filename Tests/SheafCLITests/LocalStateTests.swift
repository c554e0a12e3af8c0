// What Sheaf finds in a vault besides notes, folders and symlinks: FIFOs, files and folders it
// may not read. None of it may hang a command or be committed as deleted.
import Foundation
import SheafCore
import TestSupport
import Testing

@Suite struct SpecialFileTests {
    /// A FIFO made where a note was: the commit-first snapshot records the note as deleted, the
    /// remote's edit of it beats the delete, and the work-tree update opened the FIFO to compare
    /// it, which waits for a writer that never comes. The killed sync left its journal, so every
    /// sync after it resumed the update and waited again.
    @Test func aFIFOWhereAPulledNoteGoesIsRefusedNotWaitedOn() {
        let r = Replicas(2, samples: false)
        #expect(r.sync(1).status == 0)
        let fifo = r[1] + "/Start.md"
        try? FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        r.edit(0, "Start.md") { $0 + "second line\n" }
        #expect(r.sync(0).status == 0)
        // Under `timeout`: the previous code never returned (124 after the minute).
        for command in ["sync", "pull", "index", "search line"] {
            let run = CLI.sh("timeout 60 \"$SHEAF\" \(command)", in: r[1])
            #expect(run.status != 124, "\(command) waited on the FIFO")
            if command == "sync" || command == "pull" {
                #expect(run.status == 2, "\(run.stderr)")
                #expect(run.stderr.contains("this vault has a FIFO where the remote has a file"), "\(run.stderr)")
                #expect(run.stderr.contains("Start.md"), "\(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: r[1] + "/.sheaf/sync-journal"))
            }
        }
        // Once the FIFO is moved away, the edit arrives and nothing is lost.
        #expect(unlink(fifo) == 0)
        let again = r.sync(1)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(r.file(1, "Start.md") == "# Start\n\nfirst line\nsecond line\n")
        #expect(r.sync(0).status == 0)
        #expect(r.file(0, "Start.md") == "# Start\n\nfirst line\nsecond line\n")
    }
}

@Suite struct AttachSourceTests {
    /// `attach` copied whatever was not a folder: a FIFO kept it waiting for a writer, and
    /// /dev/urandom made an empty `urandom` and embedded it.
    @Test func attachRefusesWhatIsNotARegularFile() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let note = vault + "/Inbox/Ideas.md"
        let before = CLI.read(note)
        #expect(mkfifo(temp.path + "/pipe.png", 0o644) == 0)
        #expect(mkfifo(vault + "/Inbox/inside.png", 0o644) == 0)
        for source in [temp.path + "/pipe.png", "/dev/urandom", "Inbox/inside.png"] {
            let run = CLI.sh("timeout 60 \"$SHEAF\" attach Inbox/Ideas.md '\(source)'", in: vault)
            #expect(run.status == 2, "\(source): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("not a regular file"), "\(source): \(run.stderr)")
        }
        #expect(CLI.read(note) == before)
        #expect(!FileManager.default.fileExists(atPath: vault + "/Inbox/urandom"))
        #expect(!FileManager.default.fileExists(atPath: vault + "/Inbox/pipe.png"))
    }
}

@Suite struct HugeNoteTests {
    /// A sparse `.md` of 200 GB (no disk space): every scan hashed the whole file to make its git
    /// blob id (85 s for 20 GB), so every command that reads the index waited on it, and one
    /// killed meanwhile left the next to start over. Its head and size name it now.
    @Test func aHugeSparseNoteIsIndexedWithoutReadingItWhole() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let huge = vault + "/Inbox/huge.md"
        CLI.write("# Huge note\n\nthe head\n", to: huge)
        #expect(truncate(huge, 200 << 30) == 0)
        for command in ["index", "ls", "search head"] {
            let run = CLI.sh("timeout 60 \"$SHEAF\" \(command)", in: vault)
            #expect(run.status != 124, "\(command) read the whole file")
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
        #expect(CLI.sh("timeout 60 \"$SHEAF\" ls", in: vault).stdout.contains("Huge note"))
    }
}

@Suite struct UnreadableFileTests {
    /// Runs `sheaf` as an unprivileged user when the tests run as root (root reads everything).
    private func sheafAsUser(_ arguments: [String], in directory: String, owning tree: String) -> RunResult {
        guard getuid() == 0 else { return CLI.run(arguments, in: directory) }
        runProcess("/bin/chown", ["-R", "65534:65534", tree], in: tree)
        defer { runProcess("/bin/chown", ["-R", "0:0", tree], in: tree) }
        return runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary] + arguments,
                          in: directory, environment: ["HOME": tree])
    }

    /// libgit2's status reports every tracked file in a folder it may not read as deleted: the
    /// sync committed "12 deleted", pushed it, and the other device's next sync deleted the
    /// folder's notes from its disk. git's `add -A` only warns.
    @Test func anUnreadableFolderIsNotCommittedAsDeleted() {
        guard getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let r = Replicas(2, samples: false)
        r.write(0, "Projects/Plan.md", "# Plan\n\nkeep me\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        r.edit(0, "Start.md") { $0 + "an edit\n" }
        let folder = r[0] + "/Projects"
        #expect(chmod(folder, 0) == 0)
        let synced = sheafAsUser(["sync"], in: r[0], owning: r.temp.path)
        #expect(chmod(folder, 0o755) == 0)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("Projects/Plan.md: cannot be read"), "\(synced.stderr)")
        #expect(synced.stderr.contains("not committed as deleted"), "\(synced.stderr)")
        // The edit beside it was committed and pushed; the unreadable note was not deleted.
        #expect(r.git(0, ["ls-tree", "--name-only", "-r", "HEAD"]).stdout.contains("Projects/Plan.md"))
        #expect(r.sync(1).status == 0)
        #expect(r.file(1, "Projects/Plan.md") == "# Plan\n\nkeep me\n")
        #expect(r.file(1, "Start.md").hasSuffix("an edit\n"))
        // Readable again, it is as it was: nothing to commit for it.
        #expect(r.sync(0).status == 0)
        #expect(r.file(0, "Projects/Plan.md") == "# Plan\n\nkeep me\n")
    }

    /// Found by review: a note moved into a folder Sheaf may not read looked deleted (libgit2's
    /// status passes over the folder without a word), and the deletion was committed and pushed.
    @Test func aNoteMovedWhereSheafCannotReadIsNotCommittedAsDeleted() {
        guard getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let r = Replicas(2, samples: false)
        r.write(0, "Plan.md", "# Plan\n\nkeep me\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        try? FileManager.default.createDirectory(atPath: r[0] + "/Private", withIntermediateDirectories: true)
        #expect(rename(r[0] + "/Plan.md", r[0] + "/Private/Plan.md") == 0)
        r.edit(0, "Start.md") { $0 + "an edit\n" }
        #expect(chmod(r[0] + "/Private", 0) == 0)
        let synced = sheafAsUser(["sync"], in: r[0], owning: r.temp.path)
        #expect(chmod(r[0] + "/Private", 0o755) == 0)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("Plan.md: while Private cannot be read"), "\(synced.stderr)")
        #expect(r.sync(1).status == 0)
        #expect(r.file(1, "Plan.md") == "# Plan\n\nkeep me\n")
        #expect(r.file(1, "Start.md").hasSuffix("an edit\n"))
        // Readable again: the move is committed as a move.
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        #expect(r.file(1, "Private/Plan.md") == "# Plan\n\nkeep me\n")
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/Plan.md"))
    }

    /// One note without read permission made libgit2's status fail as a whole ("... is locked:
    /// Permission denied"), and with it every commit, pull and sync of the vault; a new
    /// unreadable note made staging fail. Both are left out with a warning; the rest is synced.
    @Test func anUnreadableNoteDoesNotBlockTheSyncOfTheRest() {
        guard getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let r = Replicas(2, samples: false)
        r.write(0, "Plan.md", "# Plan\n\nkeep me\n")
        #expect(r.sync(0).status == 0)
        r.edit(0, "Plan.md") { $0 + "an edit it cannot read\n" }
        r.write(0, "New.md", "# New\n")
        r.edit(0, "Start.md") { $0 + "an edit\n" }
        #expect(chmod(r[0] + "/Plan.md", 0) == 0)
        #expect(chmod(r[0] + "/New.md", 0) == 0)
        let synced = sheafAsUser(["sync"], in: r[0], owning: r.temp.path)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("Plan.md: cannot be read"), "\(synced.stderr)")
        #expect(synced.stderr.contains("New.md: cannot be read"), "\(synced.stderr)")
        #expect(chmod(r[0] + "/Plan.md", 0o644) == 0)
        #expect(chmod(r[0] + "/New.md", 0o644) == 0)
        #expect(r.sync(1).status == 0)
        #expect(r.file(1, "Start.md").hasSuffix("an edit\n"))
        #expect(r.file(1, "Plan.md") == "# Plan\n\nkeep me\n")
        // Readable again: committed with the next sync.
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        #expect(r.file(1, "Plan.md").hasSuffix("an edit it cannot read\n"))
        #expect(r.file(1, "New.md") == "# New\n")
    }
}

@Suite struct KindConflictTests {
    /// The conflict files in `folder` of replica `i`, with their text.
    private func conflictTexts(_ r: Replicas, _ i: Int, in folder: String) -> [String] {
        r.conflictFiles(i).filter { $0.hasPrefix(folder + "/") }.map { r.file(i, $0) }
    }

    /// A folder here where the remote added a file (git's file/directory conflict): the merge put
    /// the file over the folder, the tree kept the folder, and the pull said "added" while the
    /// remote's note was gone, then deleted from the device that wrote it.
    @Test func aRemoteNoteWhereThisVaultHasAFolderBecomesAConflictFile() {
        let r = Replicas(2, samples: false)
        r.write(1, "Inbox/new.md", "# New\n\nfrom r1\n")
        #expect(r.sync(1).status == 0)
        r.write(0, "Inbox/new.md/keep.txt", "keep\n")
        let synced = r.sync(0)
        #expect(synced.status != 2, "\(synced.stderr)")
        #expect(r.file(0, "Inbox/new.md/keep.txt") == "keep\n")
        #expect(conflictTexts(r, 0, in: "Inbox") == ["# New\n\nfrom r1\n"])
        #expect(r.sync(1).status != 2)
        #expect(r.file(1, "Inbox/new.md/keep.txt") == "keep\n")
        #expect(conflictTexts(r, 1, in: "Inbox") == ["# New\n\nfrom r1\n"])
    }

    /// Whether some file of replica `i` below `folder` holds `text`.
    private func holds(_ r: Replicas, _ i: Int, _ text: String, in folder: String) -> Bool {
        CLI.snapshot(r[i]).contains { $0.key.hasPrefix(folder + "/") && String(decoding: $0.value, as: UTF8.self).contains(text) }
    }

    /// Two replicas that both hold `path` with `text`.
    private func replicas(sharing path: String, _ text: String) -> Replicas {
        let r = Replicas(2, samples: false)
        r.write(0, path, text)
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        return r
    }

    /// Syncs replica 1 (after replica 0 synced) and expects each replica to hold every one of
    /// `texts` in some file below `folder`: nothing lost on either side.
    private func expectBothHold(_ r: Replicas, _ texts: [String], in folder: String) {
        #expect(r.sync(1).status != 2)
        for i in 0...1 {
            for text in texts { #expect(holds(r, i, text, in: folder), "replica \(i): \(text)") }
        }
    }

    /// The mirror case (found by review): a note edited here that the remote turned into a folder.
    /// Putting the folder's file below the note removed the note from the merged tree, and the
    /// push deleted it on every device.
    @Test func aRemoteFolderWhereThisVaultKeepsANoteLosesNeither() {
        let r = replicas(sharing: "Inbox/new.md", "# New\n\nfirst\n")
        try? FileManager.default.removeItem(atPath: r[1] + "/Inbox/new.md")
        r.write(1, "Inbox/new.md/keep.txt", "keep\n")
        #expect(r.sync(1).status == 0)
        r.edit(0, "Inbox/new.md") { $0 + "an edit here\n" }
        #expect(r.sync(0).status != 2)
        #expect(r.file(0, "Inbox/new.md") == "# New\n\nfirst\nan edit here\n")
        expectBothHold(r, ["an edit here", "keep\n"], in: "Inbox")
    }

    /// A rename there onto a path that is a folder here: the renamed note (with the edit merged
    /// into it) was put over the folder and lost.
    @Test func aRemoteRenameOntoAFolderHereKeepsTheNote() {
        let r = replicas(sharing: "Inbox/old.md", "# Old\n\nfirst\n")
        #expect(CLI.run(["mv", "Inbox/old.md", "Inbox/new.md"], in: r[1]).status == 0)
        #expect(r.sync(1).status == 0)
        r.write(0, "Inbox/new.md/keep.txt", "keep\n")
        r.edit(0, "Inbox/old.md") { $0 + "an edit here\n" }
        #expect(r.sync(0).status != 2)
        #expect(r.file(0, "Inbox/new.md/keep.txt") == "keep\n")
        expectBothHold(r, ["an edit here", "keep\n"], in: "Inbox")
    }

    /// A symlink here and a note added there at the same path: the two were merged as text, and
    /// the "symlink" that came out, with a line break in its target, was left out of the tree.
    @Test func aRemoteNoteWhereThisVaultHasASymlinkBecomesAConflictFile() {
        let r = Replicas(2, samples: false)
        r.write(1, "Inbox/new.md", "# New\n\nfrom r1\n")
        #expect(r.sync(1).status == 0)
        try? FileManager.default.createDirectory(atPath: r[0] + "/Inbox", withIntermediateDirectories: true)
        #expect(symlink("../Start.md", r[0] + "/Inbox/new.md") == 0)
        let synced = r.sync(0)
        #expect(synced.status != 2, "\(synced.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[0] + "/Inbox/new.md")) == "../Start.md")
        #expect(conflictTexts(r, 0, in: "Inbox") == ["# New\n\nfrom r1\n"])
        #expect(r.sync(1).status != 2)
        #expect(conflictTexts(r, 1, in: "Inbox") == ["# New\n\nfrom r1\n"])
    }
}

@Suite struct UnusableIndexTests {
    /// `.sheaf/index.sqlite` made a folder: every note command failed with "the index or its
    /// folder is read-only". The index is a cache: what stands in its place is moved aside (not
    /// deleted: a folder may hold anything), the index is rebuilt, and the warning says what it was.
    @Test func anIndexThatIsAFolderIsMovedAsideAndRebuilt() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["index"], in: vault).status == 0)
        let index = vault + "/.sheaf/index.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
        CLI.write("someone's file\n", to: index + "/kept.txt")
        let r = CLI.run(["search", "tram"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Tram 28"), "\(r.stdout)")
        #expect(r.stderr.contains(".sheaf/index.sqlite: was a folder, not the index: moved aside to .sheaf/index.sqlite.unusable-"), "\(r.stderr)")
        #expect(!r.stderr.contains("read-only"), "\(r.stderr)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: vault + "/.sheaf").filter { $0.hasPrefix("index.sqlite.unusable-") }
        #expect(aside.count == 1)
        #expect(CLI.read(vault + "/.sheaf/" + (aside.first ?? "") + "/kept.txt") == "someone's file\n")
        // Note commands work again, without a warning now.
        let appended = CLI.run(["append", "Trips/Lisbon/Budget.md", "one more line"], in: vault)
        #expect(appended.status == 0 && appended.stderr.isEmpty, "\(appended.stderr)")
    }

    /// Its -wal made a folder as well: named as such, moved aside, rebuilt.
    @Test func anIndexWALThatIsAFolderIsMovedAsideAndRebuilt() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["index"], in: vault).status == 0)
        let wal = vault + "/.sheaf/index.sqlite-wal"
        try? FileManager.default.removeItem(atPath: wal)
        try? FileManager.default.createDirectory(atPath: wal, withIntermediateDirectories: false)
        let r = CLI.run(["ls", "--paths"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Trips/Lisbon/Budget.md"))
        #expect(r.stderr.contains(".sheaf/index.sqlite-wal: was a folder, not the index"), "\(r.stderr)")
    }
}

/// Every command made `.sheaf/index.sqlite-wal` and `-shm` and deleted them at its last close
/// (two inodes made and freed: a tenth of a search in a small vault); they now stay, the -wal
/// emptied by the last close, so nothing of an earlier database is ever replayed into a new one.
@Suite struct KeptWALTests {
    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    @Test func theIndexKeepsAnEmptyWALBetweenCommandsAndARebuildStillReplacesIt() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let index = vault + "/.sheaf/index.sqlite"
        #expect(CLI.run(["index"], in: vault).status == 0)
        CLI.write("# Fresh\nquokka sightings\n", to: vault + "/Fresh.md")
        #expect(CLI.run(["search", "quokka", "--paths"], in: vault).stdout == "Fresh.md\n")
        #expect(Self.size(index + "-wal") == 0, "the -wal is kept, and empty after the last close")
        #expect(Self.size(index + "-shm") != nil)
        // A full build is renamed over the live file, the kept -wal and -shm removed first: the
        // new index answers, with nothing of the old one's pages.
        #expect(CLI.run(["index", "--rebuild"], in: vault).status == 0)
        #expect(Self.size(index + "-wal") == 0)
        try? FileManager.default.removeItem(atPath: vault + "/Fresh.md")
        let after = CLI.run(["search", "quokka", "--paths"], in: vault)
        #expect(after.status == 1 && after.stdout.isEmpty, "\(after.stdout)\(after.stderr)")
        #expect(CLI.run(["search", "tram", "--paths"], in: vault).status == 0)
    }

    static func stamp(_ path: String) -> (Int, Int)? {
        var info = stat()
        return stat(path, &info) == 0 ? (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)) : nil
    }

    /// Opening the index to bring it up to date wrote it, even when nothing had changed: GRDB's
    /// set-up of WAL mode makes and drops a table whenever the -wal is empty, as every close
    /// leaves it. So every `search`, `ls` and `show` wrote and synced the index (four fdatasyncs)
    /// and changed its schema, which made a running watcher's or server's statements prepare
    /// again. A command that finds nothing to change now leaves the file as it was; one that
    /// finds a change still writes it.
    @Test func aReadCommandThatFindsNothingChangedLeavesTheIndexFileAlone() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let index = vault + "/.sheaf/index.sqlite"
        #expect(CLI.run(["index"], in: vault).status == 0)
        // A note modified within a clock tick of a scan is read again by the next one (racily
        // clean, BatchWriter.recordedInode): the copied samples are that new, so a scan made
        // once they are older settles them first.
        usleep(250_000)
        #expect(CLI.run(["index"], in: vault).status == 0)
        let before = try #require(Self.stamp(index))
        let bytes = CLI.read(index)
        usleep(20_000)
        for command in [["search", "tram"], ["ls"], ["index"], ["tags"], ["show", "Inbox/Ideas.md"]] {
            let run = CLI.run(command, in: vault)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            let after = try #require(Self.stamp(index))
            #expect(after == before, "\(command) wrote the index")
            #expect(Self.size(index + "-wal") == 0, "\(command)")
        }
        #expect(CLI.read(index) == bytes)
        CLI.write("# Fresh\nquokka sightings\n", to: vault + "/Fresh.md")
        #expect(CLI.run(["search", "quokka", "--paths"], in: vault).stdout == "Fresh.md\n")
        #expect(try #require(Self.stamp(index)) != before, "a change is still written")
        #expect(Self.size(index + "-wal") == 0, "and checkpointed at the last close")
        #expect(CLI.run(["search", "quokka", "--paths"], in: vault).stdout == "Fresh.md\n")
    }
}

@Suite struct InterruptedWriteCleanupTests {
    /// A killed `attach` left its `.sheaf-tmp-*` copy (36 MB after 30 kills) and nothing removed
    /// it. The next command that scans cleans what dead processes left: copies (scratch names)
    /// are deleted; a writer's temporary file, which may hold a save, is moved to
    /// `.sheaf/interrupted/`, where doctor lists it. A live process's files are left alone.
    @Test func temporaryFilesOfKilledCommandsAreCleanedAndPossibleSavesKept() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        // A real attach, killed while it copies: its copy stays.
        let big = temp.path + "/big.bin"
        #expect(CLI.sh("head -c 300M /dev/zero > '\(big)'", in: vault).status == 0)
        let attach = try #require(Spawn.start(CLI.binary, ["attach", "Trips/Lisbon/Budget.md", big], in: vault, environment: [:]))
        var copies: [String] = []
        for _ in 0..<3000 where copies.isEmpty {
            copies = ((try? FileManager.default.contentsOfDirectory(atPath: vault + "/Trips/Lisbon")) ?? []).filter { $0.hasPrefix(".sheaf-tmp-") }
            if copies.isEmpty { usleep(10_000) }
        }
        kill(attach, SIGKILL)
        _ = Spawn.wait(attach)
        copies = ((try? FileManager.default.contentsOfDirectory(atPath: vault + "/Trips/Lisbon")) ?? []).filter { $0.hasPrefix(".sheaf-tmp-") }
        #expect(!copies.isEmpty, "the attach was not caught copying")
        // A writer's temporary file of a process that is gone (it may hold a save), one of Sheaf's
        // own state, and one of this live process.
        let gone = Spawn.start("/bin/true", [], in: vault, environment: [:])!
        _ = Spawn.wait(gone)
        CLI.write("# Home\nsaved just then\n", to: vault + "/Trips/.sheaf-tmp-\(gone)-0-12345")
        CLI.write("state\n", to: vault + "/.sheaf/.sheaf-tmp-new-\(gone)-0-1")
        let live = vault + "/Inbox/.sheaf-tmp-\(getpid())-6789"
        CLI.write("in flight\n", to: live)

        let r = CLI.run(["search", "tram"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        for copy in copies { #expect(!FileManager.default.fileExists(atPath: vault + "/Trips/Lisbon/" + copy), "\(copy) stayed") }
        #expect(!FileManager.default.fileExists(atPath: vault + "/Trips/.sheaf-tmp-\(gone)-0-12345"))
        #expect(!FileManager.default.fileExists(atPath: vault + "/.sheaf/.sheaf-tmp-new-\(gone)-0-1"))
        #expect(FileManager.default.fileExists(atPath: live))
        let doctor = CLI.run(["doctor", "--json"], in: vault)
        let findings = (try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        let kept = findings.filter { $0["kind"] as? String == "interrupted-write" }.compactMap { $0["path"] as? String }
        #expect(kept.count == 1 && kept.allSatisfy { $0.hasPrefix(".sheaf/interrupted/") && $0.hasSuffix("/Trips/.sheaf-tmp-\(gone)-0-12345") }, "\(doctor.stdout)")
        #expect(kept.first.map { CLI.read(vault + "/" + $0) } == "# Home\nsaved just then\n")
    }
}
