import Foundation
import SheafCore
import GRDB
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

@Suite struct ScannerTests {
    func makeVault() -> (Vault, String) {
        let root = TempDir.make("index")
        try! FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        return (Vault(root: root), root)
    }

    func write(_ text: String, _ path: String) { TestFile.write(text, to: path) }

    func scan(_ vault: Vault) throws -> ScanReport {
        try NoteIndex(vault: vault).scan(vault: vault, walker: VaultWalker(vault: vault))
    }

    @Test func addsChangesRenamesAndRemovals() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# A\nalpha\n", root + "/a.md")
        write("# B\nbeta\n", root + "/dir/b.md")
        write("png", root + "/dir/pic.png")
        var r = try scan(vault)
        #expect((r.scanned, r.added, r.changed, r.removed, r.renamed) == (3, 2, 0, 0, 0))
        #expect(r.rebuilt == .missing)

        r = try scan(vault)
        #expect((r.added, r.changed, r.removed, r.renamed) == (0, 0, 0, 0))
        #expect(r.rebuilt == nil)

        write("# A\nalpha gamma\n", root + "/a.md")
        try FileManager.default.moveItem(atPath: root + "/dir/b.md", toPath: root + "/dir/c.md")
        write("# D\ndelta\n", root + "/d.md")
        r = try scan(vault)
        #expect((r.added, r.changed, r.removed, r.renamed) == (1, 1, 0, 1))

        // A new mtime with the same bytes is not a change.
        write("# D\ndelta\n", root + "/d.md")
        try FileManager.default.removeItem(atPath: root + "/a.md")
        r = try scan(vault)
        #expect((r.added, r.changed, r.removed, r.renamed) == (0, 0, 1, 0))

