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

    public var description: String {
        switch self {
        case .invalidFrontMatter(let e): return "\(e); read as plain text, never rewritten"
        case .notUTF8: return "not valid UTF-8; read as far as possible, never rewritten"
        case .binary: return "binary content in a .md file; indexed by name only"
        case .tooLarge(let n): return "larger than 10 MB (\(n / 1_000_000) MB); indexed by path and title only"
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
    public private(set) var links: [Link] = []
    public private(set) var snippet: String = ""
    public private(set) var frontMatter: FrontMatter = FrontMatter()
    /// The body as text (empty for binary or oversized notes).
    public private(set) var body: String = ""
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
        if let block = document.frontMatter {
            do { frontMatter = try FrontMatter(parsing: block) }
            catch {
                warnings.append(.invalidFrontMatter(error))
                body = block.rendered + document.body  // unreadable YAML is indexed as text
            }
        }
        let scan = MarkdownScan(body: body)

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
        self.links = scan.links
        self.snippet = scan.snippet
        self.frontMatter = frontMatter
        self.body = body
        self.warnings = warnings
    }

    /// Whether Sheaf may rewrite this note's file (front-matter edits, link rewrites, appends).
    public var isEditable: Bool { warnings.isEmpty }
}
