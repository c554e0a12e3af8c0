// A note as Sheaf reads it: the facts taken from one file's bytes. Reading never fails: a note
// with broken YAML, bytes that are not UTF-8, a NUL byte or over 10 MB is still a note, read
// as far as is safe, with a warning that says why.
import Foundation

/// Why a note was read only in part.
public enum NoteWarning: Equatable, Sendable, CustomStringConvertible {
    case invalidFrontMatter(FrontMatterError)
    case notUTF8
    case binary
    case tooLarge(bytes: Int)
    case blocksByLines

    public var description: String {
        switch self {
        case .invalidFrontMatter(let e): return "\(e); read as plain text, never rewritten"
        case .notUTF8: return "not valid UTF-8; read as far as possible, never rewritten"
        case .binary: return "binary content in a .md file; indexed by name only"
        case .tooLarge(let n): return "larger than 10 MB (\(n / 1_000_000) MB); indexed by path and title only"
        case .blocksByLines:
            return "over \(MarkdownBlocks.nodeBudget) lines, table cells and inline marks; its blocks read line by line (only fenced code told apart), never rewritten"
        }
    }
}

public struct Note: Sendable {
    public static let sizeLimit = 10_000_000

    /// Vault-relative path, `/`-separated.
    public private(set) var path: String = ""
    public private(set) var id: String? = nil
    public private(set) var title: String = ""
    /// Front-matter tags, then inline tags, without `#`, first spelling kept.
    public private(set) var tags: [String] = []
    public private(set) var frontMatterTags: [String] = []
    public private(set) var aliases: [String] = []
    /// Front-matter `created` or `date`.
    public private(set) var created: Date? = nil
    /// Front-matter `modified` or `updated`.
    public private(set) var modified: Date? = nil
    /// Front-matter links (kind `.property`) first, then the body's, in the order written.
    public private(set) var links: [Link] = []
    public private(set) var snippet: String = ""
    /// The body's headings and block ids, what `#Heading` and `#^id` fragments name.
    public private(set) var headings: [String] = []
    public private(set) var blockIDs: [String] = []
    /// The 0-based line of each heading and block id in the body (`MarkdownScan`).
    public private(set) var headingLines: [Int] = []
    public private(set) var blockIDLines: [Int] = []
    /// Every inline `#tag` of the body and where its name is (`MarkdownScan.tagSpans`).
    public private(set) var tagSpans: [MarkdownScan.TagSpan] = []
    public private(set) var frontMatter: FrontMatter = FrontMatter()
    /// The body as text (empty for binary or oversized notes).
    public private(set) var body: String = ""
    /// Where the front-matter block and the body start in the note's text (UTF-8 offsets; after a
    /// BOM): what turns a link's `targetRange` into its place in the file (`linkOffsets`).
    public private(set) var frontMatterStart = 0, bodyStart = 0
    public private(set) var warnings: [NoteWarning] = []

    /// Reads a note from its bytes.
    public init(path: String, bytes: some Collection<UInt8>) {
        // Generic collection code is not specialised across modules: `contains(0)` and the
        // UTF-8 check on a `Data` took a sixth of a cold index. Contiguous bytes take the fast path.
        if let note = bytes.withContiguousStorageIfAvailable({ Note(path: path, buffer: $0) }) {
            self = note
        } else {
            self = Array(bytes).withUnsafeBufferPointer { Note(path: path, buffer: $0) }
        }
    }

