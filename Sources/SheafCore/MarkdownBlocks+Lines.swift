// The blocks of a note too large for cmark-gfm's tree, read line by line. cmark builds a node of
// some 170 bytes for every line, table cell and inline mark before it reports a single block: a
// synced note of 10 MB of short lines or tiny cells took it 1.7-2.5 GB, in every process that
// indexed it (regression). Past `nodeBudget`, the blocks come from here, and the note says so
// (`NoteWarning.blocksByLines`).

extension MarkdownBlocks {
    /// How many lines, table cells and inline marks a note may hold for cmark to read its blocks
    /// (a few hundred MB of nodes at most).
    static let nodeBudget = 1_000_000

    /// Whether `bytes` hold more lines, `|` and inline marks than `nodeBudget`.
    static func exceedsNodeBudget(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > nodeBudget else { return false }  // each takes a byte at least
        var count = 0
        for byte in bytes where Self.makesANode[Int(byte)] { count += 1 }
        return count > nodeBudget
    }

    /// The bytes after which cmark may start a node: line breaks, `|`, and the inline marks.
    private static let makesANode: [Bool] = (0..<256).map { Array("\n\r|*_`[]!<&~\\".utf8).contains(UInt8($0)) }

    /// Paragraphs (runs of lines that are not blank) and ATX headings, outside fenced code
    /// blocks; nothing else is told apart (an indented code block or an HTML block reads as a
    /// paragraph, a table as one).
    static func linesAsBlocks(_ bytes: [UInt8]) -> [TextBlock] {
        let starts = lineStarts(bytes)
        var blocks: [TextBlock] = []
        var fence: (byte: UInt8, length: Int)? = nil
        var paragraph: Int? = nil
        func endParagraph(before line: Int) {
            if let first = paragraph { blocks.append(TextBlock(kind: .paragraph, lines: first...(line - 1))) }
            paragraph = nil
        }
        for line in starts.indices {
            let start = starts[line]
            var end = line + 1 < starts.count ? starts[line + 1] : bytes.count
            while end > start && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
            var p = start
            while p < end && (bytes[p] == 0x20 || bytes[p] == 0x09) { p += 1 }
            let indented = p - start >= 4
            if !indented, p < end, bytes[p] == 0x60 || bytes[p] == 0x7E {
                var q = p
                while q < end && bytes[q] == bytes[p] { q += 1 }
                if q - p >= 3 {
                    if let open = fence {
                        var rest = q
                        while rest < end && (bytes[rest] == 0x20 || bytes[rest] == 0x09) { rest += 1 }
                        if open.byte == bytes[p] && q - p >= open.length && rest == end { fence = nil }
                    } else {
                        endParagraph(before: line)
                        fence = (bytes[p], q - p)
                    }
                    continue
                }
            }
            if fence != nil { continue }
            if p == end { endParagraph(before: line); continue }
            var level = 0
            while p + level < end && bytes[p + level] == 0x23 { level += 1 }
            if !indented, (1...6).contains(level), p + level == end || bytes[p + level] == 0x20 || bytes[p + level] == 0x09 {
                endParagraph(before: line)
                blocks.append(TextBlock(kind: .heading(level: level), lines: line...line))
                continue
            }
            if paragraph == nil { paragraph = line }
        }
        endParagraph(before: starts.count)
        return blocks
    }
}
