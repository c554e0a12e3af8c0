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

    /// Snippets of lines with one Character per scalar are made plain by bytes
    /// (`plainTextByBytes`): on lines built from every piece of syntax the walk by Characters
    /// knows, with ASCII and other letters and punctuation, in any order and nesting, it must give
    /// exactly what that walk gives; a line with a CR, a combining mark, a joiner or an emoji
    /// takes the walk itself.
    @Test func plainTextOfALineByBytesGivesWhatTheWalkByCharactersGives() {
        let pieces = ["a", "run", " ", "\t", "*", "_", "`", "~", "!", "[", "]", "[[", "]]", "(", ")", "|", "<", ">", "/", "<b>",
                      "</i>", "< b", "<3", "-", "+", "#", "[[Note|alias]]", "[[a|]]", "[[|]]", "[[]]", "![[img.png]]", "![x](u)",
                      "[x](u)", "[x] (u)", "> ", "- ", "+ ", "* ", "\u{1B}", "x_y", "**b**",
                      "caf\u{E9}", "\u{F1}", "<\u{E9}t\u{E9}>", "<\u{3A9}>", "<\u{2014}", "\u{2026}", "\u{201C}q\u{201D}", "\u{A0}",
                      "\u{3A9}\u{3BC}", "\u{416}", "\u{65E5}\u{672C}", "\u{3001}", "[[\u{E9}|\u{F1}]]", "\u{AD}",
                      "\u{374}", "\u{387}", "\u{2019}s"]
        var generator = SystemRandomNumberGenerator()
        var lines = pieces + ["", "  ", "[[a|b|c]]", "[[a||]]", "![[", "![", "[[x", "<a", "<", "- - > + x", "-\t> *"]
        for _ in 0..<5000 {
            lines.append((0..<Int.random(in: 1...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for line in lines {
            let bytes = Array(line.utf8)
            #expect(MarkdownScan.isOneCharacterPerScalar(bytes, 0, bytes.count))
            // Byte for byte: String's == holds canonically equivalent texts equal (U+0387 and U+00B7).
            #expect(Array(MarkdownScan.plainTextByBytes(bytes, 0, bytes.count).utf8) == Array(MarkdownScan.plainTextByCharacters(bytes, 0, bytes.count).utf8), "\(line.debugDescription)")
            // From an offset too, as the scanner calls it for the pieces of a line outside comments.
            if bytes.count > 2, bytes[1] & 0xC0 != 0x80, bytes[bytes.count - 1] & 0xC0 != 0x80 {
                #expect(Array(MarkdownScan.plainTextByBytes(bytes, 1, bytes.count - 1).utf8) == Array(MarkdownScan.plainTextByCharacters(bytes, 1, bytes.count - 1).utf8), "\(line.debugDescription)")
            }
        }
        for other in ["a\r\nb", "e\u{301}*", "*\u{301}x", "\u{1F600}*x*", "a\u{200D}b", "\u{1100}\u{1161}", "\u{930}\u{94D}", "\u{37E}*"] {
            let bytes = Array(other.utf8)
            #expect(!MarkdownScan.isOneCharacterPerScalar(bytes, 0, bytes.count), "\(other.debugDescription)")
        }
        // Broken UTF-8 is never made plain by bytes: the walk repairs it first.
        // A range that starts or ends inside a scalar (the tail of `é`, then `*`) is refused too.
        for broken: [UInt8] in [[0x61, 0xC3], [0xC3, 0x28], [0xE2, 0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xFF],
                                [0xA9, 0x2A], [0x2A, 0xE2, 0x80]] {
            #expect(!MarkdownScan.isOneCharacterPerScalar(broken, 0, broken.count), "\(broken)")
        }
    }

    /// Every scalar the byte walk admits is a Character of its own beside letters, itself and
    /// line syntax, and equals no ASCII Character (canonical equivalence: U+037E is `;`).
    @Test func everyScalarTheByteWalkAdmitsIsACharacterOfItsOwn() {
        let ascii = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
        var admitted = 0
        for value in UInt32(0x80)...0xFFFF where MarkdownScan.isOwnCharacter(value) {
            guard let scalar = Unicode.Scalar(value) else { Issue.record("U+\(String(value, radix: 16)) admitted, not a scalar"); continue }
            admitted += 1
            let s = String(scalar)
            for pair in ["a" + s, s + "a", s + s, "*" + s, s + "*", "[" + s, s + "]"] where pair.count != 2 {
                Issue.record("U+\(String(value, radix: 16)) joins a cluster: \(pair.debugDescription)")
            }
            if ascii.contains(Character(scalar)) { Issue.record("U+\(String(value, radix: 16)) equals an ASCII Character") }
            // The encoding check admits exactly these scalars.
            let bytes = Array(s.utf8)
            #expect(MarkdownScan.isOneCharacterPerScalar(bytes, 0, bytes.count))
        }
        #expect(admitted > 20000)
    }
}