    private init(path: String, buffer bytes: UnsafeBufferPointer<UInt8>) {
        self.path = path
        var warnings: [NoteWarning] = []
        let fallbackTitle = VaultPath.stem(path)
        if bytes.count > Note.sizeLimit || (bytes.count > 0 && memchr(bytes.baseAddress!, 0, bytes.count) != nil) {
            warnings.append(bytes.count > Note.sizeLimit ? .tooLarge(bytes: bytes.count) : .binary)
            self.title = fallbackTitle
            self.warnings = warnings
            return
        }
        let text: String
        if let valid = String(validating: bytes, as: UTF8.self) {
            text = valid
        } else {
            warnings.append(.notUTF8)
            text = String(decoding: bytes, as: UTF8.self)
        }
        let document = NoteDocument(text: text)
        var frontMatter = FrontMatter()
        var body = document.body
        var propertyLinks: [Link] = []
        if let block = document.frontMatter {
            do {
                frontMatter = try FrontMatter(parsing: block)
                propertyLinks = PropertyLinks.links(in: block, frontMatter: frontMatter)
            }
            catch {
                warnings.append(.invalidFrontMatter(error))
                body = block.rendered + document.body  // unreadable YAML is indexed as text
            }
        }
        let scan = MarkdownScan(body: body)
        if scan.blocksByLines { warnings.append(.blocksByLines) }

        let fmTags = frontMatter.stringList("tags").map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
        var seen = Set<String>()
        var tags: [String] = []
        for tag in fmTags + scan.tags where seen.insert(tag.lowercased()).inserted { tags.append(tag) }

        let fmTitle = frontMatter["title"]?.text.map { String($0.trimmingBlanks) }
        self.path = path
        self.id = frontMatter["id"]?.text
        self.title = [fmTitle, scan.firstHeading].compactMap { $0 }.first { !$0.isEmpty } ?? fallbackTitle
        self.tags = tags
        self.frontMatterTags = fmTags
        self.aliases = frontMatter.stringList("aliases")
        self.created = (frontMatter["created"]?.text ?? frontMatter["date"]?.text).flatMap(NoteDate.parse)
        self.modified = (frontMatter["modified"]?.text ?? frontMatter["updated"]?.text).flatMap(NoteDate.parse)
        self.links = propertyLinks + scan.links
        self.snippet = scan.snippet
        self.headings = scan.headings
        self.blockIDs = scan.blockIDs
        self.headingLines = scan.headingLines
        self.blockIDLines = scan.blockIDLines
        self.tagSpans = scan.tagSpans
        self.frontMatter = frontMatter
        self.body = body
        self.frontMatterStart = document.hasBOM ? 3 : 0
        self.bodyStart = text.utf8.count - body.utf8.count  // the body is the text's tail
        self.warnings = warnings
    }

    /// Whether Sheaf may rewrite this note's file (front-matter edits, link rewrites, appends).
    public var isEditable: Bool { warnings.isEmpty }

    /// Whether text may be added after the note's end: a front-matter that does not parse is left
    /// byte for byte as it is by an append, so only what makes the text unsafe to read refuses it.
    public var isAppendable: Bool {
        warnings.allSatisfy { if case .invalidFrontMatter = $0 { true } else { false } }
    }

    /// Reads a note from what `NoteBytes.read` got: the whole file, or only the head of one
    /// over `sizeLimit`, which gives the title (front-matter `title` or first heading) and nothing else.
    public init(path: String, read: NoteBytes) {
        switch read {
        case .whole(let bytes):
            self.init(path: path, bytes: bytes)
        case .head(let head, let size):
            self.init(path: path, bytes: [UInt8]())
            self.title = Note(path: path, bytes: head).title
            self.warnings = [.tooLarge(bytes: size)]
        }
    }
}

/// A note file's bytes as Sheaf reads them: in bounded memory. A file within `Note.sizeLimit` is
/// read whole; of a larger one (a 2 GB file named `.md` must not cost 2 GB) only the first
/// `headLimit` bytes, cut at the last line break, are read: enough for a title.
public enum NoteBytes: Sendable {
    case whole([UInt8])
    /// The first bytes of a file over `Note.sizeLimit`, and the file's size.
    case head([UInt8], size: Int)

    public static let headLimit = 65_536

    /// The bytes read (the whole file, or its head).
    public var bytes: [UInt8] {
        switch self {
        case .whole(let bytes), .head(let bytes, _): return bytes
        }
    }
}
