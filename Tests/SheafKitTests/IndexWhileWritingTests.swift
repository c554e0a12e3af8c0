// A pull's index pass that reads the files while the rest are being written (IndexWhileWriting,
// issue 28's clone row: the index waited for the whole checkout). What it must never change is
// the result: after a clone or a big pull the index holds exactly what a rebuild from the files
// holds, rules arriving late included (an `.obsidian/app.json` written after the pass began).
import Foundation
import GRDB
import SheafCore
import SheafFiles
@testable import SheafIndex
import Testing
import TestSupport
@testable import SheafKit

@Suite struct IndexWhileWritingTests {
    /// Notes under `#Inbox/` (which sorts before `.obsidian/`, so a checkout writes them first),
    /// Obsidian's settings excluding `#Inbox/Excluded/`, and notes under `Notes/` written after.
    static func writeNotes(_ count: Int, into folder: String, from first: Int = 0) {
        for i in first..<(first + count) {
            let text = "---\ntags: [t\(i % 7)]\naliases: [Alias \(i)]\n---\n# Note \(i)\n\nrunning line \(i) of [[Note \(i + 1)]], "
                + "see [x](Other%20\(i).md) #inline\(i % 3)\n"
            TestFile.write(text, to: folder + "/\(i % 2 == 0 ? "#Inbox" : "Notes")/Sub \(i % 3)/Note \(i).md")
        }
    }

    static func pushed(_ source: String, to bare: String) {
        for args in [["add", "-A"], ["commit", "-qm", "notes"], ["push", "-q", bare, "main"]] {
            #expect(GitCLI.run(args, in: source).status == 0)
        }
    }

    static func remote(in temp: TempDir, notes count: Int) -> (bare: String, source: String) {
        let bare = bareRemote(in: temp)
        let source = temp.path + "/source"
        runProcess("/usr/bin/git", ["init", "-q", "-b", "main", source], in: temp.path)
        writeNotes(count, into: source)
        for i in 0..<5 { TestFile.write("# Hidden \(i)\n\nrunning excluded\n", to: source + "/#Inbox/Excluded/Hidden \(i).md") }
        TestFile.write("{\"userIgnoreFilters\": [\"#Inbox/Excluded/\"]}\n", to: source + "/.obsidian/app.json")
        TestFile.write("not a note\n", to: source + "/Notes/data.csv")
        pushed(source, to: bare)
        return (bare, source)
    }

    /// Everything the index holds that a rebuild must give again, row ids and inodes left out
    /// (the order of reading and racily clean rows may differ), with the FTS table's terms
    /// by column and document count.
    static func contents(of root: String) throws -> [String] {
        let index = try NoteIndex(vault: Vault(root: root))
        return try index.pool.writeWithoutTransaction { db in
            var lines: [String] = []
            for sql in [
                "SELECT path, folder, note_id, title, aliases, created, modified, size, mtime_ns, hash, snippet, warnings, is_conflict FROM notes ORDER BY path",
                "SELECT n.path, t.tag, t.key FROM tags t JOIN notes n ON n.rowid = t.note ORDER BY 1, 2",
                "SELECT n.path, l.kind, l.target, l.target_key, l.byte_offset, l.no_name FROM links l JOIN notes n ON n.rowid = l.note ORDER BY 1, 5",
                "SELECT path, name_key, size, mtime_ns FROM files ORDER BY path",
                "SELECT path, hash, type FROM attachments ORDER BY path",
            ] {
                for row in try Row.fetchAll(db, sql: sql) { lines.append(row.description) }
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms USING fts5vocab(main, note_fts, col)")
            for row in try Row.fetchAll(db, sql: "SELECT term, col, doc, cnt FROM temp.terms ORDER BY term, col") {
                lines.append(row.description)
            }
            return lines
        }
    }

    static func expectAsRebuilt(_ root: String, _ comment: Comment) throws {
        let indexed = try contents(of: root)
        #expect(indexed.count > 1000, comment)
        let excluded = indexed.filter { $0.contains("Excluded/Hidden") }
        #expect(excluded.isEmpty, "\(comment): Obsidian excludes \(excluded.prefix(2))")
        _ = try VaultSession.open(explicit: nil, environment: [:], workingDirectory: root).updateIndex(rebuild: true)
        let rebuilt = try contents(of: root)
        let differences = zip(indexed, rebuilt).filter { $0 != $1 }.prefix(3)
        #expect(indexed.count == rebuilt.count && differences.isEmpty,
                "\(comment): \(indexed.count) rows against \(rebuilt.count) rebuilt; first differences \(differences)")
    }

    @Test func aCloneIndexedWhileItWritesHoldsWhatARebuildHolds() throws {
        let temp = TempDir("early")
        let (bare, _) = Self.remote(in: temp, notes: 1400)
        let (session, run) = try VaultSession.clone(url: bare, into: temp.path + "/clone", branch: "main", options: SyncOptions())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        // Added less removed: the early pass may have read the excluded notes before the settings arrived.
        #expect(run.indexed.map { $0.added - $0.removed } == 1400)
        try Self.expectAsRebuilt(session.vault.root, "the clone")
        // The next command finds nothing to read again.
        let next = try VaultSession.open(explicit: nil, environment: [:], workingDirectory: session.vault.root).updateIndex(rebuild: false)
        #expect(next.map { $0.added + $0.changed + $0.removed } == 0)
    }

    @Test func aBigPullIndexedWhileItWritesHoldsWhatARebuildHolds() throws {
        let temp = TempDir("early")
        let (bare, source) = Self.remote(in: temp, notes: 10)
        let (session, _) = try VaultSession.clone(url: bare, into: temp.path + "/clone", branch: "main", options: SyncOptions())
        // The pull adds 1,400 notes, changes one and deletes one.
        Self.writeNotes(1400, into: source, from: 10)
        TestFile.write("# Note 3\n\nchanged running\n", to: source + "/Notes/Sub 0/Note 3.md")
        try FileManager.default.removeItem(atPath: source + "/#Inbox/Sub 2/Note 2.md")
        Self.pushed(source, to: bare)
        let run = try session.pull(SyncOptions())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        #expect(run.changes.added.count + run.changes.renamed.count == 1400)  // git may pair the deleted note with a new one
        try Self.expectAsRebuilt(session.vault.root, "the pull")
    }

    /// Issue 28's pull row: a pull of a hundred notes is written in about one tick, so a pass
    /// that waited out the tick read none of them and the whole index update waited for the last
    /// write. The first notes are read as they come; what that leaves racily clean is settled
    /// by the update of the whole change set, and the index is as rebuilt.
    @Test func aHundredNotePullIsIndexedWhileItIsWrittenAndHoldsWhatARebuildHolds() throws {
        let (v, session, early) = try Self.earlyPass(writing: 100)
        // All but the last few (fewer than an eager batch, left to the update of the change set).
        let most = 100 - IndexWhileWriting.eagerBatch + 1
        #expect(try Self.waitUntilIndexed(most, session) >= most, "the notes were read before the update ended")
        var run = SyncRun(remote: "origin")
        let paths = (0..<100).map { "Notes/Note \($0).md" }
        session.updateIndex(after: VaultChangeSet(added: paths), into: &run, early: early.finish())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        #expect(run.indexed?.added == 100 && run.indexed?.changed == 0, "read twice is added once: \(String(describing: run.indexed))")
        #expect(try NoteIndex(vault: session.vault).allPaths().count == 100, "in \(v.root)")
        let temp = TempDir("early")
        let (bare, source) = Self.remote(in: temp, notes: 10)
        let (clone, _) = try VaultSession.clone(url: bare, into: temp.path + "/clone", branch: "main", options: SyncOptions())
        Self.writeNotes(120, into: source, from: 10)
        TestFile.write("# Note 3\n\nchanged running\n", to: source + "/Notes/Sub 0/Note 3.md")
        Self.pushed(source, to: bare)
        let pulled = try clone.pull(SyncOptions())
        #expect(pulled.warnings.isEmpty, "\(pulled.warnings)")
        #expect(pulled.indexed.map { $0.added + $0.renamed } == 120 && pulled.indexed?.changed == 1,
                "\(String(describing: pulled.indexed))")
        try Self.expectAsRebuilt(clone.vault.root, "the pull of 121 notes")
    }

