// The block structure of a note's body, as a CommonMark parser (cmark-gfm, with GitHub's table
// extension) reads it. Sheaf's own scanner then looks for links and tags only in the lines of
// paragraphs, headings and tables: never in code (fenced, indented, inside a quote or a list),
// never in HTML blocks (`<!-- [[X]] -->`). This is the only file that calls cmark-gfm.
import CCmarkGFM
import Glibc

/// One leaf block whose text may hold links and tags.
struct TextBlock: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case paragraph
        case heading(level: Int)
        case table
    }
    var kind: Kind
    /// First and last line of the block, 0-based, as `MarkdownBlocks.lineStarts` counts them.
    var lines: ClosedRange<Int>
}

enum MarkdownBlocks {
    /// cmark-gfm's extensions are registered once per process; the table extension is then a
    /// read-only global that every parser may attach.
    nonisolated(unsafe) private static let tableExtension: OpaquePointer? = {
        cmark_gfm_core_extensions_ensure_registered()
        return cmark_find_syntax_extension("table")
    }()

    /// The paragraphs, headings and tables of `bytes`, in document order. Lines that belong to a
    /// code or HTML block are never part of one.
    static func textBlocks(_ bytes: [UInt8]) -> [TextBlock] {
        guard let parser = cmark_parser_new(sheaf_cmark_options()) else { return [] }
        defer { cmark_parser_free(parser) }  // after the tree is read: the tree uses its memory
        if let table = tableExtension { cmark_parser_attach_syntax_extension(parser, table) }
        let bytes = skeleton(bytes)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_parser_feed(parser, $0, buffer.count) }
            }
        }
        guard let document = cmark_parser_finish(parser) else { return [] }
        defer { cmark_node_free(document) }
        var blocks: [TextBlock] = []
        collect(document, into: &blocks)
        return blocks
    }

    /// Table rows past this many cells are read as this many (the last one holding the rest).
    static let cellsReadInARow = 128

    /// `bytes` as cmark-gfm 0.29.0.gfm.6 (Debian's) reads its blocks in linear time, with the same
    /// lines in the same blocks. Two of its paths are quadratic on synced content, and only the
    /// blocks are read here, never the inlines: each `![` (an image opener, which no block
    /// construct uses) becomes `a[`, since a line of 300 KB of `![[]()` took 20 s in the inline
    /// parser; and the cells of a table row past `cellsReadInARow` are joined (their `|` made
    /// `-`, which keeps a delimiter row a delimiter row), since each cell was appended to a list by
    /// walking it and a row of 200,000 `|` took minutes (regression). A line keeps its first
    /// `|`s, so no line becomes a thematic break, a list item or a setext underline.
    static func skeleton(_ bytes: [UInt8]) -> [UInt8] {
        // Most notes need nothing, and are not copied: memchr finds the `!`s, and the `|`s are
        // counted before any line is walked (a walk of every byte here was 2.4 % of a cold index).
        let (images, pipes) = bytes.withUnsafeBufferPointer { buffer -> ([Int], Int) in
            guard let base = buffer.baseAddress else { return ([], 0) }
            var images: [Int] = []
            var at = 0
            while at < buffer.count, let hit = memchr(base + at, 0x21, buffer.count - at) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if i + 1 < buffer.count && buffer[i + 1] == 0x5B && (i == 0 || buffer[i - 1] != 0x3C) { images.append(i) }
                at = i + 1
            }
            var pipes = 0
            for c in buffer where c == 0x7C { pipes += 1 }
            return (images, pipes)
        }
        guard !images.isEmpty || pipes > cellsReadInARow else { return bytes }
        var out = bytes
        for i in images { out[i] = 0x61 }
        guard pipes > cellsReadInARow else { return out }
        var inLine = 0
        for i in out.indices {
            switch out[i] {
            case 0x7C:
                inLine += 1
                if inLine > cellsReadInARow { out[i] = 0x2D }
            case 0x0A, 0x0D:
                inLine = 0
            default:
                break
            }
        }
        return out
    }

    /// The blocks in document order, walked with a stack of its own: recursion per level of
    /// nesting overflowed the thread's stack on a synced note of 30,000 nested `>` (30 KB), and
    /// every command that read it, `sheaf serve` included, died (regression).
    private static func collect(_ root: OpaquePointer, into blocks: inout [TextBlock]) {
        var containers: [OpaquePointer] = []
        var child = cmark_node_first_child(root)
        while true {
            guard let node = child else {
                guard let container = containers.popLast() else { return }
                child = cmark_node_next(container)
                continue
            }
            child = cmark_node_next(node)
            let first = Int(cmark_node_get_start_line(node)) - 1
            let last = max(first, Int(cmark_node_get_end_line(node)) - 1)
            guard first >= 0 else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_PARAGRAPH:
                blocks.append(TextBlock(kind: .paragraph, lines: first...last))
            case CMARK_NODE_HEADING:
                blocks.append(TextBlock(kind: .heading(level: Int(cmark_node_get_heading_level(node))), lines: first...last))
            case CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM, CMARK_NODE_FOOTNOTE_DEFINITION:
                containers.append(node)
                child = cmark_node_first_child(node)
            case CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK:
                break
            default:
                // Extension blocks name themselves: the table extension's is "table".
                if let name = cmark_node_get_type_string(node), String(cString: name) == "table" {
                    tableBlocks(node, first: first, last: last, into: &blocks)
                }
            }
        }
    }

    /// A table, and the paragraph it interrupted. cmark-gfm 0.29 gives a table that interrupts a
    /// paragraph the paragraph's first line and leaves the rest of that paragraph without a
    /// position (line 0); the body rows' lines are right. The header is the line above the
    /// delimiter row, which is the line above the first body row (or the table's last line).
    private static func tableBlocks(_ table: OpaquePointer, first: Int, last: Int, into blocks: inout [TextBlock]) {
        var bodyRow: Int? = nil
        var row = cmark_node_first_child(table)
        while let r = row, bodyRow == nil {
            if let name = cmark_node_get_type_string(r), String(cString: name) == "table_row" {
                bodyRow = Int(cmark_node_get_start_line(r)) - 1
            }
            row = cmark_node_next(r)
        }
        let delimiter = bodyRow.map { $0 - 1 } ?? last
        let header = max(first, delimiter - 1)
        if header > first { blocks.append(TextBlock(kind: .paragraph, lines: first...(header - 1))) }
        blocks.append(TextBlock(kind: .table, lines: header...max(header, last)))
    }

    /// Byte offsets where each line starts, counting line breaks as CommonMark does (`\n`,
    /// `\r\n`, or a lone `\r`), so line numbers agree with the parser's.
    static func lineStarts(_ b: [UInt8]) -> [Int] {
        var starts = [0]
        var i = 0
        while i < b.count {
            if b[i] == 0x0A {
                starts.append(i + 1)
            } else if b[i] == 0x0D {
                if i + 1 < b.count && b[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        return starts
    }
}
