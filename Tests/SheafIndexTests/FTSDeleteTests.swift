import Foundation
import GRDB
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

/// The FTS rows of replaced and removed notes are deleted with the text of the version they were
/// made from, when that version is at hand (FTSDeletes.swift): no dead rows, so no compaction.
/// The check that matters: the incrementally kept table holds exactly the postings a fresh index
/// of the same files holds (fts5vocab), since a delete with the wrong text corrupts it silently.
@Suite struct FTSDeleteTests {
    /// A vault folder whose earlier note versions are kept by content hash, as a repository keeps
    /// committed blobs.
    final class Folder {
        let root = TempDir.make("ftsdelete")
        var versions: [String: [UInt8]] = [:]
        var asked: [String] = []
        var vault: Vault { Vault(root: root) }

        init() { try! FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Writes a note; its bytes are kept as a version that can be read back.
        func write(_ text: String, _ path: String, kept: Bool = true) {
            TestFile.write(text, to: root + "/" + path)
            if kept { versions[GitBlobID.of(Array(text.utf8))] = Array(text.utf8) }
        }

        func index() throws -> NoteIndex {
            let index = try NoteIndex(vault: vault)
            index.compactionMinimum = 1_000_000
            index.previousVersion = { [unowned self] id in asked.append(id); return versions[id] }
            return index
        }
    }

    /// A scan that must not have rebuilt the index (a delete with the wrong text can make SQLite
    /// report the table corrupt, and the index then rebuilds itself, hiding the fault).
    @discardableResult
    static func rescan(_ index: NoteIndex, _ folder: Folder) throws -> ScanReport {
        let report = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        #expect(report.rebuilt == nil)
        return report
    }

    static func dead(_ index: NoteIndex) throws -> Int {
        try index.pool.read { db in try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'")! }
    }

    /// Every (term, column, documents, occurrences) of the FTS table.
    static func postings(_ index: NoteIndex) throws -> [String] {
        try index.writer().write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, note_fts, 'col')")
            return try Row.fetchAll(db, sql: "SELECT term, col, doc, cnt FROM temp.vocab ORDER BY term, col").map { "\($0[0] as String) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)" }
        }
    }

