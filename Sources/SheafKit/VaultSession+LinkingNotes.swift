// The notes whose links a change to the vault's files concerns (`mv`, `rm`), found without
// parsing every note: the index keeps each note's links (target and kind, the rows `backlinks`
// reads), and what a link reaches depends only on its target and the linking note's path
// (LinkTargets). So the candidates come from the index's link rows, brought up to date first
// under the command's lock, and only they are read and parsed; the caller decides on their
// parsed links, the file as it is now. A change to what counts as a link comes with a migration
// that re-reads every note (LinkSchema), so the rows never follow older rules.
import Foundation
import SheafCore

extension VaultSession {
    /// The notes among `notes` with a link whose target `matches` (target as written, the linking
    /// note's path), parsed, where `matches` says yes only to links a change to the files at
    /// `paths` can concern (`LinkTargets.Change.mayConcern`): only those links' rows are read.
    /// Notes the index leaves out (Obsidian's excluded files, which still get their links kept)
    /// are all parsed, and so is every note when the index cannot be brought up to date.
    func notesWithLinks(among notes: [VaultFile], concerning paths: [String], where matches: (String, String) -> Bool) -> [CatalogNote] {
        guard let index = try? freshIndex(mustUpdate: true).0, let indexed = try? index.allPaths(),
              let links = try? index.links(concerning: paths) else {
            return Catalog.parse(notes, in: vault)
        }
        var wanted = Set<PathKey>()
        for link in links where matches(link.target, link.notePath) { wanted.insert(PathKey(link.notePath)) }
        let known = Set(indexed.map(PathKey.init))
        let candidates = notes.filter { wanted.contains(PathKey($0.path)) || !known.contains(PathKey($0.path)) }
        return Catalog.parse(candidates.sorted { PathBytes.precedes($0.path, $1.path) }, in: vault)
    }
}
