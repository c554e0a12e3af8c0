// Notes a hostile remote can sync to stop every device that reads them: deep nesting that
// overflowed a recursive parser's stack (SIGSEGV in every command and in `sheaf serve`), and
// aliases that expanded to millions of values (minutes and gigabytes in the index, a pull and
// the merge driver). Each is read in bounded time and memory, and a front matter that cannot
// be read is reported as broken, as any other.
import Testing
@testable import SheafCore

@Suite struct HostileNoteShapeTests {
    /// 30,000 nested block quotes (30 KB): every command that parsed it died.
    @Test func aDeeplyNestedBlockQuoteIsReadWithoutOverflowingTheStack() {
        let note = Note(path: "q.md", bytes: Array(("---\ntitle: q\n---\n" + String(repeating: ">", count: 30_000) + " deep words\n").utf8))
        #expect(note.title == "q")
        #expect(note.body.contains("deep words"))
        let list = Note(path: "l.md", bytes: Array((String(repeating: "- ", count: 20_000) + "item [[Target]]\n").utf8))
        #expect(list.links.map(\.target) == ["Target"])
    }

    /// 10,000 nested flow sequences (20 KB) overflowed Yams's recursive parser.
    @Test func deeplyNestedYAMLIsABrokenFrontMatterNotACrash() {
        for yaml in ["x: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
                     "x: " + String(repeating: "{a: ", count: 20_000) + "b" + String(repeating: "}", count: 20_000),
                     "x:\n" + (1...1_500).map { String(repeating: " ", count: $0) + "a:" }.joined(separator: "\n") + " b"] {
            let note = Note(path: "y.md", bytes: Array(("---\n" + yaml + "\n---\nbody\n").utf8))
            #expect(note.warnings.contains { if case .invalidFrontMatter = $0 { true } else { false } }, "\(note.warnings)")
            #expect(note.body.contains("body"))
        }
        // Ordinary nesting is read as before.
        let fine = Note(path: "f.md", bytes: Array("---\nx: [[1, 2], {a: [b]}]\ntags: [t]\n---\nbody\n".utf8))
        #expect(fine.warnings.isEmpty && fine.tags == ["t"])
    }