    /// The postings of a fresh index of the folder's files.
    static func freshPostings(_ folder: Folder) throws -> [String] {
        let copy = TempDir.make("ftsfresh")
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder.root) where entry != ".sheaf" {
            try FileManager.default.copyItem(atPath: folder.root + "/" + entry, toPath: copy + "/" + entry)
        }
        try FileManager.default.createDirectory(atPath: copy + "/.sheaf", withIntermediateDirectories: true)
        let vault = Vault(root: copy)
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        return try postings(index)
    }

    @Test func editedRenamedAndRemovedNotesLeaveNoDeadRows() throws {
        let folder = Folder()
        folder.write("---\ntags: [trip]\n---\n# Lisbon\nalpha tram\n", "Trips/lisbon.md")
        folder.write("# Porto\nbeta wine\n", "Trips/porto.md")
        folder.write("# Ideas\ngamma 東京タワー\n", "ideas.md")
        folder.write("# Gone\ndelta\n", "gone.md")
        let index = try folder.index()
        _ = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        folder.write("---\ntags: [trip, sea]\n---\n# Lisbon\nalpha ferry\n", "Trips/lisbon.md")  // edited
        try FileManager.default.moveItem(atPath: folder.root + "/Trips/porto.md", toPath: folder.root + "/porto-2024.md")  // renamed
        try FileManager.default.removeItem(atPath: folder.root + "/gone.md")  // removed
        folder.write("# Ideas\ngamma 大阪城 Ἀθῆναι\n", "ideas.md")  // edited, CJK and Greek
        let r = try Self.rescan(index, folder)
        #expect(r.changed == 2 && r.renamed == 1 && r.removed == 1)
        #expect(try Self.dead(index) == 0)
        #expect(try Self.postings(index) == Self.freshPostings(folder))
        #expect(try index.search(SearchQuery.parse("tram"), vault: folder.vault).isEmpty)
        #expect(try index.search(SearchQuery.parse("ferry"), vault: folder.vault, options: SearchOptions(snippets: false)).map(\.path) == ["Trips/lisbon.md"])
    }

    /// A version that is not at hand (an edit never committed) leaves a dead row, as before.
    @Test func aVersionNotAtHandLeavesADeadRow() throws {
        let folder = Folder()
        folder.write("# A\nfirst\n", "a.md", kept: false)
        folder.write("# B\nsecond\n", "b.md")
        let index = try folder.index()
        _ = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        folder.write("# A\nthird\n", "a.md")
        folder.write("# B\nfourth\n", "b.md")
        try Self.rescan(index, folder)
        #expect(try Self.dead(index) == 1)
        try index.compact(vault: folder.vault)
        #expect(try Self.postings(index) == Self.freshPostings(folder))
    }

    /// Rows made under other text rules (another SQLite, an older Sheaf) are never deleted: a
    /// binary under other rules marks the table mixed, and only a compaction makes it ours again.
    @Test func rowsOfOtherTextRulesAreNeverDeleted() throws {
        let folder = Folder()
        folder.write("# A\nfirst\n", "a.md")
        let index = try folder.index()
        _ = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        try index.writer().write { db in try db.execute(sql: "UPDATE meta SET value = 'text 0' WHERE key = 'fts_rules'") }
        folder.write("# A\nsecond\n", "a.md")  // another binary's rows are in the table now
        try Self.rescan(index, folder)
        #expect(try Self.dead(index) == 1)
        folder.write("# A\nthird\n", "a.md")
        try Self.rescan(index, folder)
        #expect(try Self.dead(index) == 2)
        try index.compact(vault: folder.vault)
        folder.write("# A\nfourth\n", "a.md")
        try Self.rescan(index, folder)
        #expect(try Self.dead(index) == 0)
        #expect(try Self.postings(index) == Self.freshPostings(folder))
    }

    /// A compaction remakes each row from the file as it is now; a file that changed since it
    /// was indexed gets a row the catalog's hash does not name, so that row is never deleted
    /// with the old version's text.
    @Test func aRowACompactionMadeFromAChangedFileIsNotDeletedWithTheOldText() throws {
        let folder = Folder()
        folder.write("# A\nfirst\n", "a.md")
        let index = try folder.index()
        _ = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        folder.write("# A\nsecond\n", "a.md")
        try index.compact(vault: folder.vault)  // before any scan saw the edit
        folder.asked = []
        try Self.rescan(index, folder)
        #expect(folder.asked.isEmpty)
        #expect(try Self.dead(index) == 1)
        try index.compact(vault: folder.vault)
        #expect(try Self.postings(index) == Self.freshPostings(folder))
        #expect(try index.search(SearchQuery.parse("second"), vault: folder.vault, options: SearchOptions(snippets: false)).map(\.path) == ["a.md"])
    }

    /// FTS5's count of leaf pages it has flushed to new segments (`nWriteCounter` of the table's
    /// structure record, %_data rowid 10): one flush of a few small notes writes a page or two;
    /// a flush per note writes a page per note at least.
    static func leavesWritten(_ index: NoteIndex) throws -> UInt64 {
        let record = try index.pool.read { db in Array(try Data.fetchOne(db, sql: "SELECT block FROM note_fts_data WHERE id = 10")!) }
        var at = 4  // the cookie
        if record.count >= 8 && Array(record[4..<8]) == [0xFF, 0x00, 0x00, 0x01] { at = 8 }  // structure v2 (SQLite 3.44+)
        func varint() -> UInt64 {  // SQLite's: 7 bits a byte, high bit set when more follow; the ninth byte whole
            var value: UInt64 = 0
            for k in 0..<9 {
                let byte = record[at]
                at += 1
                if k == 8 { return value << 8 | UInt64(byte) }
                value = value << 7 | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            return value
        }
        _ = (varint(), varint())  // levels, segments
        return varint()
    }

    static func manyNotes(_ folder: Folder, _ count: Int, word: String) {
        for n in 0..<count { folder.write("# Note \(n)\n\(word) \(n) kept\n", String(format: "n%02d.md", n)) }
    }

    /// Regression (pull of 100 notes: a third of its CPU in FTS5): the old rows of rewritten
    /// notes were deleted in hash order, and every write below the previous rowid makes FTS5
    /// flush what it holds as a new segment: ~one segment per note instead of one per batch.
    @Test func rewritingManyNotesWritesTheirFTSChangesAsOneSegment() throws {
        let folder = Folder()
        Self.manyNotes(folder, 60, word: "alpha")
        let index = try folder.index()
        _ = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        let before = try Self.leavesWritten(index)
        Self.manyNotes(folder, 60, word: "beta")
        try Self.rescan(index, folder)
        #expect(try Self.dead(index) == 0)
        #expect(try Self.leavesWritten(index) - before < 10)
        #expect(try Self.postings(index) == Self.freshPostings(folder))
    }

    /// A compaction writes every row again at its own rowid: in rowid order, not catalog order
    /// (notes edited one at a time, last first, have FTS rowids going down the catalog).
    @Test func aCompactionWritesTheFTSTableInRowidOrder() throws {
        let folder = Folder()
        Self.manyNotes(folder, 40, word: "alpha")
        let index = try folder.index()
        _ = try index.scan(vault: folder.vault, walker: VaultWalker(vault: folder.vault))
        for n in (0..<40).reversed() {
            folder.write("# Note \(n)\nbeta \(n) kept\n", String(format: "n%02d.md", n), kept: false)
            try Self.rescan(index, folder)
        }
        try index.compact(vault: folder.vault)
        #expect(try Self.leavesWritten(index) < 10)  // 'delete-all' starts the count again
        #expect(try Self.postings(index) == Self.freshPostings(folder))
    }
}
