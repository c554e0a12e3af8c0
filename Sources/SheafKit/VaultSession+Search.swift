// Search and backlinks, answered by the index after the freshness scan.
import Foundation
import SheafCore
import SheafIndex

extension VaultSession {
    /// Runs a query typed by the user. A malformed query is a SheafError with the parser's words.
    ///
    /// A query of several words that no note holds all of is asked again with any of the words
    /// (filters and exclusions kept), ranked by BM25, so notes holding most of them come first;
    /// `relaxed` then says so. "change font size" finds the note about font size changes
    /// instead of nothing.
    public func search(_ text: String, limit: Int, snippets: Bool) throws(SheafError) -> (hits: [SearchHit], scan: ScanReport?, relaxed: Bool) {
        let query: SearchQuery
        do { query = try SearchQuery.parse(text) }
        catch { throw SheafError("cannot read the query", path: text, cause: error.description,
                                 hint: "see `sheaf search --help` for the syntax") }
        let (index, scan) = try freshIndex(queryOnly: true)
        let options = SearchOptions(limit: limit, snippets: snippets)
        let hits = try index.search(query, vault: vault, options: options).map(SearchHit.init)
        let report = scan.map(ScanReport.init)
        guard hits.isEmpty, let relaxed = query.relaxed else { return (hits, report, false) }
        return (try index.search(relaxed, vault: vault, options: options).map(SearchHit.init), report, true)
    }

    /// The notes that link to `note`, with the links resolved as Obsidian resolves them.
    /// Every file of the vault as link targets, from the index.
    public func linkTargets() throws(SheafError) -> LinkTargets {
        LinkTargets(paths: try freshIndex().0.allPaths())
    }

    /// Read from the catalog's links table: only links whose file-name key matches can point here.
    public func backlinks(of note: CatalogNote) throws(SheafError) -> [String] {
        try backlinks(ofPath: note.path)
    }

    /// The notes with a link that reaches the file at `path` (a note or an attachment).
    public func backlinks(ofPath path: String) throws(SheafError) -> [String] {
        let (index, _) = try freshIndex()
        let links = try index.links(concerning: [path])
        // A table of just the files these links' lookups read (LinkTargets+Partial.swift).
        let keys = Set(links.flatMap { LinkTargets.lookupKeys($0.target, from: $0.notePath) })
        let targets = LinkTargets(paths: try index.allPaths(), answering: keys)
        var linking = Set<PathKey>()  // by bytes: twins that link here are two notes
        for link in links where targets.reaches(link.target, from: link.notePath, file: path) {
            linking.insert(PathKey(link.notePath))
        }
        return linking.map(\.path).sorted(by: PathBytes.precedes)
    }

    /// The file `name` names for `backlinks`: a note, named as every command names one, else an
    /// attachment by its path (from the vault root or the working folder) or its file name.
    public func linkedFile(_ name: String) throws(SheafError) -> String {
        do { return try resolve(name).path } catch where error.kind == .noNoteMatches {
            let attachments = try freshIndex().0.allPaths().filter { !VaultPath.isNote($0) }
            let exact = [workingFolder.flatMap { VaultPath.normalize(VaultPath.join($0, name)) }, VaultPath.normalize(name)]
                .compactMap { $0 }
            if let hit = attachments.first(where: { exact.contains($0) }) { return hit }
            let named = attachments.filter { VaultPath.fileName($0).lowercased() == name.lowercased() }
            if named.count == 1 { return named[0] }
            if named.count > 1 {
                throw SheafError("more than one file matches", path: name,
                                 cause: "candidates: " + named.sorted().joined(separator: ", "), hint: "name the file by its path")
            }
            throw error
        }
    }
}
