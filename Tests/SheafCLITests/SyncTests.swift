// Sync as a user with several clones of one vault sees it (docs/sync.md, issue 4).
import Foundation
import SheafCore
import Testing
import TestSupport

@Suite struct SyncTests {
    let note = "Trips/Lisbon/Budget.md"

    @Test func disjointEditsToOneNoteSyncWithoutConflictAndConverge() {
        let r = Replicas(2)
        r.edit(0, note) { $0.replacingOccurrences(of: "tags: [travel, money]", with: "tags: [travel, money, portugal]")
            .replacingOccurrences(of: "| flights | 210 |", with: "| flights | 230 |") }
        r.edit(1, note) { $0.replacingOccurrences(of: "tags: [travel, money]", with: "tags: [travel, money, 2026]")
            .replacingOccurrences(of: "# Lisbon budget", with: "# Lisbon budget (final)")
            .replacingOccurrences(of: "The rest goes on the travel card.", with: "The rest goes on the card.") }
        #expect(r.sync(0).status == 0)
        let second = r.sync(1)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("merged      \(note)"))
        #expect(r.sync(0).status == 0)
        #expect(r.identical(0, 1))
        #expect(r.conflictFiles(0).isEmpty && r.conflictFiles(1).isEmpty)
        let merged = r.file(0, note)
        #expect(merged.contains("tags: [travel, money, 2026, portugal]"))
        #expect(merged.contains("| flights | 230 |") && merged.contains("# Lisbon budget (final)")
                && merged.contains("The rest goes on the card."))
    }

    @Test func overlappingEditsGiveOneConflictFileThatResolveSettles() throws {
        let r = Replicas(2)
        r.edit(0, note) { $0.replacingOccurrences(of: "| food | 300 |", with: "| food | 350 |") }
        r.edit(1, note) { $0.replacingOccurrences(of: "| food | 300 |", with: "| food | 250 |") }
        #expect(r.sync(0).status == 0)
        let pulled = r.sync(1)
        #expect(pulled.status == 1, "conflicts exit 1")
        #expect(pulled.stderr.contains("sheaf resolve"))
        let conflicts = r.conflictFiles(1)
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.hasPrefix("Trips/Lisbon/Budget.conflict-") && conflict.hasSuffix("-r0.md"))
        // Both are valid notes without markers: the note keeps the local side.
        #expect(r.file(1, note).contains("| food | 250 |"))
        let remoteSide = r.file(1, conflict)
        #expect(remoteSide.contains("| food | 350 |") && remoteSide.contains("conflict-of: \(note)"))
        for text in [r.file(1, note), remoteSide] {
            #expect(!hasConflictMarkers(text))
            let block = try #require(NoteDocument(text: text).frontMatter)
            #expect((try? FrontMatter(parsing: block)) != nil)
        }
        let listed = CLI.run(["conflicts"], in: r[1])
        #expect(listed.status == 0 && listed.stdout == "\(note)\t\(conflict)\n")
        let resolved = CLI.run(["resolve", note, "--keep", "remote"], in: r[1])
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(r.file(1, note).contains("| food | 350 |") && !r.file(1, note).contains("conflict-of"))
        #expect(CLI.run(["conflicts"], in: r[1]).status == 1)
        r.syncAll()
        #expect(r.identical(0, 1))
        #expect(r.conflictFiles(0).isEmpty)
    }

    /// Regression: `resolve` took the lock without committing, so `--keep remote` replaced a note
    /// edited after its conflict appeared (and `--keep local` deleted an edited conflict file)
    /// with no copy of the edit in any commit or file. What they hold is committed first now.
    @Test func resolveKeepsInHistoryAnEditMadeAfterTheConflictAppeared() throws {
        for keep in ["remote", "local"] {
            let r = Replicas(2)
            r.edit(0, note) { $0.replacingOccurrences(of: "| food | 300 |", with: "| food | 350 |") }
            r.edit(1, note) { $0.replacingOccurrences(of: "| food | 300 |", with: "| food | 250 |") }
            r.sync(0); r.sync(1)
            let conflict = try #require(r.conflictFiles(1).first)
            let edited = keep == "remote" ? note : conflict
            r.edit(1, edited) { $0 + "typed after the conflict appeared\n" }
            let resolved = CLI.run(["resolve", note, "--keep", keep], in: r[1])
            #expect(resolved.status == 0, "\(resolved.stderr)")
            let history = GitCLI.output(["log", "-p", "--all"], in: r[1])
            #expect(history.contains("+typed after the conflict appeared"), "--keep \(keep): the edit is in a commit")
        }
    }

    @Test func keepBothTurnsTheConflictFileIntoANote() {
        let r = Replicas(2)
        r.edit(0, note) { $0.replacingOccurrences(of: "| food | 300 |", with: "| food | 350 |") }
        r.edit(1, note) { $0.replacingOccurrences(of: "| food | 300 |", with: "| food | 250 |") }
        r.sync(0); r.sync(1)
        let result = CLI.run(["resolve", note, "--keep", "both"], in: r[1])
        #expect(result.status == 0, "\(result.stderr)")
        let copy = "Trips/Lisbon/Budget (conflict copy).md"
        #expect(r.file(1, copy).contains("| food | 350 |") && !r.file(1, copy).contains("conflict-of"))
        #expect(r.conflictFiles(1).isEmpty)
    }

    @Test func threeReplicasConvergeAfterEditsRenamesDeletesAndNewNotes() {
        let r = Replicas(3)
        r.edit(0, "Trips/Lisbon/Restaurants.md") { $0 + "\nAdded on r0.\n" }
        r.write(0, "Inbox/From r0.md", "---\ntitle: From r0\n---\nnew on r0\n")
        CLI.sh("mv 'Trips/Lisbon/Tram 28.md' 'Trips/Lisbon/Tram 28 line.md'", in: r[1])
        CLI.run(["tags", "add", "Trips/Lisbon/Packing list.md", "checked"], in: r[1])
        CLI.sh("rm 'Trips/Lisbon/Day trip to Sintra.md'", in: r[2])
        r.edit(2, "Trips/Lisbon/Tram 28.md") { $0 + "\nEdited on r2 before the rename arrived.\n" }
        r.syncAll()
        #expect(r.identical(0, 1) && r.identical(1, 2))
        #expect(r.conflictFiles(0).isEmpty)
        #expect(r.file(0, "Trips/Lisbon/Restaurants.md").contains("Added on r0."))
        #expect(r.file(1, "Inbox/From r0.md") == "---\ntitle: From r0\n---\nnew on r0\n")
        #expect(r.file(2, "Trips/Lisbon/Tram 28 line.md").contains("Edited on r2 before the rename arrived."))
        #expect(!FileManager.default.fileExists(atPath: r[0] + "/Trips/Lisbon/Tram 28.md"))
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/Trips/Lisbon/Day trip to Sintra.md"))
        #expect(r.file(2, "Trips/Lisbon/Packing list.md").contains("checked"))
    }

    @Test func anEditBeatsADelete() {
        let r = Replicas(2)
        CLI.sh("rm '\(note)'", in: r[0])
        r.edit(1, note) { $0 + "\nStill needed.\n" }
        r.sync(0)
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        r.sync(0)
        #expect(r.file(0, note).contains("Still needed."))
        #expect(r.identical(0, 1))
    }

    @Test func aDeleteArrivingAfterAnEditIsUndoneByTheEdit() {
        let r = Replicas(2)
        r.edit(0, note) { $0 + "\nEdited first.\n" }
        r.sync(0)
        CLI.sh("rm '\(note)'", in: r[1])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(pulled.stdout.contains("resurrected"))
        #expect(r.file(1, note).contains("Edited first."))
    }

    @Test func anUnreachableRemoteKeepsLocalCommitsAndExits75() {
        let r = Replicas(1, samples: false)
        CLI.run(["remote", "remove", "origin"], in: r[0])
        CLI.run(["remote", "add", "origin", "git://127.0.0.1:9/nothing.git"], in: r[0])
        r.write(0, "Start.md", "# Start\n\nchanged offline\n")
        let result = r.sync(0)
        #expect(result.status == 75)
        #expect(result.stderr.contains("cannot reach the remote origin"))
        #expect(result.stderr.contains("local commit"))
        #expect(r.git(0, ["status", "--porcelain"]).stdout.isEmpty, "the edit is committed locally")
        #expect(r.git(0, ["log", "-1", "--format=%s"]).stdout.hasPrefix("sheaf: r0: 1 edited"))
    }

    /// Regression: a remote folder that is gone (an unmounted drive, a moved folder) was
    /// reported as "unsupported URL protocol" (libgit2's word for a path it cannot open).
    @Test func aRemoteFolderThatIsGoneIsUnreachableAndNamed() throws {
        let r = Replicas(1, samples: false)
        try FileManager.default.moveItem(atPath: r.bare, toPath: r.bare + ".away")
        r.write(0, "Start.md", "# Start\n\nchanged while the drive is away\n")
        let result = r.sync(0)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("no folder at \(r.bare)"), "\(result.stderr)")
        #expect(!result.stderr.contains("unsupported URL protocol"))
        try FileManager.default.moveItem(atPath: r.bare + ".away", toPath: r.bare)
        #expect(r.sync(0).status == 0)
        #expect(runProcess("/usr/bin/git", ["--git-dir", r.bare, "log", "-1", "--format=%s"], in: r.temp.path).stdout.contains("1 edited"))
    }

    @Test func noRemoteIsAnErrorThatSaysWhatToDo() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let result = CLI.run(["sync"], in: vault)
        #expect(result.status == 2)
        #expect(result.stderr.contains("sheaf remote add origin URL"))
    }

    @Test func plainGitAndSheafInteroperate() {
        let r = Replicas(1)
        let gitClone = r.temp.path + "/plain"
        #expect(Replicas.git(["clone", "-q", r.bare, gitClone], in: r.temp.path).status == 0)
        CLI.write(CLI.read(gitClone + "/" + note) + "\nWritten with plain git.\n", to: gitClone + "/" + note)
        Replicas.git(["commit", "-qam", "plain edit"], in: gitClone)
        #expect(Replicas.git(["push", "-q"], in: gitClone).status == 0)
        r.edit(0, "Trips/Lisbon/Restaurants.md") { $0 + "\nWritten with sheaf.\n" }
        #expect(r.sync(0).status == 0)
        #expect(r.file(0, note).contains("Written with plain git."))
        #expect(Replicas.git(["pull", "-q", "--no-rebase"], in: gitClone).status == 0)
        #expect(CLI.read(gitClone + "/Trips/Lisbon/Restaurants.md").contains("Written with sheaf."))
        #expect(Replicas.git(["fsck", "--no-progress"], in: r[0]).status == 0)
        #expect(r.git(0, ["status", "--porcelain"]).stdout.isEmpty)
    }

    /// Regression (benchmarks): staging walked the vault twice and rewrote `.git/index` even when
    /// nothing had changed.
    @Test func nothingToCommitLeavesTheGitIndexAlone() throws {
        let r = Replicas(1, samples: false)
        let before = try FileManager.default.attributesOfItem(atPath: r[0] + "/.git/index")[.modificationDate] as? Date
        usleep(20_000)
        #expect(CLI.run(["commit"], in: r[0]).stdout == "nothing to commit\n")
        let after = try FileManager.default.attributesOfItem(atPath: r[0] + "/.git/index")[.modificationDate] as? Date
        #expect(before == after)
        r.write(0, "Other.md", "other\n")
        CLI.sh("rm Start.md", in: r[0])
        #expect(CLI.run(["commit"], in: r[0]).stdout.contains("1 added, 1 deleted"))
        #expect(r.git(0, ["status", "--porcelain"]).stdout.isEmpty)
    }

    @Test func statusShowsChangesAndCommitsToPush() {
        let r = Replicas(1, samples: false)
        r.write(0, "New.md", "new\n")
        let status = CLI.run(["status"], in: r[0])
        #expect(status.stdout.contains("added    New.md"))
        CLI.run(["commit"], in: r[0])
        #expect(CLI.run(["status"], in: r[0]).stdout.contains("1 commit to push to origin"))
    }

    @Test func pulledAttachmentsGetThumbnailsAndNoThumbnailIsCommitted() throws {
        let r = Replicas(2)
        let photo = r.temp.path + "/harbour.png"
        try FileManager.default.copyItem(atPath: r[0] + "/Trips/Lisbon/tram-28.png", toPath: photo)
        let attached = CLI.run(["attach", note, photo], in: r[0])
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(r.sync(0).status == 0)
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        // Same bytes as tram-28.png, whose thumbnail the clone made: content-addressed, so reused.
        #expect(pulled.stdout.contains("thumbnails: 0 made, 1 reused"))
        let listing = CLI.run(["attachments", "--json"], in: r[1]).stdout
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any])
        let entries = try #require(json["attachments"] as? [[String: Any]])
        let harbour = try #require(entries.first { ($0["path"] as? String) == "Trips/Lisbon/harbour.png" })
        let thumbnail = try #require(harbour["thumbnail"] as? String)
        #expect(thumbnail.hasPrefix(r[1] + "/.sheaf/thumbnails/") && FileManager.default.fileExists(atPath: thumbnail))
        for i in 0..<2 {
            #expect(!r.git(i, ["ls-files"]).stdout.contains(".sheaf"))
        }
        #expect(!Replicas.git(["--git-dir", r.bare, "ls-tree", "-r", "--name-only", "main"], in: r.temp.path).stdout.contains("thumbnails"))
    }
}