    /// Nine levels of ten aliases each (under 500 bytes) are 10^9 values once copied.
    @Test func aliasesThatExpandToMillionsOfValuesAreRefused() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 { lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]") }
        let note = Note(path: "b.md", bytes: Array(("---\n" + lines.joined(separator: "\n") + "\n---\nbody\n").utf8))
        #expect(note.warnings.contains { if case .invalidFrontMatter = $0 { true } else { false } }, "\(note.warnings)")
        // A few aliases, as people use them, are read.
        let used = Note(path: "u.md", bytes: Array("---\nbase: &b {a: 1}\nother: *b\n---\nbody\n".utf8))
        #expect(used.warnings.isEmpty && used.frontMatter["other"] == .map([("a", .scalar("1"))]))
    }

    /// Each `[` searched for its closers to the line's end (in the link scan and in the snippet's
    /// plain text), each backtick run or `<!--` to the block's end, each line for its comments,
    /// and cmark-gfm's inline parser and table rows were quadratic too: a few hundred KB of `[`
    /// hung every reader for hours. They are read in linear time, and the notes' other links and
    /// tags are still found.
    static let quadraticShapes: [String] = [
        String(repeating: "[", count: 200_000), String(repeating: "[[", count: 100_000), String(repeating: "![[", count: 100_000),
        String(repeating: "[a](", count: 100_000), String(repeating: "[a](<", count: 100_000), String(repeating: "![[]()", count: 50_000),
        String(repeating: "[[a|", count: 100_000), (1..<2_000).map { String(repeating: "`", count: $0) + "a" }.joined(),
        String(repeating: "<!-- ", count: 100_000), String(repeating: "%% `", count: 50_000),
        "😀" + String(repeating: "[a](", count: 100_000), String(repeating: "|", count: 200_000) + "\n|-|",
        String(repeating: "%%[[a]]%%\n", count: 50_000),
    ]

    @Test func linesThatMadeTheLinkScanQuadraticAreReadAndTheRestStillCounts() {
        for shape in Self.quadraticShapes {
            let note = Note(path: "h.md", bytes: Array(("# H\n\nbefore [[Kept]] #kepttag\n\n" + shape + "\n").utf8))
            #expect(note.links.contains { $0.target == "Kept" } && note.tags.contains("kepttag"), "\(shape.prefix(12))")
        }
        // The first heading's readable title, found the same way.
        let title = Note(path: "t.md", bytes: Array(("# " + String(repeating: "[[a](", count: 50_000) + "\n").utf8)).title
        #expect(title.hasPrefix("[[a]("))
        // A line of prose with many brackets that are no links keeps its links.
        let prose = (0..<300).map { "see [\($0)] and " }.joined() + "[the note](Target.md) #late"
        let note = Note(path: "p.md", bytes: Array(prose.utf8))
        #expect(note.links.map(\.target) == ["Target.md"] && note.tags == ["late"])
        // Past the markdown links' lookahead (300 unclosed `[` each looking to the end), a
        // wiki-link is still a link: its search ends at the next `[[`.
        let intervals = String(repeating: "[0, 1) ", count: 300) + "[[Kept]]"
        #expect(Note(path: "i.md", bytes: Array(intervals.utf8)).links.map(\.target) == ["Kept"])
        // A table wider than the cells cmark is shown of a row is still a table: its `\|` is a
        // link's bar, as in any table.
        let wide = "|" + String(repeating: " c |", count: 300) + "\n|" + String(repeating: "---|", count: 300) + "\n| [[Wide\\|shown]] |" + String(repeating: " x |", count: 299) + "\n"
        #expect(Note(path: "w.md", bytes: Array(wide.utf8)).links.map(\.target) == ["Wide"])
    }

    /// A backlinks list walked to a line's ends for each link, and searched the front-matter for
    /// each property link's key: a synced line of 40,000 links, or 20,000 keys each holding one,
    /// made the backlinks of the linked note and its page take minutes.
    @Test func backlinkLinesAndPropertyKeysOfThousandsOfLinksAreFoundOnce() throws {
        let line = String(repeating: "[[Target]] é ", count: 40_000)
        let places = (0..<40_000).map { Note.Place(offset: $0 * 14 + 2, kind: .wiki, target: "Target") }
        let lines = Note.linkLines(at: places, inText: line + "\n")
        #expect(lines.count == 40_000 && lines[20_000].hasPrefix("…") && lines[20_000].hasSuffix("…"))
        #expect(lines[0].hasPrefix("[[Target]] é") && lines[0].utf8.count <= 2 + Note.contextAfter + 3)
        let block = (0..<20_000).map { "k\($0): \"[[T\($0)|shown]]\"\n" }.joined()
        let note = Note(path: "p.md", bytes: Array(("---\n" + block + "---\nbody\n").utf8))
        let keyOf = note.propertyKeys()
        #expect(keyOf("T19999") == "k19999" && keyOf("T0") == "k0" && keyOf("Nowhere") == "")
        let propertyLines = Note.linkLines(at: [Note.Place(offset: 0, kind: .property, target: "T123")], inText: "---\n" + block + "---\n")
        #expect(propertyLines == ["k123: [[T123]]"])
    }

    /// cmark-gfm renders `![[]()` repeated, or rows of thousands of cells, in quadratic time: a
    /// synced note hung its page in `sheaf serve`. Such a note is shown as its text, escaped; a
    /// wide table and a note of many images still render.
    @Test func aNoteTooCostlyForTheMarkdownRendererIsShownAsText() {
        for shape in [String(repeating: "![[]()", count: 50_000), String(repeating: "|", count: 200_000) + "\n|-|\n",
                      String(repeating: "a|", count: 8_000) + "\n" + String(repeating: "-|", count: 8_000) + "\n"] {
            let html = MarkdownHTML.render("<b>x</b>\n\n" + shape)
            #expect(html.contains("shown as plain text") && html.contains("&lt;b&gt;x&lt;/b&gt;") && !html.contains("<b>"))
        }
        let wide = "|" + String(repeating: " c |", count: 300) + "\n|" + String(repeating: "---|", count: 300) + "\n"
        #expect(MarkdownHTML.render(wide).contains("<table>"))
        #expect(MarkdownHTML.render(String(repeating: "![a](/thumb/a.png)\n\n", count: 1_000)).contains("<img"))
    }

    /// cmark-gfm builds a node for each line, table cell and inline mark before it gives a block:
    /// a synced note of 10 MB of short lines took it gigabytes. Past its budget, the blocks are
    /// read line by line, fenced code still told apart, and the note says so and is never
    /// rewritten.
    @Test func aNoteOfMillionsOfLinesIsReadLineByLineAndSaysSo() {
        let text = "# Many\n\n[[Kept]] #kept\n\n```\n[[InCode]] #incode\n```\n\n" + String(repeating: "a\n", count: 1_100_000) + "## Late [[End]]\n"
        let note = Note(path: "m.md", bytes: Array(text.utf8))
        #expect(note.warnings == [.blocksByLines] && !note.isEditable)
        #expect(note.links.map(\.target) == ["Kept", "End"] && note.tags == ["kept"] && note.title == "Many")
        let small = Note(path: "s.md", bytes: Array(String(repeating: "a\n", count: 1_000).utf8))
        #expect(small.warnings.isEmpty)
    }
}
