// Where each link of a note is written, and the line a reader sees around it: what a backlinks
// list shows under the linking note's title. The index keeps each link's place (a byte offset,
// a few bytes a row), not its line: stored lines grew the index from 1.22x to 1.49x the notes'
// bytes at 10k. A page of backlinks cuts the lines from the linking notes' text when it is made.
import Foundation

extension Note {
    /// For each of `links` (same order): the UTF-8 offset of its target in the note's text, the
    /// file as read, BOM and front-matter included (a file that is not UTF-8 counts in its text
    /// decoded with replacement characters, as `linkLines(at:inText:)` decodes it).
    public var linkOffsets: [Int] {
        links.map { ($0.inFrontMatter ? frontMatterStart : bodyStart) + $0.targetRange.lowerBound }
    }

    /// A link as `linkLines(at:inText:)` needs it: where it is written (`linkOffsets`), and for a
    /// property link, which front-matter value holds it.
    public struct Place: Sendable {
        public let offset: Int
        public let kind: Link.Kind
        public let target: String

        public init(offset: Int, kind: Link.Kind, target: String) {
            self.offset = offset
            self.kind = kind
            self.target = target
        }
    }

    /// For each place (same order) in the note whose text is `text`: the trimmed line holding a
    /// body link (of a long line, the part around the link); for a property link,
    /// `key: [[target]]` with the top-level front-matter key whose value holds it.
    public static func linkLines(at places: [Place], inText text: String) -> [String] {
        let bytes = Array(text.utf8)
        var keyOf: ((String) -> String)?
        return places.map { place in
            guard place.kind == .property else { return line(around: place.offset, in: bytes) }
            if keyOf == nil {
                keyOf = propertyKeys(in: NoteDocument(text: text).frontMatter.flatMap { try? FrontMatter(parsing: $0) } ?? FrontMatter())
            }
            return "\(keyOf!(place.target)): [[\(place.target)]]"
        }
    }

    /// For a property link's target, the top-level front-matter key whose value holds it ("" when
    /// none does); the block read once for all the links.
    public func propertyKeys() -> (String) -> String { Self.propertyKeys(in: frontMatter) }

    /// For each wiki-link target written in a value, the first key whose value holds it ("" for
    /// any other). A search of the block per link made a page of 10,000 property links take
    /// seconds (regression).
    static func propertyKeys(in frontMatter: FrontMatter) -> (String) -> String {
        var first: [String: String] = [:]
        for entry in frontMatter.entries {
            for text in entry.value.flattenedText {
                for target in wikiLinkTargets(in: text) where first[target] == nil { first[target] = entry.key }
            }
        }
        return { target in first[target] ?? "" }
    }

    /// The targets of the wiki-links written in `text` (a property's value), in order.
    public static func wikiLinkTargets(in text: String) -> [String] {
        guard text.contains("[[") else { return [] }
        let b = Array(text.utf8)
        var targets: [String] = []
        var i = 0
        while i + 1 < b.count {
            guard b[i] == 0x5B, b[i + 1] == 0x5B, let (link, after) = MarkdownScan.wikiLink(b, i, b.count, embed: false, kind: .property)
            else { i += 1; continue }
            targets.append(link.target)
            i = after
        }
        return targets
    }

    /// Bytes of a long line kept before a link's target and from it on: what a backlinks list
    /// shows of a paragraph written as one line.
    static let contextBefore = 60, contextAfter = 120

    /// The trimmed line holding byte `offset` of `text` (a note's bytes: a BOM is no part of its
    /// first line); of a long line, the part around the offset (cut between characters, `…`
    /// where it was cut).
    static func line(around offset: Int, in text: [UInt8]) -> String {
        let at = min(max(offset, 0), text.count)
        let first = text.starts(with: [0xEF, 0xBB, 0xBF]) ? min(3, at) : 0
        var start = at, end = at
        // No further than the context either side: a walk to the line's ends, for each link of a
        // synced line of thousands, made a backlinks list quadratic (regression).
        while start > first, at - start <= contextBefore, text[start - 1] != 0x0A { start -= 1 }
        while end < text.count, end - at <= contextAfter, text[end] != 0x0A { end += 1 }
        let cutStart = at - start > contextBefore, cutEnd = end - at > contextAfter
        if cutStart { start = at - contextBefore; while start < at, text[start] & 0xC0 == 0x80 { start += 1 } }
        if cutEnd { end = at + contextAfter; while end > at, text[end] & 0xC0 == 0x80 { end -= 1 } }
        let line = String(decoding: text[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (cutStart ? "…" : "") + line + (cutEnd ? "…" : "")
    }
}
