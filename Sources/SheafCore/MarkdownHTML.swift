// A note's markdown as HTML for a web view, by cmark-gfm in its safe mode: raw HTML (blocks and
// inline tags) is left out, and links with a dangerous scheme (`javascript:`, `vbscript:`,
// `file:`, `data:` but for a few image types) get an empty destination. Notes are untrusted (they
// arrive from remotes and shares), so on top of that an image is shown only from the web view's
// own origin (a destination starting with one `/`); any other becomes a plain link to it, and no
// page loads a remote resource because of a note. GitHub's extensions render tables, task lists,
// strikethrough and bare URLs. Headings get ids (`slug`) that `[[Note#Heading]]` links name.
import CCmarkGFM
import SheafText
#if canImport(Glibc)
import Glibc
#endif

public enum MarkdownHTML {
    private static let extensionNames = ["table", "tasklist", "strikethrough", "autolink"]

    /// Registered once per process; afterwards read-only globals every parser may attach.
    nonisolated(unsafe) private static let extensions: [OpaquePointer] = {
        cmark_gfm_core_extensions_ensure_registered()
        return extensionNames.compactMap { cmark_find_syntax_extension($0) }
    }()

    /// The HTML of `markdown` (a note's body, links already made into markdown links); when it is
    /// too costly to render, `source` (the body as the note holds it) as text.
    public static func render(_ markdown: String, source: String? = nil) -> String {
        if isTooCostly(markdown.utf8) { return asText(source ?? markdown) }
        let options = sheaf_cmark_html_options()
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }  // after rendering: the tree uses its memory
        for ext in extensions { cmark_parser_attach_syntax_extension(parser, ext) }
        var bytes = Array(markdown.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_parser_feed(parser, $0, buffer.count) }
            }
        }
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }
        let headings = rewriteTree(document)
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(rendered) }
        return withHeadingIDs(String(cString: rendered), headings)
    }

    /// Whether cmark-gfm 0.29.0.gfm.6 (Debian's) would take minutes on `bytes`: its inline parser
    /// is quadratic in the `![` openers (300 KB of `![[]()` took 20 s), and its tables in the cells
    /// of a row (a row of 200,000 `|`, minutes). A synced note must not hang the page that shows
    /// it; no real note has 5,000 images, or rows whose cells squared pass 50 million.
    static func isTooCostly(_ bytes: String.UTF8View) -> Bool {
        var images = 0, cellWork = 0, pipes = 0, previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case 0x5B where previous == 0x21: images += 1
            case 0x7C: pipes += 1
            case 0x0A, 0x0D: cellWork += pipes * pipes; pipes = 0
            default: break
            }
            previous = byte
        }
        return images > 5_000 || cellWork + pipes * pipes > 50_000_000
    }

    /// A note too costly to render, as its text (`<`, `>`, `&` and `"` as entities).
    static func asText(_ markdown: String) -> String {
        "<p><em>This note is shown as plain text: its markdown is too costly to render.</em></p>\n<pre>"
            + markdown.replacingScalars(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"]) + "</pre>\n"
    }

    /// The id of a heading whose text is `text`: lowercased letters, digits and their combining
    /// marks, every other run of code points one `-`. The same for the heading and for a link's
    /// `#Heading`. Scalar by scalar (it goes into an attribute unescaped): a Character that
    /// counts as a letter may hold a quote (U+0D4E, a prepended letter, glues itself to the `"`
    /// after it), and the id closed the attribute and the tag early (regression).
    public static func slug(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            // The zero-width joiner and non-joiner are inside words (Persian, the Indic scripts).
            switch scalar == "\u{200C}" || scalar == "\u{200D}" ? .otherLetter : scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(scalar)
            default:
                pendingDash = true
            }
        }
        return out.isEmpty ? "section" : String(out)
    }

    /// Makes every image whose destination is not this origin's a link to it, and returns the
    /// headings' texts in document order.
    private static func rewriteTree(_ document: OpaquePointer) -> [String] {
        var headings: [String] = []
        var foreignImages: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return [] }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HEADING: headings.append(plainText(node))
            case CMARK_NODE_IMAGE:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if !isOwnOrigin(url) { foreignImages.append(node) }
            default: break
            }
        }
        cmark_iter_free(iterator)
        for image in foreignImages {
            guard let link = cmark_node_new(CMARK_NODE_LINK) else { continue }
            cmark_node_set_url(link, cmark_node_get_url(image))
            while let child = cmark_node_first_child(image) { cmark_node_append_child(link, child) }
            if cmark_node_first_child(link) == nil, let text = cmark_node_new(CMARK_NODE_TEXT) {
                cmark_node_set_literal(text, cmark_node_get_url(image))
                cmark_node_append_child(link, text)
            }
            cmark_node_replace(image, link)
            cmark_node_free(image)
        }
        return headings
    }

    /// A destination on this origin: a path starting with one `/` (not `//host`, not `/\host`).
    public static func isOwnOrigin(_ url: String) -> Bool {
        let b = Array(url.utf8)
        return b.first == 0x2F && (b.count == 1 || (b[1] != 0x2F && b[1] != 0x5C))
    }

    private static func plainText(_ node: OpaquePointer) -> String {
        var text = ""
        var child = cmark_node_first_child(node)
        while let c = child {
            switch cmark_node_get_type(c) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += cmark_node_get_literal(c).map { String(cString: $0) } ?? ""
            default: text += plainText(c)
            }
            child = cmark_node_next(c)
        }
        return text
    }

    /// Gives the n-th `<hN>` of cmark's output the n-th heading's slug as its id (a note's own
    /// `<h1>` cannot be in the output: safe mode leaves raw HTML out). Slugs repeated in a note
    /// get `-2`, `-3`, ...
    private static func withHeadingIDs(_ html: String, _ headings: [String]) -> String {
        guard !headings.isEmpty else { return html }
        // One pass over the bytes (a `range(of:)` per heading on the String was a tenth of a
        // served page's time).
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + headings.count * 24)
        var used: [String: Int] = [:]
        var index = 0, i = 0, copied = 0
        while index < headings.count, i + 3 < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "h"),
                  (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[i + 2]), bytes[i + 3] == UInt8(ascii: ">") else {
                i += 1
                continue
            }
            var id = slug(headings[index])
            let seen = used[id, default: 0]
            used[id] = seen + 1
            if seen > 0 { id += "-\(seen + 1)" }
            out += bytes[copied..<(i + 3)]
            out += Array(" id=\"\(id)\"".utf8)
            copied = i + 3
            i += 4
            index += 1
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}
