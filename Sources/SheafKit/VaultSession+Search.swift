// Search and backlinks, answered by the index after the freshness scan.
import Foundation
import SheafCore
import SheafIndex

extension VaultSession {
    /// Runs a query typed by the user. A malformed query is a SheafError with the parser's words.
    public func search(_ text: String, limit: Int, snippets: Bool,
                       onBusy: (() -> Void)? = nil) throws(SheafError) -> (hits: [SearchHit], scan: ScanReport?) {
        let query: SearchQuery
        do { query = try SearchQuery.parse(text) }
        catch { throw SheafError("cannot read the query", path: text, cause: error.description,
                                 hint: "see `sheaf search --help` for the syntax") }
        let (index, scan) = try freshIndex(onBusy: onBusy)
        return (try index.search(query, vault: vault, options: SearchOptions(limit: limit, snippets: snippets)), scan)
    }

    /// The notes that link to `note`, with the links resolved as Obsidian resolves them.
    public func backlinks(of note: CatalogNote) throws(SheafError) -> [String] {
        let (index, _) = try freshIndex()
        let candidates = try index.notesLinking(toKeys: [VaultPath.stem(note.path).lowercased()])
        let catalog = try catalog()
        let targets = catalog.linkTargets
        return candidates.filter { path in
            guard let other = catalog.note(at: path) else { return false }
            return other.note.links.contains { targets.resolve($0, from: path) == note.path }
        }.sorted()
    }
}
