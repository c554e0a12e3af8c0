// A fresh `VaultLinkMap` from the index: brought up to date as every read command's is (or
// vouched for by a running watcher, the language server's own included), then read whole:
// notes, paths, link rows, and the attachments' sizes in pixels and thumbnails.
import SheafCore
import SheafIndex

extension VaultSession {
    /// The vault's notes, files and links as the index holds them now.
    public func linkMap() throws(SheafError) -> VaultLinkMap {
        invalidate()  // a session that lives long (a server) asks again each time
        let (index, _) = try freshIndex()
        let store = thumbnailStore
        var images: [PathKey: VaultLinkMap.Image] = [:]
        for record in try index.attachments() where record.width != nil || record.thumbnail != nil {
            images[PathKey(record.path)] = VaultLinkMap.Image(width: record.width, height: record.height,
                                                              thumbnail: record.thumbnail.map { store.folder + "/" + $0 })
        }
        return VaultLinkMap(vault: vault, notes: try index.summaries().map(NoteSummary.init), paths: try index.allPaths(),
                            links: try index.allLinks().map { ($0.notePath, $0.target) }, images: images)
    }
}
