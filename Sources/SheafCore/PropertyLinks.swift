// Links in front-matter, as Obsidian reads them: a property value (a string, or an item of a
// list) that is one quoted wiki-link, `cover: "[[photo.jpg]]"` or `- "[[Books]]"`. An unquoted
// `[[Books]]` is a YAML list of lists, not a link, for Obsidian as for Yams. The links are found
// in the block's own text so that `mv` can rewrite their target bytes in place.

enum PropertyLinks {
    /// The wiki-links of `block`, whose parsed values are `frontMatter`, with target ranges in
    /// `block.rendered`.
    static func links(in block: FrontMatterBlock, frontMatter: FrontMatter) -> [Link] {
        var wanted: [String: Int] = [:]
        for entry in frontMatter.entries { collect(entry.value, into: &wanted) }
        guard !wanted.isEmpty else { return [] }
        let bytes = Array(block.rendered.utf8)
        let starts = MarkdownBlocks.lineStarts(bytes)
        var links: [Link] = []
        for line in starts.indices.dropFirst() {  // the opening `---` holds none
            let start = starts[line], end = MarkdownScan.lineEnd(bytes, starts, line)
            var p = start
            while p < end && (bytes[p] == 0x20 || bytes[p] == 0x09) { p += 1 }
            if p < end && bytes[p] == 0x23 { continue }  // a YAML comment
            var i = p
            while i + 1 < end {
                guard bytes[i] == 0x5B && bytes[i + 1] == 0x5B,
                      let (link, after) = MarkdownScan.wikiLink(bytes, i, end, embed: false, kind: .property) else { i += 1; continue }
                let written = String(decoding: bytes[i..<after], as: UTF8.self)
                if let n = wanted[written], n > 0 {
                    wanted[written] = n - 1
                    links.append(link)
                }
                i = after
            }
        }
        return links
    }

    /// Counts the values that are exactly one wiki-link (blanks around it allowed).
    private static func collect(_ value: YAMLValue, into wanted: inout [String: Int]) {
        switch value {
        case .scalar(let text):
            let trimmed = String(text.trimmingBlanks)
            guard trimmed.hasPrefix("[["), trimmed.hasSuffix("]]"), trimmed.count > 4 else { return }
            let inner = trimmed.dropFirst(2).dropLast(2)
            guard !inner.contains("[["), !inner.contains("]]") else { return }
            wanted[trimmed, default: 0] += 1
        case .list(let items):
            items.forEach { collect($0, into: &wanted) }
        case .map(let pairs):
            pairs.forEach { collect($0.1, into: &wanted) }
        case .null:
            return
        }
    }
}
