// Backlinks with the line that holds each link, for an editor's "references" and hover: the
// notes `linkingNotes` names, read and parsed (only those), each link that reaches the file
// (and, when asked, names the heading) given with its line's text and where on it the link is;
// likewise every inline `#tag` of a name, in the notes the index says carry it.
import Foundation
import SheafCore

/// A link to a file, where it is written.
public struct LinkReference: Sendable, Equatable {
    /// The linking note.
    public let path: String
    /// The 0-based line of the link in the linking note's file.
    public let line: Int
    /// That line's text (without its line break).
    public let lineText: String
    /// UTF-8 offsets, within `lineText`, of the link's target and fragment.
    public let columns: Range<Int>
}

/// What a hover shows of a note or file.
public struct FilePreview: Sendable, Equatable {
    public let path: String
    /// The note's title; the file name for another file.
    public let title: String
    /// The first lines of a note's body with text (none for another file).
    public let lines: [String]
    /// The file's size in bytes.
    public let size: Int
    /// An image's size in pixels, once a thumbnailing command read it.
    public var pixels: (width: Int, height: Int)? = nil
    /// An image's thumbnail (absolute path), when it is made.
    public var thumbnail: String? = nil

    public static func == (a: FilePreview, b: FilePreview) -> Bool {
        a.path == b.path && a.title == b.title && a.lines == b.lines && a.size == b.size
            && a.pixels?.width == b.pixels?.width && a.pixels?.height == b.pixels?.height && a.thumbnail == b.thumbnail
    }
}

extension VaultLinkMap {
    /// Every link that reaches `path`, in the notes' path order and then in line order; with
    /// `heading`, only those whose `#fragment` names that heading (as Obsidian matches one).
    public func references(to path: String, heading: String? = nil) -> [LinkReference] {
        let wanted = heading.map { LinkProblem.headingKey($0) }
        var found: [LinkReference] = []
        for notePath in linkingNotes(to: path) + (heading != nil ? [path] : []) {
            guard case .whole(let bytes)? = NoteBytes.read(vault.absolute(notePath)) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let outline = NoteOutline(text: text, path: notePath)
            var ranges: [Range<Int>] = []
            for span in outline.links where resolve(span.target, from: notePath).map({ PathBytes.same($0, path) }) == true {
                if let wanted {
                    guard let fragment = span.fragment, !fragment.hasPrefix("^"),
                          LinkProblem.headingKey(LinkProblem.lastHeadingPart(MarkdownScan.percentDecoded(fragment) ?? fragment)) == wanted
                    else { continue }
                }
                ranges.append(span.spanBytes)
            }
            found += Self.places(ranges, in: Array(text.utf8), notePath: notePath)
        }
        return found
    }

    /// Every inline `#tag` named `tag` (case ignored) in the notes the index says carry it, in
    /// the notes' path order and then in line order; `columns` cover the name after the `#`.
    public func tagReferences(_ tag: String) -> [LinkReference] {
        let wanted = tag.lowercased()
        let carrying = notes.filter { $0.tags.contains { $0.lowercased() == wanted } }.map(\.path)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var found: [LinkReference] = []
        for notePath in carrying {
            guard case .whole(let bytes)? = NoteBytes.read(vault.absolute(notePath)) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let spans = NoteOutline(text: text, path: notePath).tagSpans.filter { $0.name.lowercased() == wanted }
            found += Self.places(spans.map(\.bytes), in: Array(text.utf8), notePath: notePath)
        }
        return found
    }

    /// Each range of `utf8` (a note's text) as a reference: its line, the line's text, the columns.
    private static func places(_ ranges: [Range<Int>], in utf8: [UInt8], notePath: String) -> [LinkReference] {
        guard !ranges.isEmpty else { return [] }
        var starts = [0]
        for (i, b) in utf8.enumerated() where b == 0x0A { starts.append(i + 1) }
        // One string per line, shared by the references on it: a copy each took gigabytes for a
        // synced line of 170 KB holding thousands of links (regression).
        var lineTexts: [Int: String] = [:]
        return ranges.map { range in
            let line = Self.line(of: range.lowerBound, starts: starts)
            var end = line + 1 < starts.count ? starts[line + 1] - 1 : utf8.count
            if end > starts[line] && utf8[end - 1] == 0x0D { end -= 1 }
            let lineText = lineTexts[line] ?? String(decoding: utf8[starts[line]..<end], as: UTF8.self)
            lineTexts[line] = lineText
            return LinkReference(path: notePath, line: line, lineText: lineText,
                                 columns: (range.lowerBound - starts[line])..<(min(range.upperBound, end) - starts[line]))
        }
    }

    private static func line(of offset: Int, starts: [Int]) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The title and first `count` lines with text of the note at `path` (front-matter left
    /// out), or the name and size of another file (an image's pixels and thumbnail as the index
    /// has them); nil when there is no such file.
    public func preview(of path: String, count: Int = 8) -> FilePreview? {
        var info = stat()
        guard stat(vault.absolute(path), &info) == 0 else { return nil }
        let size = Int(info.st_size)
        guard VaultPath.isNote(path), case .whole(let bytes)? = NoteBytes.read(vault.absolute(path)) else {
            var preview = FilePreview(path: path, title: VaultPath.fileName(path), lines: [], size: size)
            if let image = images[PathKey(path)] {
                if let width = image.width, let height = image.height { preview.pixels = (width, height) }
                preview.thumbnail = image.thumbnail.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
            }
            return preview
        }
        let note = Note(path: path, bytes: bytes)
        let lines = note.body.split(separator: "\n", omittingEmptySubsequences: true)
            .map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
            .filter { !$0.trimmingBlanks.isEmpty }
        return FilePreview(path: path, title: note.title, lines: Array(lines.prefix(count)), size: size)
    }

    /// Every tag of the vault's notes (case ignored, spelt as most notes spell it) with how many
    /// notes carry it, most used first.
    public var tags: [(tag: String, count: Int)] {
        var spellings: [String: [String: Int]] = [:]
        for note in notes {
            for tag in note.tags { spellings[tag.lowercased(), default: [:]][tag, default: 0] += 1 }
        }
        return spellings.values.map { spelt in
            let name = spelt.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }!.key
            return (tag: name, count: spelt.values.reduce(0, +))
        }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.tag < $1.tag }
    }
}
