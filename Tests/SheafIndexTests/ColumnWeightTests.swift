// The FTS table keeps the body as its first column (migration v9-body-first: FTS5 writes no
// column number before the first column's positions, a quarter of the index at 10k), while bm25
// weighs the columns by name: a word in a title (or alias) ranks above one in the tags, the tags
// above the path, the path above the body. The weights are passed in the table's order, so a
// column moved without its weight would rank a body match as a title.
import Foundation
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

@Suite struct ColumnWeightTests {
    @Test func aTitleOutranksTagsPathAndBodyWithTheBodyStoredAsTheFirstColumn() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // One tag and three body words each, so no column's length sets one note apart.
        TestFile.write("---\ntitle: Zephyr\ntags: [x]\n---\nplain words here\n", to: root + "/A.md")
        TestFile.write("---\ntags: [zephyr]\n---\nplain words here\n", to: root + "/B.md")
        TestFile.write("---\ntags: [x]\n---\nplain words here\n", to: root + "/Zephyr/C.md")
        TestFile.write("---\ntags: [x]\n---\nplain words zephyr\n", to: root + "/D.md")
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let columns = try index.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('note_fts')") }
        #expect(columns.first == "body")
        let hits = try index.search(SearchQuery.parse("zephyr"), vault: vault)
        #expect(hits.map(\.path) == ["A.md", "B.md", "Zephyr/C.md", "D.md"], "\(hits.map { ($0.path, $0.score) })")
    }

    @Test func anIndexWithTheBodyAfterTheOtherColumnsIsMadeAgainBodyFirst() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        TestFile.write("plain words zephyr\n", to: root + "/D.md")
        try OldIndex.make(in: root, upTo: "v8-link-offsets")
        let index = try NoteIndex(vault: vault)
        #expect(index.rebuildReason == .schemaChanged)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let columns = try index.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('note_fts')") }
        #expect(columns == ["body", "title", "aliases", "tags", "path", "meta", "cjk"])
        #expect(try index.search(SearchQuery.parse("zephyr"), vault: vault).map(\.path) == ["D.md"])
    }
}
