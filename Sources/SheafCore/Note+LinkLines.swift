// The line a reader sees around each link of a note: what a backlinks list shows under the
// linking note's title. Made once when the note is read for the index (which stores it beside
// the link), so a page of backlinks reads no linking note again.
import Foundation

extension Note {
    /// For each of `links` (same order): the trimmed body line holding it, or for a property
    /// link `key: [[target]]` with the top-level front-matter key whose value holds it.
    public var linkLines: [String] {
        let body = Array(self.body.utf8)
        return links.map { link in
            if link.inFrontMatter { return "\(propertyKey(of: link)): [[\(link.target)]]" }
            return Self.line(around: link.targetRange.lowerBound, in: body)
        }
    }

    /// The top-level front-matter key whose value holds a property link ("" when none does).
    public func propertyKey(of link: Link) -> String {
        frontMatter.entries.first { entry in entry.value.flattenedText.contains { $0.contains("[[" + link.target) } }?.key ?? ""
    }

    /// Bytes of a long line kept before a link's target and from it on: what a backlinks list
    /// shows of a paragraph written as one line. The whole line was stored at first, and the
    /// index grew from 1.22x to 1.49x the notes' bytes at 10k.
    static let contextBefore = 60, contextAfter = 120

    /// The trimmed line holding byte `offset` of `body`; of a long line, the part around the
    /// offset (cut between characters, `…` where it was cut).
    static func line(around offset: Int, in body: [UInt8]) -> String {
        let at = min(max(offset, 0), body.count)
        var start = at, end = at
        while start > 0, body[start - 1] != 0x0A { start -= 1 }
        while end < body.count, body[end] != 0x0A { end += 1 }
        let cutStart = at - start > contextBefore, cutEnd = end - at > contextAfter
        if cutStart { start = at - contextBefore; while start < at, body[start] & 0xC0 == 0x80 { start += 1 } }
        if cutEnd { end = at + contextAfter; while end > at, body[end] & 0xC0 == 0x80 { end -= 1 } }
        let text = String(decoding: body[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return (cutStart ? "…" : "") + text + (cutEnd ? "…" : "")
    }
}
