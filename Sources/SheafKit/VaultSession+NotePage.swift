// What a web view needs to show one note, in Kit's own types: the note as read, each link of its
// body with the source bytes it spans and the file it resolves to (resolved exactly as the index
// resolves links, `LinkTargets`), and the notes linking to it with the lines that hold those
// links (`VaultSession+Backlinks.swift`). `sheaf serve` renders
// these; a client never sees the index to get them. A server's sessions share the index and
// the resolver over its paths (`SharedIndex`).
import Foundation
import SheafCore
import SheafFiles
import SheafIndex

/// A link of a note's body and what it reaches.
public struct ResolvedLink: Sendable, Equatable {
    public let link: Link
    /// The bytes of the body the whole link is written in (`[[...]]`, `![[...]]`, or for a
    /// markdown link the destination only, which is all a renderer needs to replace).
    public let span: Range<Int>
    /// The vault path the link reaches, nil when it reaches nothing.
    public let resolved: String?
}

/// A note linking to another, with the lines of its body that hold those links.
public struct Backlink: Sendable, Equatable {
    public let path: String
    public let title: String
    /// Each line (trimmed) holding a link that reaches the note; a property link gives its line
    /// of front-matter text.
    public let lines: [String]
}

/// One note as a page shows it.
public struct NotePage: Sendable {
    public let note: CatalogNote
    /// The links of the body, in the order they are written (links inside Obsidian comments and
    /// in front-matter are left out: a reader sees neither as a link).
    public let links: [ResolvedLink]
    /// The property links (`cover: "[[photo.jpg]]"`), resolved, by key.
    public let propertyLinks: [(key: String, resolved: String?, target: String)]
    public let backlinks: [Backlink]
}

extension VaultSession {
    /// Every indexed path (notes and attachments), as a set of what exists: what a web view
    /// checks a path from a URL against before it reads anything.
    public func indexedPaths() throws(SheafError) -> IndexedPaths {
        try indexedPaths(of: freshIndex(queryOnly: true).0)
    }

    /// The page of the note at exactly `path` (a vault path the index holds): nil when the index
    /// holds no note there, so a URL can name nothing but an indexed note.
    ///
    /// Building the resolver over 10k paths costs more than the rest of a page: a session
    /// sharing a server's index (`SharedIndex`) reuses the one made since the index last changed.
    public func notePage(at path: String) throws(SheafError) -> NotePage? {
        let (index, _) = try freshIndex(queryOnly: true)
        let paths = try indexedPaths(of: index)
        guard let found = try note(at: path, among: paths) else { return nil }
        let targets = paths.targets
        let body = Array(found.note.body.utf8)
        var links: [ResolvedLink] = []
        var properties: [(key: String, resolved: String?, target: String)] = []
        let propertyKey = found.note.propertyKeys()
        for link in found.note.links {
            if link.inFrontMatter {
                let key = propertyKey(link.target)
                properties.append((key, targets.resolve(link, from: path), link.target))
                continue
            }
            guard !link.inComment, let span = Self.sourceSpan(of: link, in: body) else { continue }
            links.append(ResolvedLink(link: link, span: span, resolved: targets.resolve(link, from: path)))
        }
        return NotePage(note: found, links: links, propertyLinks: properties,
                        backlinks: try backlinks(to: path, index: index, targets: targets))
    }

    /// The note at exactly `path`, read now: nil unless the index holds a note at that path and
    /// the path guard accepts it (what a web view's URL may name, to read or to write).
    public func note(at path: String) throws(SheafError) -> CatalogNote? {
        try note(at: path, among: try indexedPaths())
    }

    /// `note(at:)` with the index's paths in hand. Read straight from the file (no name lookup
    /// over every note: the path is exact).
    func note(at path: String, among paths: IndexedPaths) throws(SheafError) -> CatalogNote? {
        guard VaultPath.isNote(path), paths.contains(path), let (read, file) = readNoteFile(at: path) else { return nil }
        return CatalogNote(note: Note(path: path, read: read), file: file)
    }

    /// The bytes of the note file at `path` (a path the index holds) and what `stat` says of it:
    /// nil unless the path guard accepts it and it is a regular file.
    func readNoteFile(at path: String) -> (NoteBytes, VaultFile)? {
        guard case .success = VaultPathGuard.check(path, in: vault.root) else { return nil }
        var info = stat()
        let absolute = vault.absolute(path)
        guard stat(absolute, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let read = NoteBytes.read(absolute) else { return nil }
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return (read, VaultFile(path: path, size: Int(info.st_size), mtimeNanoseconds: mtime, inode: UInt64(info.st_ino)))
    }

    /// The attachment's thumbnail file (absolute) when the index records one made and it is
    /// there; nil otherwise (not an attachment the index knows, not made yet, or failed).
    public func thumbnailFile(ofAttachment path: String) throws(SheafError) -> String? {
        let (index, _) = try freshIndex(queryOnly: true)
        guard let record = try index.attachments(at: [path]).first, record.path == path,
              let name = record.thumbnail else { return nil }
        let file = thumbnailStore.folder + "/" + name
        return FileManager.default.fileExists(atPath: file) ? file : nil
    }

    /// The bytes a link is written in: a wiki-link from its `[[` (or `![[`) to its `]]`; a
    /// markdown link's destination. nil when the bytes are not what the scanner reported.
    static func sourceSpan(of link: Link, in body: [UInt8]) -> Range<Int>? {
        let r = link.targetRange
        guard r.lowerBound >= 0, r.upperBound <= body.count else { return nil }
        switch link.kind {
        case .markdown, .markdownEmbed, .property: return r
        case .wiki, .wikiEmbed:
            guard r.lowerBound >= 2, body[r.lowerBound - 1] == 0x5B, body[r.lowerBound - 2] == 0x5B else { return nil }
            var start = r.lowerBound - 2
            if link.kind == .wikiEmbed {
                guard start >= 1, body[start - 1] == 0x21 else { return nil }
                start -= 1
            }
            var end = r.upperBound
            while end + 1 < body.count, !(body[end] == 0x5D && body[end + 1] == 0x5D) {
                if body[end] == 0x0A { return nil }
                end += 1
            }
            guard end + 1 < body.count else { return nil }
            return start..<(end + 2)
        }
    }
}
