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
        var frontMatter: FrontMatter?
        return places.map { place in
            guard place.kind == .property else { return line(around: place.offset, in: bytes) }
            if frontMatter == nil {
                frontMatter = NoteDocument(text: text).frontMatter.flatMap { try? FrontMatter(parsing: $0) } ?? FrontMatter()
            }
            return "\(propertyKey(of: place.target, in: frontMatter!)): [[\(place.target)]]"
        }
    }

    /// The top-level front-matter key whose value holds a property link ("" when none does).
    public func propertyKey(of link: Link) -> String {
        Self.propertyKey(of: link.target, in: frontMatter)
    }

    static func propertyKey(of target: String, in frontMatter: FrontMatter) -> String {
        frontMatter.entries.first { entry in entry.value.flattenedText.contains { $0.contains("[[" + target) } }?.key ?? ""
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
        while start > first, text[start - 1] != 0x0A { start -= 1 }
        while end < text.count, text[end] != 0x0A { end += 1 }
        let cutStart = at - start > contextBefore, cutEnd = end - at > contextAfter
        if cutStart { start = at - contextBefore; while start < at, text[start] & 0xC0 == 0x80 { start += 1 } }
        if cutEnd { end = at + contextAfter; while end > at, text[end] & 0xC0 == 0x80 { end -= 1 } }
        let line = String(decoding: text[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (cutStart ? "…" : "") + line + (cutEnd ? "…" : "")
    }
}
