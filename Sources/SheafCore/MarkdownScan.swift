// What Sheaf reads from a note's markdown: inline #tags, links and embeds, the first `# `
// heading and a plain-text snippet. cmark-gfm decides the blocks (MarkdownBlocks): only the
// lines of paragraphs, headings and tables are scanned, so code blocks (also inside quotes and
// callouts) and HTML blocks hold no links. Within a block, inline code spans and HTML comments
// are skipped. Links inside Obsidian's `%% comments %%` are found (so `mv` keeps them pointing at
// their note) and marked `inComment`; comments and inline HTML tags stay out of the snippet.

/// What a body says about tags, links, title and summary.
public struct MarkdownScan: Sendable, Equatable {
    public var tags: [String] = []
    public var links: [Link] = []
    /// The first level-1 ATX heading as a reader sees it (link text, not link syntax), when no
    /// body text comes before it: an H1 below text (a footer's "This note in GitHub") is no title.
    public var firstHeading: String?
    /// Every heading's text, in order (what `[[Note#Heading]]` names).
    public var headings: [String] = []
    /// The 0-based body line of each heading in `headings` (where an editor jumps to it).
    public var headingLines: [Int] = []
    /// Every block id (`^id` ending a line of text), what `[[Note#^id]]` names.
    public var blockIDs: [String] = []
    /// The 0-based body line of each id in `blockIDs`.
    public var blockIDLines: [Int] = []
    /// Every inline `#tag` as written, with the UTF-8 range of its name (after the `#`) in the body.
    public var tagSpans: [TagSpan] = []

    public struct TagSpan: Sendable, Equatable {
        public let name: String
        public let range: Range<Int>
    }
    /// The first ~150 characters of plain text.
    public var snippet: String = ""
    /// Whether the blocks were read line by line: a note too large for cmark-gfm's tree
    /// (`MarkdownBlocks.nodeBudget`).
    public var blocksByLines = false

    public static let snippetLength = 150

    public init(body: String) {
        let bytes = Array(body.utf8)
        let starts = MarkdownBlocks.lineStarts(bytes)
        var snippetParts: [String] = []
        var snippetCount = 0
        var seenTags = Set<String>()
        blocksByLines = MarkdownBlocks.exceedsNodeBudget(bytes)
        let blocks = (blocksByLines ? MarkdownBlocks.linesAsBlocks(bytes) : MarkdownBlocks.textBlocks(bytes))
            .filter { $0.lines.upperBound < starts.count }
        let comments = Self.obsidianComments(bytes, starts, blocks)
        var bodyTextSeen = false
        for block in blocks {
            let regionStart = starts[block.lines.lowerBound]
            let regionEnd = Self.lineEnd(bytes, starts, block.lines.upperBound)
            let excluded = Self.inlineExclusions(bytes, regionStart, regionEnd)
            var cursor = 0
            let inTable = block.kind == .table
            for line in block.lines {
                let start = starts[line], end = Self.lineEnd(bytes, starts, line)
                var p = start
                while p < end && p - start < 4 && bytes[p] == 0x20 { p += 1 }
                if case .heading(let level) = block.kind, line == block.lines.lowerBound {
                    let atx = Self.headingLevel(bytes, p, end)
                    let text = atx > 0 ? Self.headingText(bytes, p, end)
                        : String(String(decoding: bytes[p..<end], as: UTF8.self).trimmingBlanks)
                    headings.append(text)
                    headingLines.append(line)
                    if level == 1, atx == 1, firstHeading == nil, !bodyTextSeen { firstHeading = Self.readable(text) }
                }
                if let id = Self.blockID(bytes, start, end) { blockIDs.append(id); blockIDLines.append(line) }
                Self.scanLine(bytes, start, end, excluded: excluded, cursor: &cursor, inTable: inTable, links: &links) { tag, range in
                    if seenTags.insert(tag.lowercased()).inserted { tags.append(tag) }
                    tagSpans.append(TagSpan(name: tag, range: range))
                }
                if case .heading = block.kind { continue }
                guard snippetCount < Self.snippetLength || !bodyTextSeen else { continue }
                for piece in Self.outside(comments, p..<end) where snippetCount < Self.snippetLength || !bodyTextSeen {
                    let plain = Self.plainText(bytes, piece.lowerBound, piece.upperBound)
                    if !plain.isEmpty {
                        bodyTextSeen = true
                        snippetParts.append(plain)
                        snippetCount += plain.count + 1
                    }
                }
            }
        }
        if !comments.isEmpty {
            for i in links.indices where Self.covers(comments, links[i].targetRange.lowerBound) {
                links[i].inComment = true
            }
        }
        let joined = snippetParts.joined(separator: " ")
        snippet = joined.count > Self.snippetLength ? String(joined.prefix(Self.snippetLength - 1)) + "…" : joined
    }

