// Listings: notes filtered and sorted for `sheaf ls`, and tag counts for `sheaf tags`, both read
// from the index's catalog after the freshness scan.
import Foundation
import SheafCore
import SheafIndex

public enum NoteSort: String, CaseIterable, Sendable {
    case modified, created, title, path
}

public struct TagCount: Sendable, Equatable {
    public let tag: String
    public let count: Int
}

extension VaultSession {
    /// Notes in `folder` (and below) carrying `tag` (or a `tag/child`), sorted, at most `limit`.
    /// The filters are `search`'s `in:` and `tag:`: folders and tags compare without case.
    public func list(folder: String?, tag: String?, sort: NoteSort, reverse: Bool = false, limit: Int?) throws(SheafError) -> [NoteSummary] {
        var filters: [SearchFilter] = []
        if let folder {
            guard let f = SearchFilter.folderPath(typed: folder) else {
                throw SheafError("folder is outside the vault", path: folder, hint: "name a folder inside the vault, relative to its root")
            }
            if !f.isEmpty { filters.append(.folder(f)) }
        }
        if let tag {
            let key = Self.tagKey(tag)
            if !key.isEmpty { filters.append(.tag(key)) }
        }
        var notes = try freshIndex(queryOnly: true).0.summaries(filters: filters)
        notes.sort { a, b in
            switch sort {
            case .modified: return a.modified != b.modified ? a.modified > b.modified : PathBytes.sortsBefore(a.path, b.path)
            case .created: return a.created != b.created ? a.created > b.created : PathBytes.sortsBefore(a.path, b.path)
            case .title:
                let (x, y) = (a.title.lowercased(), b.title.lowercased())
                return x == y ? PathBytes.sortsBefore(a.path, b.path) : x < y
            case .path: return PathBytes.sortsBefore(a.path, b.path)
            }
        }
        if reverse { notes.reverse() }
        if let limit { notes = Array(notes.prefix(max(0, limit))) }
        return notes.map(NoteSummary.init)
    }

    /// Every tag with the number of notes carrying it, most used first. Tags differing only in
    /// case count as one, shown in their most common spelling.
    public func tagCounts() throws(SheafError) -> [TagCount] {
        var counts: [String: Int] = [:]
        var spellings: [String: [String: Int]] = [:]
        for note in try freshIndex(queryOnly: true).0.summaries() {
            for tag in note.tags {
                let key = Self.tagKey(tag)
                counts[key, default: 0] += 1
                spellings[key, default: [:]][tag, default: 0] += 1
            }
        }
        return counts.map { key, count in
            let spelling = spellings[key]!.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
            return TagCount(tag: spelling, count: count)
        }.sorted { ($1.count, $0.tag.lowercased()) < ($0.count, $1.tag.lowercased()) }
    }
}
