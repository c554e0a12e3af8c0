// A note's body as HTML: every link the scanner found (the same links the index holds, resolved
// by the same rules) is written as a plain markdown link to this server's page for what it
// reaches, before cmark-gfm renders the body in its safe mode (MarkdownHTML). A wiki-link's
// label is escaped character by character, so it is text whatever it holds; embedded images
// are shown through their thumbnails and open full size on click; a link that reaches nothing
// searches for its target.
import SheafCore
import SheafKit

enum NoteHTML {
    static func body(of page: NotePage) -> String {
        // One pass in order: a replacement in place per link moved the rest of the body each
        // time, quadratic for a synced note of 80,000 links (regression).
        let body = Array(page.note.note.body.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count)
        var copied = 0
        for resolved in page.links.sorted(by: { $0.span.lowerBound < $1.span.lowerBound }) {
            guard resolved.span.lowerBound >= copied, resolved.span.upperBound <= body.count else { continue }
            bytes += body[copied..<resolved.span.lowerBound]
            let original = String(decoding: body[resolved.span], as: UTF8.self)
            bytes += Array(markdown(for: resolved, original: original, notePath: page.note.path).utf8)
            copied = resolved.span.upperBound
        }
        bytes += body[copied...]
        return MarkdownHTML.render(String(decoding: bytes, as: UTF8.self), source: page.note.note.body)
    }

    /// Where a link's page is: a note's page (at its heading), a file, or this note's heading.
    static func url(for link: Link, resolved: String?, notePath: String) -> String? {
        let fragment = link.fragment.map { "#" + WebPaths.encode(MarkdownHTML.slug($0)) } ?? ""
        if link.target.isEmpty { return fragment.isEmpty ? nil : fragment }
        guard let resolved else { return nil }
        if VaultPath.isNote(resolved) { return WebPaths.url("/n", resolved) + fragment }
        return WebPaths.url("/file", resolved)
    }

    private static func markdown(for r: ResolvedLink, original: String, notePath: String) -> String {
        let link = r.link
        switch link.kind {
        case .markdown, .markdownEmbed:
            // The span is the destination alone: put this server's address there.
            guard let resolved = r.resolved else { return original }
            if link.kind == .markdownEmbed && MediaType.isThumbnailed(resolved) { return WebPaths.url("/thumb", resolved) }
            return url(for: link, resolved: resolved, notePath: notePath) ?? original
        case .wiki, .wikiEmbed, .property:
            let shown = link.label ?? (link.target.isEmpty ? (link.fragment ?? "") : link.target + (link.fragment.map { " > " + $0 } ?? ""))
            if link.kind == .wikiEmbed, let resolved = r.resolved, MediaType.isThumbnailed(resolved) {
                let alt = escaped(VaultPath.fileName(resolved))
                return "[![\(alt)](\(WebPaths.url("/thumb", resolved)))](\(WebPaths.url("/file", resolved)))"
            }
            guard let destination = url(for: link, resolved: r.resolved, notePath: notePath) else {
                // Reaches nothing: shown as written, as text, and a search for it.
                return "[\(escaped(original))](/search?q=\(WebPaths.encode(link.target)))"
            }
            return "[\(escaped(link.kind == .wikiEmbed ? "⤷ " + shown : shown))](\(destination))"
        }
    }

    /// `text` as literal markdown text: every ASCII punctuation character backslash-escaped
    /// (CommonMark lets each be), line breaks as spaces. Scalar by scalar: CommonMark reads code
    /// points, and a `]` or a CR LF is no ASCII Character when a combining mark follows it.
    static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" { out.append(" "); continue }
            let a = scalar.value
            if (0x21...0x2F).contains(a) || (0x3A...0x40).contains(a) || (0x5B...0x60).contains(a) || (0x7B...0x7E).contains(a) {
                out.append("\\")
            }
            out.append(scalar)
        }
        return String(out)
    }
}
