// What the index answers, in Kit's own types: a note as `ls` lists it, a search hit, an
// attachment's record. Made from SheafIndex's rows, so a change in the catalog's columns cannot
// change what Kit's callers see.
import Foundation
import SheafCore
import SheafIndex

/// A note as `ls` lists it: path, title, tags, dates and a snippet (from the index's catalog).
public struct NoteSummary: Sendable, Equatable {
    public let path: String
    public let title: String
    public let id: String?
    public let aliases: [String]
    public let tags: [String]
    /// Front-matter `created`/`date`, else the file's mtime.
    public let created: Date
    /// Front-matter `modified`/`updated`, else the file's mtime.
    public let modified: Date
    /// The first ~150 characters of text.
    public let snippet: String

    init(_ row: SheafIndex.NoteSummary) {
        path = row.path; title = row.title; id = row.id; aliases = row.aliases; tags = row.tags
        created = row.created; modified = row.modified; snippet = row.snippet
    }
}

/// One search result, its snippet cut in runs of matched and unmatched text.
public struct SearchHit: Sendable {
    public let path: String
    public let title: String
    public let modified: Date
    /// bm25() with Sheaf's column weights: lower is better; 0 for filter-only queries.
    public let score: Double
    public let snippet: [(text: String, match: Bool)]

    init(_ hit: SheafIndex.SearchHit) {
        path = hit.path; title = hit.title; modified = hit.modified; score = hit.score; snippet = hit.snippet
    }
}

/// An attachment as the index records it: path, type, size, dimensions, hash, thumbnail state.
public struct AttachmentRecord: Sendable, Equatable {
    /// Whether it has a thumbnail.
    public enum ThumbnailState: String, Sendable {
        /// A format Sheaf thumbnails, not looked at since it was added or changed.
        case pending
        /// The thumbnail is made.
        case ready
        /// It could not be made (damaged, not what its name says, refused); `error` says why.
        case failed
        /// Not an image format Sheaf thumbnails.
        case none
    }
    public let path: String
    /// The MIME type, from the name (or the contents when an image is not what its name says).
    public let type: String
    public let size: Int
    /// The file's git blob id.
    public let hash: String?
    /// As displayed (EXIF orientation applied); nil until a thumbnailing command read the file.
    public let width: Int?
    public let height: Int?
    public let state: ThumbnailState
    /// Why no thumbnail could be made.
    public let error: String?

    init(_ row: SheafIndex.AttachmentRecord) {
        path = row.path; type = row.type; size = row.size; hash = row.hash; width = row.width; height = row.height
        error = row.error
        switch row.state {
        case .pending: state = .pending
        case .ready: state = .ready
        case .failed: state = .failed
        case .none: state = .none
        }
    }
}

/// What an update of the index did: files scanned, added, changed, removed, renamed, warnings.
public struct ScanReport: Sendable {
    public let scanned: Int
    public let added: Int
    public let changed: Int
    public let removed: Int
    public let renamed: Int
    /// Notes read only in part, names that are not UTF-8, folders that cannot be listed.
    public let warnings: [VaultWarning]
    public let seconds: Double
    /// Why the index was built from nothing (no index yet, unreadable, a new format, asked for).
    public let rebuilt: String?
    /// The paths whose rows were added, changed, removed or renamed.
    public let changes: VaultChangeSet

    init(_ report: SheafIndex.ScanReport) {
        scanned = report.scanned; added = report.added; changed = report.changed; removed = report.removed
        renamed = report.renamed; seconds = report.seconds; rebuilt = report.rebuilt?.rawValue
        warnings = report.warnings.map { VaultWarning(path: $0.path, message: $0.message) }
        changes = report.changes
    }
}