        let index = try NoteIndex(vault: vault)
        let hits = try index.search(SearchQuery.parse("beta"), vault: vault, options: SearchOptions(snippets: false))
        #expect(hits.map(\.path) == ["dir/c.md"])
        #expect(try index.search(SearchQuery.parse("gamma"), vault: vault).isEmpty)
    }

    @Test func garbageDatabaseIsRebuilt() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# A\nalpha\n", root + "/a.md")
        _ = try scan(vault)
        write(String(repeating: "garbage", count: 1000), root + "/.sheaf/index.sqlite")
        let index = try NoteIndex(vault: vault)
        #expect(index.rebuildReason == .unreadable)
        let r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.added == 1)
    }

    /// Regression: the open no longer runs `PRAGMA quick_check` (it read every page on every
    /// command); damage past the header must still cost one rebuild, never an error.
    @Test func aTruncatedIndexIsRebuiltByTheScan() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for i in 0..<300 { write("# Note \(i)\n" + String(repeating: "word\(i) filler text ", count: 60), root + "/n\(i).md") }
        _ = try scan(vault)
        let path = root + "/.sheaf/index.sqlite"
        let handle = FileHandle(forWritingAtPath: path)!
        try handle.truncate(atOffset: 16 * 4096)
        try handle.close()
        let index = try NoteIndex(vault: vault)
        let r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.rebuilt == .unreadable && r.added == 300)
        #expect(try index.search(SearchQuery.parse("word7"), vault: vault, options: SearchOptions(snippets: false)).map(\.path) == ["n7.md"])
    }

    /// Edits leave dead rows in the contentless FTS table; past a quarter of the live rows the
    /// table is rebuilt from the files, and search answers the same before and after.
    @Test func deadFtsRowsAreCompacted() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["a", "b", "c", "d"] { write("# \(name)\nshared start\n", root + "/\(name).md") }
        let index = try NoteIndex(vault: vault)
        index.compactionMinimum = 3
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        func dead() throws -> Int { try index.pool.read { db in try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'")! } }
        func ftsRows() throws -> Int { try index.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note_fts_docsize")! } }
        var compactions = 0
        for round in 1...4 {
            write("# a\nversion\(round)word\n", root + "/a.md")
            write("# b\nversion\(round)word\n", root + "/b.md")
            let r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
            if r.compacted { compactions += 1; #expect(try dead() == 0 && ftsRows() == 4) }
            else { #expect(try ftsRows() == 4 + dead()) }
            let hits = try index.search(SearchQuery.parse("version\(round)word"), vault: vault, options: SearchOptions(snippets: false))
            #expect(hits.map(\.path).sorted() == ["a.md", "b.md"])
            #expect(try index.search(SearchQuery.parse("version\(round - 1)word"), vault: vault).isEmpty)
            #expect(try index.search(SearchQuery.parse("shared"), vault: vault, options: SearchOptions(snippets: false)).map(\.path).sorted() == ["c.md", "d.md"])
        }
        #expect(compactions == 2)  // dead rows 2, 4 (compacted), 2, 4 (compacted)
    }

    /// An index made before "v2-prefix-tokens" has an FTS table that cannot be re-tokenized: the
    /// migration empties the catalog and marks it, and the next scan reads every file again.
    @Test func anIndexFromBeforePrefixTokensIsRebuilt() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# Jogging\nI went running.\n", root + "/run.md")
        do {
            let old = try DatabaseQueue(path: root + "/.sheaf/index.sqlite")
            try Schema.migrator.migrate(old, upTo: "v1")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO notes (path, folder, title, aliases, created, modified, size, mtime_ns, inode, hash, snippet, warnings, fts_rowid)
                    VALUES ('ghost.md', '', 'Ghost', '', 0, 0, 1, 1, 1, 'x', '', '', 1);
                    INSERT INTO note_fts (rowid, title, body) VALUES (1, 'Ghost', 'ghostly running');
                    """)
            }
        }
        let index = try NoteIndex(vault: vault)
        #expect(index.rebuildReason == .schemaChanged)
        let r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.added == 1 && r.rebuilt == .schemaChanged)
        let options = SearchOptions(snippets: false)
        #expect(try index.search(SearchQuery.parse("runn*"), vault: vault, options: options).map(\.path) == ["run.md"])
        #expect(try index.search(SearchQuery.parse("ghostly"), vault: vault, options: options).isEmpty)
        #expect(try NoteIndex(vault: vault).rebuildReason == nil)
    }

    /// Snippets of notes read whole skip the YAML parse; notes read in part (broken YAML) are
    /// parsed as the index parsed them, so words of the unreadable block are found in the snippet.
    @Test func snippetsComeFromTheBodyAsIndexed() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("---\ntitle: Alpha\ntags: [zebra]\n---\nfirst line\nthe zebra line\n", root + "/ok.md")
        write("---\ntitle: [unclosed\nquux: here\n---\nbody text\n", root + "/broken.md")
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let ok = try index.search(SearchQuery.parse("zebra"), vault: vault)
        #expect(ok.map(\.path) == ["ok.md"])
        #expect(ok.first?.snippet.map(\.text).joined() == "the zebra line")
        #expect(ok.first?.snippet.filter(\.match).map(\.text) == ["zebra"])
        let broken = try index.search(SearchQuery.parse("quux"), vault: vault)
        #expect(broken.map(\.path) == ["broken.md"])
        #expect(broken.first?.snippet.filter(\.match).map(\.text) == ["quux"])
    }

    /// Regression: without an index on notes.fts_rowid SQLite scanned the catalog for every FTS
    /// hit, and a one-word search over 10k notes took 2 s.
    @Test func searchJoinUsesTheFtsRowidIndex() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let index = try NoteIndex(vault: vault)
        let rows = try index.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT n.path FROM note_fts JOIN notes n ON n.fts_rowid = note_fts.rowid WHERE note_fts MATCH 'x'")
        }.map { $0["detail"] as String }.joined(separator: "\n")
        #expect(rows.contains("notes_fts_rowid"), "\(rows)")
    }

    @Test func cjkBigrams() {
        #expect(CJKBigrams.of(["日本語 and 한국어"]) == "日本 本語 0 한국 국어")
        #expect(NoteIndex.text("東京都", prefix: false) == "cjk : \"東京 京都\"")
        #expect(NoteIndex.text("a\"b", prefix: true) == "\"a\"\"b\" *")
    }
}