    /// The `^id` that ends a line (after a blank, or alone on its line), nil when there is none.
    static func blockID(_ b: [UInt8], _ start: Int, _ end: Int) -> String? {
        var e = end
        while e > start && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
        var i = e
        while i > start, let c = Optional(b[i - 1]), (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D { i -= 1 }
        guard i < e, i > start, b[i - 1] == 0x5E else { return nil }
        let caret = i - 1
        guard caret == start || b[caret - 1] == 0x20 || b[caret - 1] == 0x09 || b[caret - 1] == 0x3E else { return nil }
        return String(decoding: b[i..<e], as: UTF8.self)
    }

    /// A heading's text as a reader sees it: `[[Target|Label]]` as `Label`, `[[Target]]` as
    /// `Target`, `[text](url)` as `text`, embeds left out.
    static func readable(_ text: String) -> String {
        guard text.contains("[") else { return text }
        let chars = Array(text), e = chars.count
        var pairs = ForwardSearch(limit: e), brackets = pairs, parens = pairs
        func nextClosingPair(from: Int) -> Int? { pairs.first(from: from) { $0 + 1 < e && chars[$0] == "]" && chars[$0 + 1] == "]" } }
        var out = ""
        var i = 0
        while i < e {
            let c = chars[i]
            let next: Character? = i + 1 < e ? chars[i + 1] : nil
            if c == "!" && next == "[" && i + 2 < e && chars[i + 2] == "[", let close = nextClosingPair(from: i) {
                i = close + 2
            } else if c == "[" && next == "[", let close = nextClosingPair(from: i) {
                let inner = chars[(i + 2)..<close]
                let parts = inner.split(separator: "|", maxSplits: 1)
                out += String(parts.count == 2 ? parts[1] : (inner.split(separator: "#").first ?? inner))
                i = close + 2
            } else if c == "[", let close = brackets.first(from: i, where: { chars[$0] == "]" }), close + 1 < e, chars[close + 1] == "(",
                      let paren = parens.first(from: close, where: { chars[$0] == ")" }) {
                out += String(chars[(i + 1)..<close])
                i = paren + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        let trimmed = String(out.trimmingBlanks)
        return trimmed.isEmpty ? text : trimmed
    }

    /// Obsidian's comments: from one `%%` to the next, across lines and blocks (an unclosed one
    /// runs to the end of the note); a `%%` in inline code or an HTML comment does not count.
    static func obsidianComments(_ b: [UInt8], _ starts: [Int], _ blocks: [TextBlock]) -> [Range<Int>] {
        var marks: [Int] = []
        for block in blocks {
            let start = starts[block.lines.lowerBound], end = lineEnd(b, starts, block.lines.upperBound)
            let excluded = inlineExclusions(b, start, end)
            var i = start
            var cursor = 0  // the exclusions are sorted: one pass, not a search per `%%`
            while i + 1 < end {
                while cursor < excluded.count && excluded[cursor].upperBound <= i { cursor += 1 }
                if b[i] == 0x25 && b[i + 1] == 0x25 && !(cursor < excluded.count && excluded[cursor].contains(i)) {
                    marks.append(i)
                    i += 2
                } else {
                    i += 1
                }
            }
        }
        var ranges: [Range<Int>] = []
        var k = 0
        while k < marks.count {
            ranges.append(marks[k]..<(k + 1 < marks.count ? marks[k + 1] + 2 : b.count))
            k += 2
        }
        return ranges
    }

    /// The parts of `range` outside every range of `cut` (sorted, not overlapping).
    static func outside(_ cut: [Range<Int>], _ range: Range<Int>) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var from = range.lowerBound
        var c = firstEnding(after: range.lowerBound, in: cut)
        while c < cut.count && cut[c].lowerBound < range.upperBound {
            if cut[c].lowerBound > from { pieces.append(from..<cut[c].lowerBound) }
            from = max(from, cut[c].upperBound)
            c += 1
        }
        if from < range.upperBound { pieces.append(from..<range.upperBound) }
        return pieces
    }

    /// Whether one of `ranges` (sorted, not overlapping) holds `position`.
    static func covers(_ ranges: [Range<Int>], _ position: Int) -> Bool {
        let r = firstEnding(after: position, in: ranges)
        return r < ranges.count && ranges[r].contains(position)
    }

    /// The index of the first of `ranges` (sorted, not overlapping) that ends after `position`:
    /// a binary search, so a note of many comments costs no scan of them all per line or link.
    static func firstEnding(after position: Int, in ranges: [Range<Int>]) -> Int {
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound <= position { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Where line `line` ends, its line break left out.
    static func lineEnd(_ b: [UInt8], _ starts: [Int], _ line: Int) -> Int {
        guard line + 1 < starts.count else {
            var e = b.count
            if e > starts[line] && b[e - 1] == 0x0D { e -= 1 }
            return e
        }
        var e = starts[line + 1]
        if e > starts[line] && b[e - 1] == 0x0A { e -= 1 }
        if e > starts[line] && b[e - 1] == 0x0D { e -= 1 }
        return e
    }

    /// Inline code spans and HTML comments (`<!-- ... -->`) of one block, which may cross its
    /// lines: nothing inside them is a link or a tag. Whichever opens first wins.
    ///
    /// Linear in the block: each backtick run's closer (the next run of the same length) is found
    /// in one pass over the runs, and a search for `-->` that found none is not made again for a
    /// later `<!--` (regression: backtick runs of every length, or many unclosed `<!--`, each
    /// searched to the block's end, and a synced note of 2 MB took minutes).
    static func inlineExclusions(_ b: [UInt8], _ start: Int, _ end: Int) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var i = start
        var runs: [Range<Int>]? = nil  // the backtick runs from the first one on, made when first needed
        var closer: [Int] = []  // for each run, the index of the next run of its length, or -1
        var run = 0
        var noCommentEndFrom = Int.max
        while i < end {
            if b[i] == 0x60 {
                if runs == nil { (runs, closer) = backtickRuns(b, i, end) }
                let all = runs!
                while all[run].upperBound <= i { run += 1 }  // the run `i` starts (always at its start)
                if closer[run] >= 0 {
                    spans.append(i..<all[closer[run]].upperBound)
                    i = all[closer[run]].upperBound
                } else {
                    i = all[run].upperBound
                }
                continue
            }
            if b[i] == 0x3C, i + 3 < end, b[i + 1] == 0x21, b[i + 2] == 0x2D, b[i + 3] == 0x2D {
                var k = i + 4
                var closed = false
                while k + 2 < end && k < noCommentEndFrom {
                    if b[k] == 0x2D && b[k + 1] == 0x2D && b[k + 2] == 0x3E { spans.append(i..<(k + 3)); i = k + 3; closed = true; break }
                    k += 1
                }
                if !closed { noCommentEndFrom = min(noCommentEndFrom, i + 4); i += 4 }
                continue
            }
            i += 1
        }
        return spans
    }

    /// The runs of backticks in `from..<end`, and for each the index of the next run of the same
    /// length (-1 when none follows).
    static func backtickRuns(_ b: [UInt8], _ from: Int, _ end: Int) -> ([Range<Int>], [Int]) {
        var runs: [Range<Int>] = []
        var i = from
        while i < end {
            if b[i] != 0x60 { i += 1; continue }
            var j = i
            while j < end && b[j] == 0x60 { j += 1 }
            runs.append(i..<j)
            i = j
        }
        var closer = [Int](repeating: -1, count: runs.count)
        var nextOfLength: [Int: Int] = [:]
        for r in runs.indices.reversed() {
            closer[r] = nextOfLength[runs[r].count] ?? -1
            nextOfLength[runs[r].count] = r
        }
        return (runs, closer)
    }

    // MARK: - Pieces

    /// 1-6 for an ATX heading line (`## Title`), 0 otherwise.
    static func headingLevel(_ b: [UInt8], _ p: Int, _ end: Int) -> Int {
        var q = p
        while q < end && b[q] == 0x23 { q += 1 }
        let level = q - p
        guard level >= 1 && level <= 6 else { return 0 }
        return q == end || b[q] == 0x20 || b[q] == 0x09 ? level : 0
    }

    static func headingText(_ b: [UInt8], _ p: Int, _ end: Int) -> String {
        var q = p
        while q < end && b[q] == 0x23 { q += 1 }
        var e = end
        while e > q && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
        // A closing sequence of #s preceded by a space is not part of the text.
        var h = e
        while h > q && b[h - 1] == 0x23 { h -= 1 }
        if h < e && (h == q || b[h - 1] == 0x20) { e = h }
        return String(decoding: b[q..<e], as: UTF8.self).trimmingBlanks.description
    }

    static func isTagByte(_ c: UInt8) -> Bool {
        // ASCII letters, digits, _ - /, and every non-ASCII byte (letters of other scripts).
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            || c == 0x5F || c == 0x2D || c == 0x2F || c >= 0x80
    }

    /// Finds tags and links on one line outside the `excluded` ranges (sorted; `cursor` is the
    /// first one that may still lie ahead, kept from line to line of a block).
    static func scanLine(_ b: [UInt8], _ start: Int, _ end: Int, excluded: [Range<Int>], cursor: inout Int,
                         inTable: Bool, links: inout [Link], tag: (String, Range<Int>) -> Void) {
        var i = start
        // Each `[` of a markdown link looks ahead for its closers, to the line's end when there
        // are none: a line of 200,000 `[` (or `[a](` ...) made that quadratic, and a synced note
        // hung every command that read it (regression). That lookahead is capped at 64 times the
        // line's length (a line of prose spends one or two); past it, `[text](target)` is text.
        var lookahead = 64 * (end - start)
        while i < end {
            while cursor < excluded.count && excluded[cursor].upperBound <= i { cursor += 1 }
            if cursor < excluded.count && excluded[cursor].contains(i) {
                i = excluded[cursor].upperBound
                continue
            }
            let c = b[i]
            if c == 0x23, i == start || b[i - 1] == 0x20 || b[i - 1] == 0x09 {
                var j = i + 1
                while j < end && isTagByte(b[j]) { j += 1 }
                // Trailing punctuation such as "#idea." is not part of the tag.
                while j > i + 1 && (b[j - 1] == 0x2F || b[j - 1] == 0x2D) { j -= 1 }
                let body = b[(i + 1)..<j]
                if !body.isEmpty && !body.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    if let text = String(validating: body, as: UTF8.self), text.unicodeScalars.allSatisfy({ isTagScalar($0) }) {
                        tag(text, (i + 1)..<j)
                    }
                }
                i = max(j, i + 1)
                continue
            }
            if c == 0x5B || (c == 0x21 && i + 1 < end && b[i + 1] == 0x5B) {
                let embed = c == 0x21
                let open = embed ? i + 1 : i
                // A wiki-link's search ends at the next `[[`: linear over any line, so never capped.
                if open + 1 < end && b[open + 1] == 0x5B, let (link, after) = wikiLink(b, open, end, embed: embed, inTable: inTable) {
                    links.append(link)
                    i = after
                    continue
                }
                if lookahead > 0 {
                    var looked = open
                    defer { lookahead -= looked - open }
                    if let (link, after) = markdownLink(b, open, end, embed: embed, looked: &looked) {
                        if let link { links.append(link) }
                        i = after
                        continue
                    }
                }
            }
            i += 1
        }
    }

    static func isTagScalar(_ s: Unicode.Scalar) -> Bool {
        s.properties.isAlphabetic || s.properties.numericType != nil || s == "_" || s == "-" || s == "/"
            || s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .spacingMark
    }

    /// `[[target#fragment|label]]` starting at `open` (the first `[`). The bar may be written
    /// `\|` (as a table cell needs): the backslash is not part of the target.
    static func wikiLink(_ b: [UInt8], _ open: Int, _ end: Int, embed: Bool, inTable: Bool = false, kind: Link.Kind? = nil) -> (Link, Int)? {
        let start = open + 2
        var j = start
        while j + 1 < end && !(b[j] == 0x5D && b[j + 1] == 0x5D) {
            if b[j] == 0x5B && b[j + 1] == 0x5B { return nil }
            j += 1
        }
        guard j + 1 < end else { return nil }
        let inner = start..<j
        var targetEnd = inner.upperBound
        var label: String? = nil
        if let bar = b[inner].firstIndex(of: 0x7C) {
            targetEnd = bar > start && b[bar - 1] == 0x5C ? bar - 1 : bar
            label = String(decoding: b[(bar + 1)..<j], as: UTF8.self)
        }
        var fragment: String? = nil
        var pathEnd = targetEnd
        if let hash = b[start..<targetEnd].firstIndex(of: 0x23) {
            pathEnd = hash
            fragment = String(decoding: b[(hash + 1)..<targetEnd], as: UTF8.self)
        }
        // Trim blanks around the target (`[[ Note ]]`).
        var ts = start, te = pathEnd
        while ts < te && b[ts] == 0x20 { ts += 1 }
        while te > ts && b[te - 1] == 0x20 { te -= 1 }
        let target = String(decoding: b[ts..<te], as: UTF8.self)
        let link = Link(kind: kind ?? (embed ? .wikiEmbed : .wiki), target: target, fragment: fragment, targetRange: ts..<te,
                        label: label, inTable: inTable)
        return (link, j + 2)
    }

    /// `[text](target "title")` starting at `open`. Returns nil for a bracket that is not a link;
    /// a nil link with a position for links Sheaf does not follow (URLs, anchors).
    static func markdownLink(_ b: [UInt8], _ open: Int, _ end: Int, embed: Bool, looked: inout Int) -> (Link?, Int)? {
        var depth = 0
        var j = open
        var far = open
        defer { looked = far }
        while j < end {
            if b[j] == 0x5B { depth += 1 }
            else if b[j] == 0x5D { depth -= 1; if depth == 0 { break } }
            else if b[j] == 0x5C { j += 1 }
            j += 1
        }
        far = j
        guard j < end, j + 1 < end, b[j + 1] == 0x28 else { return nil }
        var k = j + 2
        while k < end && b[k] == 0x20 { k += 1 }
        var targetRange: Range<Int>
        var close: Int
        if k < end && b[k] == 0x3C {  // <path with spaces.md>
            guard let gt = b[(k + 1)..<end].firstIndex(of: 0x3E) else { far = end; return nil }
            targetRange = (k + 1)..<gt
            guard let paren = b[(gt + 1)..<end].firstIndex(of: 0x29) else { far = end; return nil }
            close = paren
        } else {
            var m = k
            var parens = 0
            while m < end && b[m] != 0x20 {
                if b[m] == 0x28 { parens += 1 }
                if b[m] == 0x29 { if parens == 0 { break }; parens -= 1 }
                m += 1
            }
            targetRange = k..<m
            guard let paren = b[m..<end].firstIndex(of: 0x29) else { far = end; return nil }
            close = paren
        }
        far = close
        let raw = String(decoding: b[targetRange], as: UTF8.self)
        if raw.isEmpty || hasScheme(raw) { return (nil, close + 1) }
        var path = raw
        var fragment: String? = nil
        if let hash = raw.firstIndex(of: "#") {
            path = String(raw[..<hash])
            fragment = String(raw[raw.index(after: hash)...])
            targetRange = targetRange.lowerBound..<(targetRange.lowerBound + path.utf8.count)
        }
        let decoded = percentDecoded(path) ?? path
        return (Link(kind: embed ? .markdownEmbed : .markdown, target: decoded, fragment: fragment, targetRange: targetRange), close + 1)
    }

    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":") else { return false }
        let scheme = s[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            && scheme.first!.isLetter && scheme.count > 1
    }

    /// `%20` and friends decoded; nil when an escape is malformed.
    public static func percentDecoded(_ s: String) -> String? {
        guard s.contains("%") else { return s }
        var out: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            if u[i] == 0x25 {
                guard i + 2 < u.count, let h = hexValue(u[i + 1]), let l = hexValue(u[i + 2]) else { return nil }
                out.append(h << 4 | l)
                i += 3
            } else { out.append(u[i]); i += 1 }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// One line of markdown as plain text: heading marks, list markers, emphasis and link syntax
    /// removed, embeds dropped.
    public static func plainLine(_ line: String) -> String {
        let bytes = Array(line.utf8)
        return plainLine(bytes, 0, bytes.count)
    }

    /// `plainLine` of bytes `start..<end` of `bytes`.
    public static func plainLine(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        var p = start
        if headingLevel(bytes, start, end) > 0 {
            while p < end && bytes[p] == 0x23 { p += 1 }
            while p < end && bytes[p] == 0x20 { p += 1 }
        }
        return plainText(bytes, p, end)
    }

    /// A line with markdown punctuation removed, for snippets.
    static func plainText(_ b: [UInt8], _ p: Int, _ end: Int) -> String {
        // Most lines hold nothing to remove: no byte of the syntax below, and no list marker or
        // quote to start with. Such a line comes out as it went in, without the walk by Characters.
        if p < end, b[p] != 0x3E, b[p] != 0x2D, b[p] != 0x2B, !b[p..<end].contains(where: isSnippetSyntax) {
            return String(String(decoding: b[p..<end], as: UTF8.self).trimmingBlanks)
        }
        if isOneCharacterPerScalar(b, p, end) { return plainTextByBytes(b, p, end) }
        return plainTextByCharacters(b, p, end)
    }

    /// `!`, `[`, `*`, `_`, backtick, `~` and `<`: the bytes `plainTextByCharacters` may remove.
    private static func isSnippetSyntax(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x5B, 0x2A, 0x5F, 0x60, 0x7E, 0x3C: return true
        default: return false
        }
    }

    /// `plainText` the long way, for any line.
    static func plainTextByCharacters(_ b: [UInt8], _ p: Int, _ end: Int) -> String {
        var text = Substring(String(decoding: b[p..<end], as: UTF8.self))
        // List markers and quotes at the start.
        while let first = text.first, first == ">" || first == "-" || first == "*" || first == "+" {
            text = text.dropFirst().trimmingBlanks
        }
        let chars = Array(text), e = chars.count
        var pairs = ForwardSearch(limit: e), brackets = pairs, parens = pairs, angles = pairs
        func nextClosingPair(from: Int) -> Int? { pairs.first(from: from) { $0 + 1 < e && chars[$0] == "]" && chars[$0 + 1] == "]" } }
        func nextBracket(from: Int) -> Int? { brackets.first(from: from) { chars[$0] == "]" } }
        func nextParen(from: Int) -> Int? { parens.first(from: from) { chars[$0] == ")" } }
        func nextAngle(from: Int) -> Int? { angles.first(from: from) { chars[$0] == ">" } }
        var out = ""
        var i = 0
        while i < e {
            let c = chars[i]
            let next: Character? = i + 1 < e ? chars[i + 1] : nil
            if c == "!" && next == "[" && i + 2 < e && chars[i + 2] == "[", let close = nextClosingPair(from: i) {
                i = close + 2  // embeds say nothing in a snippet
                continue
            }
            if c == "!" && next == "[", let paren = nextParen(from: i) {
                i = paren + 1
                continue
            }
            if c == "[" && next == "[", let close = nextClosingPair(from: i) {
                out += chars[(i + 2)..<close].split(separator: "|").last.map { String($0) } ?? ""
                i = close + 2
                continue
            }
            if c == "[", let close = nextBracket(from: i), close + 1 < e, chars[close + 1] == "(", let paren = nextParen(from: close) {
                out += String(chars[(i + 1)..<close])
                i = paren + 1
                continue
            }
            // An inline HTML tag (`<button class=...>`, `</span>`) is markup, not text.
            if c == "<", let next, next.isLetter || next == "/", let close = nextAngle(from: i) {
                i = close + 1
                continue
            }
            if c == "*" || c == "_" || c == "`" || c == "~" { i += 1; continue }
            out.append(c)
            i += 1
        }
        return String(out.trimmingBlanks)
    }
}

extension Substring {
    func range(of needle: String) -> Range<Substring.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<self.index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
