// The ids `sheaf serve` gives a note's headings, which its `[[Note#Heading]]` links point at: the
// n-th heading's slug on the n-th `<hN>` cmark writes, repeated slugs numbered, nothing else of
// the page touched (text that looks like a heading tag stays escaped text).
import Testing
@testable import SheafCore

@Suite struct HeadingIDTests {
    @Test func eachHeadingGetsItsSlugAndRepeatsAreNumbered() {
        let html = MarkdownHTML.render("# Plans\n\nsome <h1> text and `<h2>` code\n\n## Plans\n\n### Été à Paris!\n\n###### Six\n")
        #expect(html.contains("<h1 id=\"plans\">Plans</h1>"), "\(html)")
        #expect(html.contains("<h2 id=\"plans-2\">Plans</h2>"), "\(html)")
        #expect(html.contains("<h3 id=\"été-à-paris\">"), "\(html)")
        #expect(html.contains("<h6 id=\"six\">Six</h6>"), "\(html)")
        #expect(html.contains("<code>&lt;h2&gt;</code>"), "\(html)")
        #expect(!html.contains("<h1>") && !html.contains("<h2>"), "\(html)")
    }

    /// Regression: the slug kept whole Characters that counted as letters, and U+0D4E (a letter
    /// that prepends itself to the next character) glued to `"` or `>` made one: a synced heading
    /// closed the id attribute and the tag, and started an element of its own.
    @Test func aHeadingCannotCloseItsIdAttributeOrItsTag() {
        let html = MarkdownHTML.render("# x\u{D4E}\"\u{D4E} data\u{D4E}-x\u{D4E}=\u{D4E}\"y\u{D4E}\"\u{D4E}>\u{D4E}<b\u{D4E}>bold\n")
        let tag = html.unicodeScalars.prefix { $0 != ">" }
        #expect(tag.filter { $0 == "\"" }.count == 2, "one attribute, quoted once: \(html)")
        #expect(!html.contains("<b"), "\(html)")
        #expect(MarkdownHTML.slug("Cafe\u{301} au lait") == "cafe\u{301}-au-lait", "combining marks stay in the word")
        #expect(MarkdownHTML.slug("\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}") == "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}", "and the zero-width non-joiner")
    }

    @Test func aPageWithoutHeadingsIsAsCmarkWroteIt() {
        #expect(MarkdownHTML.render("just *text*\n") == "<p>just <em>text</em></p>\n")
    }
}
