// After a pull, the index and the thumbnails are updated from the pull's change set: no walk of
// the vault, and a failure of either is reported (stderr and the JSON result), never dropped.
import Foundation
import TestSupport
import Testing

@Suite struct PullChangeSetTests {
    /// Two replicas; r0 edits one note and adds an image, then pushes.
    func replicasWithOneRemoteEdit() -> Replicas {
        let replicas = Replicas(2)
        replicas.edit(0, "Inbox/Welcome.md") { $0 + "\nA line from r0.\n" }
        CLI.write("not really a png", to: replicas[0] + "/Inbox/pic.png")
        let synced = replicas.sync(0)
        precondition(synced.status == 0, synced.stderr)
        return replicas
    }

    @Test func aPullReportsAnIndexFailureInsteadOfDroppingIt() throws {
        let replicas = replicasWithOneRemoteEdit()
        let index = replicas[1] + "/.sheaf/index.sqlite"
        #expect(CLI.run(["index"], in: replicas[1]).status == 0)
        // Another program holds the index's write lock for longer than Sheaf waits for it (5 s):
        // the index cannot be updated, and nothing Sheaf may move aside (an unusable index file
        // is rebuilt, which is no failure to report).
        let ready = replicas.temp.path + "/locked"
        let holder = try #require(Spawn.start("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time, pathlib
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN EXCLUSIVE")
            pathlib.Path(sys.argv[2]).touch()
            time.sleep(60)
            """, index, ready], in: replicas[1], environment: cleanEnvironment(home: replicas.temp.path)))
        defer { kill(holder, SIGKILL); _ = Spawn.wait(holder) }
        #expect(eventually(timeout: 20) { FileManager.default.fileExists(atPath: ready) })
        let pulled = CLI.run(["pull"], in: replicas[1])
        #expect(pulled.status == 0, "the pull itself is complete: \(pulled.stderr)")
        #expect(replicas.file(1, "Inbox/Welcome.md").contains("A line from r0."))
        #expect(pulled.stderr.contains("the index was not updated"), "stderr: \(pulled.stderr)")
        #expect(pulled.stderr.contains("sheaf index"))
    }

    @Test func aPullReportsAThumbnailFailureInsteadOfDroppingIt() throws {
        let replicas = replicasWithOneRemoteEdit()
        // A file where the thumbnail folder goes: no thumbnail can be written.
        try? FileManager.default.removeItem(atPath: replicas[1] + "/.sheaf/thumbnails")
        CLI.write("in the way", to: replicas[1] + "/.sheaf/thumbnails")
        let pulled = CLI.run(["pull", "--json"], in: replicas[1])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(pulled.stderr.contains("thumbnails of the pulled images were not made"), "stderr: \(pulled.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(pulled.stdout.utf8)) as? [String: Any]
        let warnings = json?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("thumbnails of the pulled images were not made") }, "\(pulled.stdout)")
    }

    @Test func aPullIndexesWhatItWroteSoTheNextScanReadsNothing() {
        let replicas = replicasWithOneRemoteEdit()
        let pulled = CLI.run(["pull"], in: replicas[1])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let search = CLI.run(["search", "line from r0"], in: replicas[1])
        #expect(search.stdout.contains("Welcome"), "\(search.stdout)")
        let index = CLI.run(["index"], in: replicas[1])
        #expect(index.stdout.contains("0 added, 0 changed, 0 removed, 0 renamed"), "\(index.stdout)")
        let attachments = CLI.run(["attachments"], in: replicas[1])
        #expect(attachments.stdout.contains("Inbox/pic.png"), "\(attachments.stdout)")
    }

    /// Done-when of issue 10: after `pull`, strace shows no stat of unchanged notes. The trace
    /// is read from the work-tree update on (the journal's creation): before it, committing local
    /// changes first asks git for the status of every tracked file, as `git status` does.
    @Test func aPullStatsNoNoteItDidNotChange() throws {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else { return }  // scripts/setup installs it
        let replicas = replicasWithOneRemoteEdit()
        let trace = replicas.temp.path + "/pull.trace"
        let pulled = runProcess(strace, ["-f", "-e", "trace=%file,%stat,openat", "-o", trace, CLI.binary, "pull"],
                                in: replicas[1])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let lines = CLI.read(trace).split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains("/.sheaf/sync-journal\"") && $0.contains("rename") }) else {
            Issue.record("the trace has no journal: \(lines.count) lines")
            return
        }
        let after = lines[start...]
        let root = replicas[1]
        let notes = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }
        #expect(notes.count > 10)
        // A walk stats names relative to their folder (fstatat(dirfd, "Name.md")), so a note is
        // looked for by its file name, quoted whole or after a slash. strace escapes non-ASCII
        // bytes: only ASCII names are checked (nearly all of the sample vault's).
        let unchanged = notes.filter { $0 != "Inbox/Welcome.md" && !$0.hasSuffix("/Welcome.md") && $0.utf8.allSatisfy { $0 < 0x80 } }
        #expect(unchanged.count > 10)
        for note in unchanged {
            let name = (note as NSString).lastPathComponent
            let seen = after.contains { $0.contains("\"" + name + "\"") || $0.contains("/" + name + "\"") }
            #expect(!seen, "the pull looked at \(note) after writing")
        }
        #expect(after.contains { $0.contains(root + "/Inbox/Welcome.md") }, "the changed note is read to index it")
    }
}