    /// A note read by the early pass as it landed, then edited in place to the same size with
    /// its mtime put back (an editor's save the clock cannot tell apart): the index still ends
    /// with the edit, because a row read within a tick of its write is racily clean.
    @Test func anEditHiddenFromTheClockAfterAnEagerReadStillReachesTheIndex() throws {
        let count = IndexWhileWriting.eagerBatch
        let (v, session, early) = try Self.earlyPass(writing: count)
        #expect(try Self.waitUntilIndexed(count, session) == count)
        let path = v.root + "/Notes/Note 3.md"
        var before = stat()
        #expect(stat(path, &before) == 0)
        try v.write("# Note 3\n\njogging\n", "Notes/Note 3.md")  // "running" and "jogging": same size
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var run = SyncRun(remote: "origin")
        let paths = (0..<count).map { "Notes/Note \($0).md" }
        session.updateIndex(after: VaultChangeSet(added: paths), into: &run, early: early.finish())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        let indexed = try Self.contents(of: v.root)
        #expect(indexed.contains { $0.contains("jogging") }, "the edit reached the index")
        _ = try VaultSession.open(explicit: nil, environment: [:], workingDirectory: v.root).updateIndex(rebuild: true)
        // The catalog as rebuilt. The FTS terms are left out: the replaced version's text is in no
        // file or commit any more, so its FTS row stays dead (counted, never matched) until the
        // index is compacted, as after any edit of that kind.
        let catalog = indexed.filter { !$0.hasPrefix("[term:") }
        let rebuilt = try Self.contents(of: v.root).filter { !$0.hasPrefix("[term:") }
        #expect(rebuilt.contains { $0.contains("jogging") })
        let differences = zip(catalog, rebuilt).filter { $0 != $1 }.prefix(3)
        #expect(catalog.count == rebuilt.count && differences.isEmpty,
                "\(catalog.count) rows against \(rebuilt.count) rebuilt; first differences \(differences)")
    }

    /// An indexed vault and an early pass that was told of `count` notes as each was written.
    static func earlyPass(writing count: Int) throws -> (KitVault, VaultSession, IndexWhileWriting) {
        let v = try KitVault()
        let session = try v.session()
        _ = try session.freshIndex()
        let early = IndexWhileWriting { (try! session.writableIndex(), try! session.walker(forIndex: true, ownRepository: true)) }
        for i in 0..<count {
            try v.write("# Note \(i)\n\nrunning\n", "Notes/Note \(i).md")
            early.wrote("Notes/Note \(i).md")
        }
        return (v, session, early)
    }

    /// Waits until the early pass of `session`'s vault has stored `count` notes.
    static func waitUntilIndexed(_ count: Int, _ session: VaultSession) throws -> Int {
        let reader = try NoteIndex(vault: session.vault)
        var read = 0
        let deadline = Date(timeIntervalSinceNow: 60)
        while read < count, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            read = (try? reader.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") }) ?? 0
        }
        return read
    }

    /// A sync whose push was rejected pulls again, and the two pulls' change sets are composed:
    /// a file the first pull wrote and the second deleted is named by neither any more. The
    /// early pass had read it; the index still drops it.
    @Test func aFileTheEarlyPassReadAndALaterPullDeletedLeavesTheIndex() throws {
        let (v, session, early) = try Self.earlyPass(writing: 500)
        #expect(try Self.waitUntilIndexed(500, session) == 500)
        try FileManager.default.removeItem(atPath: v.root + "/Notes/Note 7.md")
        var run = SyncRun(remote: "origin")
        session.updateIndex(after: VaultChangeSet(), into: &run, early: early.finish())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        let paths = try NoteIndex(vault: session.vault).allPaths()
        #expect(paths.count == 499 && !paths.contains("Notes/Note 7.md"), "\(paths.count) notes indexed")
        #expect(run.indexed?.added == 499 && run.indexed?.removed == 0, "added then removed is nothing: \(String(describing: run.indexed))")
    }

    /// The pass itself: the first paths are read as they land, then a batch written a tick ago
    /// is read while the update goes on; a path written just before the update ends is left to
    /// the update of the whole change set.
    @Test func theEarlyPassReadsWhatWasWrittenATickAgoAndLeavesTheLastPaths() throws {
        let (v, session, early) = try Self.earlyPass(writing: 1100)
        let two = 2 * IndexWhileWriting.batch
        #expect(try Self.waitUntilIndexed(two, session) >= two, "a full batch written a tick ago, after the eager ones, was read before the update ended")
        try v.write("# Last\n\nrunning\n", "Last.md")
        early.wrote("Last.md")
        let handed = early.finish()
        #expect(handed != nil)
        let added = handed?.report?.changes.added.map(\.path) ?? []
        #expect(added.count >= two)
        #expect(!added.contains("Last.md"), "a path written within a tick is not read by the early pass")
        #expect(early.finish() != nil, "finishing twice hands over the same")
    }
}
