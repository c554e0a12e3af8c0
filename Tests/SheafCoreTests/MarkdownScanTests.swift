import Testing
@testable import SheafCore

@Suite struct MarkdownScanTests {
    @Test func inlineTagsSkipCodeHeadingsAndURLs() {
        let body = """
        # Heading is not a tag
        Text with #idea and #travel/portugal, #café and #2026 (numbers alone are not tags).
        Inline `#notatag` and http://example.com/#anchor and [x](#frag).
        ```
        #fenced is code
        ```
        ~~~python
        # comment #alsocode
        ~~~
        End #last.
        """
        let scan = MarkdownScan(body: body)
        #expect(scan.tags == ["idea", "travel/portugal", "café", "last"])
        #expect(scan.firstHeading == "Heading is not a tag")
    }

    @Test func wikiLinksInEveryForm() {
        let scan = MarkdownScan(body: "See [[Note]], [[Folder/Other|label]], [[Third#Part]] and ![[pic.png]]; [[#Local]].")
        #expect(scan.links.map(\.target) == ["Note", "Folder/Other", "Third", "pic.png", ""])
        #expect(scan.links.map(\.kind) == [.wiki, .wiki, .wiki, .wikiEmbed, .wiki])
        #expect(scan.links[2].fragment == "Part")
    }

    @Test func markdownLinksAreDecodedAndURLsSkipped() {
        let body = "[a](../Other/Note.md) [b](Note%20With%20Spaces.md) [c](<Spaced Name.md>) ![i](images/chart.png) [web](https://x.org) [top](#top) [d](Sub/Page.md#section)"
        let scan = MarkdownScan(body: body)
        #expect(scan.links.map(\.target) == ["../Other/Note.md", "Note With Spaces.md", "Spaced Name.md", "images/chart.png", "", "Sub/Page.md"])
        #expect(scan.links.map(\.kind) == [.markdown, .markdown, .markdown, .markdownEmbed, .markdown, .markdown])
        #expect(scan.links[4].fragment == "top")  // a link to a heading of its own note
        #expect(scan.links.last?.fragment == "section")
    }

    @Test func linksInsideCodeAreIgnored() {
        let scan = MarkdownScan(body: "`[[not a link]]`\n```\n[[nor this]]\n```\n[[yes]]")
        #expect(scan.links.map(\.target) == ["yes"])
    }

    @Test func targetRangesPointAtTheTargetBytes() {
        let body = "é [[Ünïcode Note|x]] and [y](<a b.md>)"
        let bytes = Array(body.utf8)
        let scan = MarkdownScan(body: body)
        #expect(scan.links.map { String(decoding: bytes[$0.targetRange], as: UTF8.self) } == ["Ünïcode Note", "a b.md"])
    }

    @Test func snippetIsPlainText() {
        let scan = MarkdownScan(body: "# Title\n![[photo.png]]\n- **Bold** item with [[Link|label]] and [text](x.md) ![alt](i.png)\n> quoted `code`\n")
        #expect(scan.snippet == "Bold item with label and text quoted code")
    }

    @Test func cyrillicAndCJKTags() {
        #expect(MarkdownScan(body: "#заметка and #日本語").tags == ["заметка", "日本語"])
    }

    /// A line without markdown syntax takes a shortcut in `plainText`: it must give what the walk
    /// by Characters gives, for lines with and without syntax, combining marks, tabs and CJK.
    @Test func plainTextShortcutGivesWhatTheLongWayGives() {
        let pieces = ["a", "run", " ", "\t", "é", "e\u{301}", "日本", "*", "**", "_", "`", "~", "!", "[", "]", "(", ")",
                      "[[Note|alias]]", "![[img.png]]", "[x](u)", "> ", "- ", "+ ", "#", "\u{00A0}", "\u{301}", "-\u{301}", "|"]
        var generator = SystemRandomNumberGenerator()
        var lines = pieces + ["", "  plain words  ", "-x", ">quote", "+plus", "a - b + c > d"]
        for _ in 0..<3000 {
            lines.append((0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for line in lines {
            let bytes = Array(line.utf8)
            #expect(MarkdownScan.plainText(bytes, 0, bytes.count) == MarkdownScan.plainTextByCharacters(bytes, 0, bytes.count), "\(line.debugDescription)")
        }
    }

    /// Snippets of ASCII lines are made plain by bytes (`plainTextASCII`): on lines built from every
    /// piece of syntax the walk by Characters knows, in any order and nesting, it must give exactly
    /// what that walk gives; a line with a non-ASCII byte or a CR takes the walk itself.
    @Test func plainTextOfAnASCIILineByBytesGivesWhatTheWalkByCharactersGives() {
        let pieces = ["a", "run", " ", "\t", "*", "_", "`", "~", "!", "[", "]", "[[", "]]", "(", ")", "|", "<", ">", "/", "<b>",
                      "</i>", "< b", "<3", "-", "+", "#", "[[Note|alias]]", "[[a|]]", "[[|]]", "[[]]", "![[img.png]]", "![x](u)",
                      "[x](u)", "[x] (u)", "> ", "- ", "+ ", "* ", "\u{1B}", "x_y", "**b**"]
        var generator = SystemRandomNumberGenerator()
        var lines = pieces + ["", "  ", "[[a|b|c]]", "[[a||]]", "![[", "![", "[[x", "<a", "<", "- - > + x", "-\t> *"]
        for _ in 0..<5000 {
            lines.append((0..<Int.random(in: 1...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for line in lines {
            let bytes = Array(line.utf8)
            #expect(MarkdownScan.isPlainASCII(bytes, 0, bytes.count))
            #expect(MarkdownScan.plainTextASCII(bytes, 0, bytes.count) == MarkdownScan.plainTextByCharacters(bytes, 0, bytes.count), "\(line.debugDescription)")
            // From an offset too, as the scanner calls it for the pieces of a line outside comments.
            if bytes.count > 2 {
                #expect(MarkdownScan.plainTextASCII(bytes, 1, bytes.count - 1) == MarkdownScan.plainTextByCharacters(bytes, 1, bytes.count - 1), "\(line.debugDescription)")
            }
        }
        for other in ["caf\u{E9} *x*", "a\r\nb", "e\u{301}*", "*\u{301}x"] {
            let bytes = Array(other.utf8)
            #expect(!MarkdownScan.isPlainASCII(bytes, 0, bytes.count))
        }
    }
}
