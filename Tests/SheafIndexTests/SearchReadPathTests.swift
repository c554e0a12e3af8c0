// The read path of a search: the index opened as one read-only connection (`queryOnly`), the
// best hits ranked on the full-text rows alone before the catalog is read (`topRanked`), and
// the snippet's white-space trimming done without Foundation. Each must answer exactly as the
// path it replaced.
import Foundation
import TestSupport
import SheafCore
import GRDB
import SheafFiles
import Testing
@testable import SheafIndex

@Suite struct SearchReadPathTests {
    func vault(_ notes: [(String, String, mtime: Int)]) throws -> (Vault, String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sheaf-readpath-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        for (path, text, mtime) in notes { try write(root, path, text, mtime: mtime) }
        return (Vault(root: root), root)
    }

    func write(_ root: String, _ path: String, _ text: String, mtime: Int) throws {
        TestFile.write(text, to: root + "/" + path)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(mtime))], ofItemAtPath: root + "/" + path)
    }

    /// What the search asked SQLite before `topRanked`: the join, ordered and limited by SQLite.
    func joined(_ db: Database, match: String, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT n.path FROM note_fts JOIN notes n ON n.fts_rowid = note_fts.rowid
            WHERE note_fts MATCH ? ORDER BY bm25(note_fts, \(NoteIndex.weights)), n.modified DESC LIMIT ?
            """, arguments: [match, limit])
    }

    /// Equal scores (the same text in several notes) are ordered by recency past the limit's
    /// edge, and rows the catalog no longer has (an edited note's old row, dead until the next
    /// compaction) are skipped, for every limit, as the joined query does.
    @Test func topRankedAnswersAsTheJoinedQuery() throws {
        var notes: [(String, String, mtime: Int)] = []
        for i in 0..<6 { notes.append(("same\(i).md", "# Same\nrunning in the park\n", 1_700_000_000 + i * 97 % 11 * 1000)) }
        notes.append(("many.md", "# Many\nrunning running running, then running\n", 1_600_000_000))
        notes.append(("title.md", "# Running\nnothing else\n", 1_650_000_000))
        notes.append(("other.md", "# Other\nwalking only\n", 1_690_000_000))
        notes.append(("edited.md", "# Edited\nrunning running running running running running\n", 1_680_000_000))
        let (vault, root) = try vault(notes)
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        // Its old row, the best match of all, stays in the FTS table as a dead row.
        try write(root, "edited.md", "# Edited\nnothing of the kind\n", mtime: 1_680_000_500)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let dead = try index.pool.read { db in try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'") ?? 0 }
        #expect(dead > 0)

        for word in ["running", "run", "park", "nothing", "absent"] {
            let match = NoteIndex.matchExpression([.word(word)], excluded: [])
            for limit in [0, 1, 2, 3, 4, 5, 6, 7, 8, 50, -1] {
                let (hits, readWhole) = try index.pool.read { db in try NoteIndex.topRanked(db, match: match, limit: limit) }
                let expected = try index.pool.read { db in try joined(db, match: match, limit: limit) }
                #expect(hits.map(\.path) == expected, "\(word), limit \(limit)")
                #expect(readWhole.count == hits.count && readWhole.allSatisfy { !$0.hash.isEmpty })
                #expect(!hits.contains { $0.path == "edited.md" && word == "running" })
            }
        }
        // And through `search`, with snippets.
        let hits = try index.search(SearchQuery.parse("running"), vault: vault, options: SearchOptions(limit: 3))
        #expect(hits.map(\.path) == (try index.pool.read { db in try joined(db, match: NoteIndex.matchExpression([.word("running")], excluded: []), limit: 3) }))
        #expect(hits.allSatisfy { $0.snippet.contains { $0.match } })
    }

    /// `queryOnly` opens one read-only connection: it answers as the pool does, cannot write,
    /// leaves the index to writers (a scan while it is open, and after), and a database of
    /// another format is still refused.
    @Test func aQueryOnlyIndexAnswersAndLeavesTheIndexToWriters() throws {
        let (vault, root) = try vault([("a.md", "# Alpha\nrunning fast\n", 1_700_000_000), ("b.md", "# Beta\nwalking\n", 1_700_000_100)])
        let writer = try NoteIndex(vault: vault)
        _ = try writer.scan(vault: vault, walker: VaultWalker(vault: vault))
        let reader = try #require(try NoteIndex.openForReading(vault: vault, queryOnly: true))
        #expect(reader.isReadOnly)
        let pool = try #require(try NoteIndex.openForReading(vault: vault))
        #expect(!pool.isReadOnly)
        let query = try SearchQuery.parse("running")
        #expect(try reader.search(query, vault: vault).map(\.path) == pool.search(query, vault: vault).map(\.path))
        #expect(throws: (any Error).self) { try reader.pool.write { db in try db.execute(sql: "DELETE FROM notes") } }

        try write(root, "c.md", "# Gamma\nrunning late\n", mtime: 1_700_000_200)
        _ = try writer.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(try reader.search(query, vault: vault).map(\.path).sorted() == ["a.md", "c.md"])
        let again = try #require(try NoteIndex.openForReading(vault: vault, queryOnly: true))
        #expect(try again.search(query, vault: vault).map(\.path).sorted() == ["a.md", "c.md"])

        try writer.writer().write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        #expect(try NoteIndex.openForReading(vault: vault, queryOnly: true) == nil)
    }

    /// The trimming of snippet lines and git configuration lines is Foundation's
    /// `trimmingCharacters(in: .whitespaces)`: on samples, and on every scalar of the BMP around a
    /// letter.
    @Test func snippetTrimmingIsFoundationsWhitespaceTrimming() {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let s = String(scalar) + "a" + String(scalar)
            if s.trimmingHorizontalWhitespace != s.trimmingCharacters(in: .whitespaces) {
                Issue.record("U+\(String(value, radix: 16)) is trimmed otherwise than Foundation trims it")
            }
        }
        let samples = ["", " ", "\t", "  a  ", "\ta b\t", "\u{00A0}x\u{00A0}", "\u{3000}全角\u{3000}", "\u{2003}em\u{2009}",
                       " \u{0301}accent ", "x\u{200B}", "\u{200B}x", "\u{FEFF}bom", "tab\t\t", " \u{1680}ogham",
                       "\u{202F}narrow\u{205F}", "\u{0085}nel", "\u{0B}vt\u{0C}", "\rcr\r", "\u{1F}us\u{7F}", "a\u{2028}", "🏃 run 🏃 ", " e\u{0301} "]
        for s in samples {
            #expect(s.trimmingHorizontalWhitespace == s.trimmingCharacters(in: .whitespaces), "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}

extension SearchReadPathTests {
    /// The lines a snippet is looked for in are `split(whereSeparator: \.isNewline)`'s, found one
    /// at a time: every kind of line end, CR LF, empty lines, combining marks after a line end.
    @Test func snippetLinesAreTheLinesOfSplit() {
        let ends = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\n\n", "\r\n\r\n"]
        let words = ["a", "run", "e\u{301}", "\u{301}x", "日本", " ", "", "\t"]
        var generator = SystemRandomNumberGenerator()
        var texts = ["", "\n", "\r\n", "one", "one\n", "\none", "a\r\nb\rc\nd"]
        for _ in 0..<2000 {
            texts.append((0..<Int.random(in: 1...10, using: &generator)).map { _ in
                Bool.random(using: &generator) ? ends.randomElement(using: &generator)! : words.randomElement(using: &generator)!
            }.joined())
        }
        for text in texts {
            let bytes = Array(text.utf8)
            var lines: [Substring] = []
            Snippet.forEachLine(of: bytes) { lines.append(Self.line(text, $0, $1)); return true }
            let split: [String] = text.split(whereSeparator: \.isNewline).map { String($0) }
            #expect(lines.map { String($0) } == split, "\(text.debugDescription)")
            var first: [Substring] = []
            Snippet.forEachLine(of: bytes) { first.append(Self.line(text, $0, $1)); return false }
            let firstOfSplit: [String] = text.split(whereSeparator: \.isNewline).prefix(1).map { String($0) }
            #expect(first.map { String($0) } == firstOfSplit)
        }
    }

    /// Bytes `start..<end` of `text`'s UTF-8.
    static func line(_ text: String, _ start: Int, _ end: Int) -> Substring {
        let utf8 = text.utf8
        return text[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
    }

    /// A snippet's line is read from the body's bytes in place: the same plain text as the line
    /// taken as a String and trimmed of its horizontal white space, Unicode spaces at its ends,
    /// headings and markup included.
    @Test func snippetLinesReadInPlaceAreTheTrimmedLinesPlainText() {
        let pieces = [" ", "\t", "\u{A0}", "\u{3000}", "\u{200B}", "# ", "## ", "- ", "> ", "**run**", "*a*", "[[N|alias]]",
                      "[t](u)", "`c`", "![i](p.png)", "é", "e\u{301}", "日本", "word", "#", "~~s~~", "<b>"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let line = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(("x\n" + line + "\ny").utf8)
            let start = 2, end = bytes.count - 2
            #expect(Snippet.plainLine(bytes, start, end) == MarkdownScan.plainLine(line.trimmingHorizontalWhitespace), "\(line.debugDescription)")
        }
    }

    /// A note whose body holds none of the words (it matched by its title) gets its start as the
    /// snippet: the one the index stored when the file is as indexed, the file's own once edited.
    @Test func aTitleOnlyHitsSnippetIsTheNotesStartAsItIsNow() throws {
        let (vault, root) = try vault([("t.md", "---\ntitle: Running\ntags: [x]\n---\nFirst words of the body.\n\nMore.\n", 1_700_000_000)])
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let query = try SearchQuery.parse("running")
        let before = try index.search(query, vault: vault)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/t.md")))
        let expected: [String] = [Note(path: "t.md", bytes: bytes).snippet]
        let snippets: [String] = before.map { $0.snippet.map(\.text).joined() }
        #expect(snippets == expected)
        #expect(before.first?.snippet.isEmpty == false)
        // Edited after the index read it (no scan): the snippet is the file's, not the stored one.
        try write(root, "t.md", "---\ntitle: Running\ntags: [x]\n---\nOther words now.\n", mtime: 1_700_000_100)
        let after = try index.search(query, vault: vault)
        let now: String = after.first.map { $0.snippet.map(\.text).joined() } ?? ""
        #expect(now.contains("Other words now"))
    }
}