@Suite struct SyncFaultTests {
    /// kill -9 at random moments of `sync`, then run it again: every edit is present, the
    /// repository is consistent, no note holds a conflict marker.
    @Test func killedSyncsLoseNothing() throws {
        let r = Replicas(2)
        var rng = SeededRandom(seed: 75)
        var expected: [(Int, String, String)] = []
        let notes = ["Trips/Lisbon/Budget.md", "Trips/Lisbon/Restaurants.md", "Inbox/Welcome.md"]
        for round in 0..<8 {
            for i in 0..<2 {
                let path = notes[(round + i) % notes.count]
                let line = "round \(round) on r\(i)"
                r.edit(i, path) { $0 + "\n" + line + "\n" }
                r.write(i, "Inbox/r\(i) round \(round).md", "# \(line)\n")
                expected.append((i, path, line))
            }
            r.sync(0)
            let env = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": r[1], "LANG": "C.UTF-8", "TZ": "UTC"]
            let pid = try #require(Spawn.start(CLI.binary, ["sync", "-q"], in: r[1], environment: env))
            usleep(UInt32.random(in: 0...150_000, using: &rng))
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid)
            let again = r.sync(1)
            #expect(again.status == 0 || again.status == 1, "round \(round): \(again.stderr)")
        }
        r.syncAll()
        #expect(r.identical(0, 1), "differ: \(r.differences(0, 1))")
        for (_, path, line) in expected {
            let inNoteOrConflict = r.tracked(1).contains { key, data in
                (key == path || key.hasPrefix(String(path.dropLast(3)) + ".conflict-"))
                    && String(decoding: data, as: UTF8.self).contains(line)
            }
            #expect(inNoteOrConflict, "lost: \(line) in \(path)")
        }
        for i in 0..<2 {
            #expect(Replicas.git(["fsck", "--no-progress"], in: r[i]).status == 0)
            for (key, data) in r.tracked(i) where key.hasSuffix(".md") {
                #expect(!hasConflictMarkers(String(decoding: data, as: UTF8.self)), "\(key)")
            }
        }
    }
}

