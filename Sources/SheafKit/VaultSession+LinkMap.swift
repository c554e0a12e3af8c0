// A fresh `VaultLinkMap` from the index: brought up to date as every read command's is (or
// vouched for by a running watcher, the language server's own included), then read whole.
import SheafCore
import SheafIndex

extension VaultSession {
    /// The vault's notes, files and links as the index holds them now.
    public func linkMap() throws(SheafError) -> VaultLinkMap {
        invalidate()  // a session that lives long (a server) asks again each time
        let (index, _) = try freshIndex()
        return VaultLinkMap(vault: vault, notes: try index.summaries().map(NoteSummary.init), paths: try index.allPaths(),
                            links: try index.allLinks().map { ($0.notePath, $0.target) })
    }
}
