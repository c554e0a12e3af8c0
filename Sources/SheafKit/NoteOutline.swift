// One note's text as an editor needs it: its links, headings and block ids, each with where it is
// written in the file (UTF-8 offsets and lines of the whole text, front-matter counted). Made by
// the parse the index makes (`Note`, `MarkdownScan`), from a file or from an editor's unsaved
// buffer alike, so a language server sees a buffer as `doctor` would see it saved.
import SheafCore

public struct NoteOutline: Sendable {
    /// A link and where it is written.
    public struct LinkSpan: Sendable, Equatable {
        public let kind: Link.Kind
        /// The target as written (percent-decoded for markdown links), without `#` or `|` parts.
        public let target: String
        /// The `#heading` or `#^block` part, without the `#`.
        public let fragment: String?
        public let label: String?
        /// Inside an Obsidian `%% comment %%`: shown nowhere, so not checked.
        public let inComment: Bool
        /// UTF-8 offsets of the target text in the whole note.
        public let targetBytes: Range<Int>
        /// UTF-8 offsets from the target through the fragment (what a cursor may rest on).
        public let spanBytes: Range<Int>
        /// The link as SheafCore reads it (for `LinkRewriter` and the checks).
        let link: Link
    }

    /// A heading: its text as written, its level (1-6) and its 0-based line.
    public struct Heading: Sendable, Equatable {
        public let text: String
        public let level: Int
        public let line: Int
    }

    /// A block id (`^id` ending a line) and its 0-based line.
    public struct BlockID: Sendable, Equatable {
        public let id: String
        public let line: Int
    }

    /// An inline `#tag`: its name as written and the UTF-8 offsets of the name in the whole note.
    public struct TagSpan: Sendable, Equatable {
        public let name: String
        public let bytes: Range<Int>
    }

    public let path: String
    /// Every inline `#tag` of the body (front-matter tags have no place of their own here).
    public let tagSpans: [TagSpan]
    public let links: [LinkSpan]
    public let headings: [Heading]
    public let blockIDs: [BlockID]

    /// Reads `text` as the note at vault path `path`.
    public init(text: String, path: String) {
        let note = Note(path: path, bytes: Array(text.utf8))
        let document = NoteDocument(text: text)
        let bom = document.hasBOM ? 3 : 0
        // When the front-matter cannot be read, the note's body is the whole text after the BOM.
        let block = note.warnings.contains(where: { if case .invalidFrontMatter = $0 { return true }; return false })
            ? "" : (document.frontMatter?.rendered ?? "")
        let bodyStart = bom + block.utf8.count
        let bodyLine = block.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let bytes = Array(text.utf8)
        self.path = path
        tagSpans = note.tagSpans.map { TagSpan(name: $0.name, bytes: ($0.range.lowerBound + bodyStart)..<($0.range.upperBound + bodyStart)) }
        links = note.links.map { link in
            let start = (link.inFrontMatter ? bom : bodyStart)
            let target = (link.targetRange.lowerBound + start)..<(link.targetRange.upperBound + start)
            var end = target.upperBound
            if let fragment = link.fragment, end < bytes.count, bytes[end] == UInt8(ascii: "#") {
                end = min(bytes.count, end + 1 + fragment.utf8.count)
            }
            return LinkSpan(kind: link.kind, target: link.target, fragment: link.fragment, label: link.label,
                            inComment: link.inComment, targetBytes: target, spanBytes: target.lowerBound..<end, link: link)
        }
        var lineStarts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
        headings = zip(note.headings, note.headingLines).map { text, line in
            let at = line + bodyLine
            var p = at < lineStarts.count ? lineStarts[at] : bytes.count
            while p < bytes.count && bytes[p] == 0x20 { p += 1 }
            var hashes = 0
            while p + hashes < bytes.count && bytes[p + hashes] == UInt8(ascii: "#") { hashes += 1 }
            return Heading(text: text, level: (1...6).contains(hashes) ? hashes : 1, line: at)
        }
        blockIDs = zip(note.blockIDs, note.blockIDLines).map { BlockID(id: $0, line: $1 + bodyLine) }
    }

    /// The line a link's fragment names (`Heading`, `A#B`, `^block`), matched as Obsidian
    /// matches it (case and punctuation ignored); nil when the note holds none.
    public func line(ofFragment fragment: String) -> Int? {
        if fragment.hasPrefix("^") {
            let id = fragment.dropFirst().lowercased()
            return blockIDs.first { $0.id.lowercased() == id }?.line
        }
        let wanted = LinkProblem.headingKey(LinkProblem.lastHeadingPart(MarkdownScan.percentDecoded(fragment) ?? fragment))
        return headings.first { LinkProblem.headingKey($0.text) == wanted }?.line
    }
}