@Suite struct StaleLockTests {
    /// A lock a running git holds open is not touched: the sync says the index is locked.
    @Test func aLockHeldByARunningProcessIsLeftAlone() throws {
        let r = Replicas(1, samples: false)
        let holder = try #require(Spawn.start("/bin/sh", ["-c", "exec 3>.git/index.lock; sleep 30"], in: r[0],
                                              environment: ["PATH": "/usr/bin:/bin"]))
        defer { kill(holder, SIGKILL); _ = Spawn.wait(holder) }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: r[0] + "/.git/index.lock") { usleep(20_000) }
        r.write(0, "Start.md", "# Start\n\nedited\n")
        let result = r.sync(0)
        #expect(result.status == 2)
        #expect(result.stderr.contains("locked"))
        #expect(FileManager.default.fileExists(atPath: r[0] + "/.git/index.lock"))
    }
}

/// Regression (seen in a full run of killedSyncsLoseNothing under load): a sync killed while its
/// push held the bare remote's branch lock (`refs/heads/main.lock`, written in place by a push to
/// a folder) left it there, and every later sync said "the remote kept refusing the push after 4
/// tries": the lock, not a newer commit, refused each push.
@Suite struct RemoteBranchLockTests {
    @Test func aLockAKilledPushLeftOnAFolderRemoteIsRemovedAndAnyOtherIsNamed() throws {
        let r = Replicas(1, samples: false)
        let lock = r.bare + "/refs/heads/main.lock"
        // Someone else's push under way (no killed Sheaf of this vault left it): named, kept, no retries.
        r.edit(0, "Start.md") { $0 + "one\n" }
        CLI.write("", to: lock)
        let refused = r.sync(0)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the remote's branch is locked: \(lock)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("kept refusing"))
        #expect(FileManager.default.fileExists(atPath: lock))
        try FileManager.default.removeItem(atPath: lock)

        // What a Sheaf killed in its push leaves: its session record (its process gone), then the
        // lock it took after writing it.
        let gone = try #require(Spawn.start("/bin/true", [], in: r[0], environment: [:]))
        _ = Spawn.wait(gone)
        let boot = (try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
        CLI.write("pid \(gone)\nstart 1\nboot \(boot)\nend\n", to: r[0] + "/.sheaf/git-session")
        usleep(20_000)
        CLI.write("", to: lock)
        r.edit(0, "Start.md") { $0 + "two\n" }
        let synced = r.sync(0)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lock))
        let pushed = runProcess("/usr/bin/git", ["--git-dir", r.bare, "show", "main:Start.md"], in: r.temp.path).stdout
        #expect(pushed.contains("one\n") && pushed.contains("two\n"), "\(pushed)")
    }
}
