// A note's text cut into the pieces Sheaf edits: an optional UTF-8 BOM, the front-matter block
// (its delimiter lines and the YAML lines between them) and the body. Every piece keeps its
// bytes, so `rendered` of an unedited document is exactly the input.

/// A note's text split into BOM, front-matter block and body, byte for byte.
public struct NoteDocument: Equatable, Sendable {
    public var hasBOM: Bool
    /// The front-matter block, nil when the note has none.
    public var frontMatter: FrontMatterBlock?
    /// Everything after the front-matter block.
    public var body: String

    /// Equal byte for byte (canonically equivalent text is a change to a note).
    public static func == (a: NoteDocument, b: NoteDocument) -> Bool {
        a.hasBOM == b.hasBOM && a.frontMatter == b.frontMatter && a.body.isIdentical(to: b.body)
    }

    /// Splits `text` (BOM already decoded as U+FEFF when present).
    public init(text: String) {
        var rest = Substring(text)
        hasBOM = rest.unicodeScalars.first == "\u{FEFF}"
        if hasBOM { rest = Substring(rest.unicodeScalars.dropFirst()) }
        if let (block, body) = FrontMatterBlock.take(from: rest) {
            frontMatter = block
            self.body = String(body)
        } else {
            frontMatter = nil
            body = String(rest)
        }
    }

    /// The document as text again, which reads back as the same pieces. A closing line that
    /// ended the file (no line break after `---`) gets this note's line ending once a body
    /// follows it, so the body is never fused into the delimiter line (`---text`). A note without
    /// front-matter whose body would read as a block (it starts with a `---` line and has a
    /// closing one) gets an empty block first, so its body stays body.
    public var rendered: String {
        var out = hasBOM ? "\u{FEFF}" : ""
        if let frontMatter {
            out += frontMatter.rendered
            if !body.isEmpty && !frontMatter.closing.endsWithLineBreak { out += lineEnding }
        } else if FrontMatterBlock.take(from: body[...]) != nil {
            let ending = Lines.dominantEnding(body[...])
            out += "---" + ending + "---" + ending
        }
        out += body
        return out
    }

    /// The line ending this note uses (from its first line break), for lines Sheaf adds.
    public var lineEnding: String {
        if let fm = frontMatter { return Lines.terminator(fm.opening).isEmpty ? "\n" : Lines.terminator(fm.opening) }
        return Lines.dominantEnding(body[...])
    }
}

/// The YAML block between `---` lines at the very top of a note.
public struct FrontMatterBlock: Equatable, Sendable {
    /// The opening `---` line with its terminator.
    public var opening: String
    /// The YAML lines, each with its terminator.
    public var lines: [String]
    /// The closing `---` (or `...`) line with its terminator (none at end of file).
    public var closing: String

    /// Equal byte for byte (canonically equivalent text is a change to a note).
    public static func == (a: FrontMatterBlock, b: FrontMatterBlock) -> Bool {
        a.opening.isIdentical(to: b.opening) && a.lines.isIdentical(to: b.lines) && a.closing.isIdentical(to: b.closing)
    }

    public init(opening: String = "---\n", lines: [String], closing: String = "---\n") {
        self.opening = opening
        self.lines = lines
        self.closing = closing
    }

    /// The block as text. Every line but the closing one ends with a line break (the opening
    /// line's, or "\n"), also when an edit left one without, so lines never run together.
    public var rendered: String {
        let ending = Lines.terminator(opening).isEmpty ? "\n" : Lines.terminator(opening)
        var out = opening.endsWithLineBreak ? opening : opening + ending
        for line in lines { out += line.endsWithLineBreak ? line : line + ending }
        return out + closing
    }

    /// The YAML text alone, with "\n" line endings, as a parser wants it.
    public var yaml: String { lines.map { Lines.content($0) + "\n" }.joined() }

    /// Finds a front-matter block at the start of `text`: a first line that is `---`, then a
    /// line that is `---` or `...`. Returns the block and the body after it.
    public static func take(from text: Substring) -> (FrontMatterBlock, Substring)? {
        guard text.hasPrefix("---") else { return nil }
        // Line by line (the pieces `Lines.split` gives) up to the closing line only: a search
        // cuts each hit's snippet from its body, and splitting the whole note was a tenth of it.
        let utf8 = text.utf8
        func line(at start: Substring.Index) -> Substring? {
            guard start != text.endIndex else { return nil }
            guard let nl = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) else { return text[start...] }
            return text[start..<utf8.index(after: nl)]
        }
        guard let first = line(at: text.startIndex), Lines.content(first).trimmingTrailingBlanks == "---",
              !Lines.terminator(first).isEmpty else { return nil }
        var lines: [Substring] = []
        var next = first.endIndex
        while let current = line(at: next) {
            let content = Lines.content(current).trimmingTrailingBlanks
            if content == "---" || content == "..." {
                let block = FrontMatterBlock(opening: String(first), lines: lines.map(String.init), closing: String(current))
                return (block, text[current.endIndex...])
            }
            lines.append(current)
            next = current.endIndex
        }
        return nil
    }
}
