// Making thumbnails: for the attachments the index marks as needing one (new, changed, or whose
// thumbnail file is gone), one image per core at a time, so memory stays bounded whatever the
// number of images. Each thumbnail is named by the attachment's content hash, so a renamed or
// copied file reuses the one it has. Results go back to the index only for files that have not
// changed since they were read.
import Foundation
import SheafCore
import SheafIndex
import SheafMedia

/// What a thumbnailing run did.
public struct ThumbnailReport: Sendable {
    public var made = 0
    /// Attachments whose content already had a thumbnail (a rename, a copy, a re-index).
    public var reused = 0
    /// Attachments that got no thumbnail, with the reason.
    public var failed: [VaultWarning] = []
}

extension VaultSession {
    /// The thumbnail settings of this vault (256 px on the long edge, JPEG).
    public var thumbnailer: Thumbnailer { Thumbnailer() }

    public var thumbnailStore: ThumbnailStore { ThumbnailStore(vault: vault) }

    /// Makes the missing thumbnails: of every attachment that needs one, or, with `paths`
    /// (vault-relative), only of those (the paths a pull changed, say; others are ignored).
    /// The index is brought up to date first, so files written since the last scan count.
    public func makeThumbnails(forPaths paths: [String]? = nil,
                               progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ThumbnailReport {
        let (index, _) = try freshIndex()
        let store = thumbnailStore
        let exists: (String) -> Bool = { FileManager.default.fileExists(atPath: store.folder + "/" + $0) }
        var todo = try index.attachmentsNeedingThumbnails(thumbnailExists: exists)
        if let paths {
            let wanted = Set(paths)
            todo = todo.filter { wanted.contains($0.path) }
        }
        var report = ThumbnailReport()
        guard !todo.isEmpty else { return report }
        try store.createFolder()
        let results = ConcurrentSlots<(ThumbnailOutcome, Bool)>(count: todo.count)
        let vault = self.vault, thumbnailer = self.thumbnailer
        let work = todo
        // concurrentPerform runs at most one iteration per core: one decoded image per core.
        DispatchQueue.concurrentPerform(iterations: work.count) { i in
            results.set(i, Self.thumbnail(work[i], vault: vault, store: store, thumbnailer: thumbnailer))
            progress?(results.increment(), work.count)
        }
        let outcomes = results.values
        try index.record(outcomes.map(\.0))
        for (outcome, reused) in outcomes {
            if let error = outcome.error { report.failed.append(VaultWarning(path: outcome.path, message: error)) }
            else if reused { report.reused += 1 }
            else { report.made += 1 }
        }
        return report
    }

    /// One attachment: its hash, then its thumbnail unless that content already has one.
    /// Returns the outcome and whether an existing thumbnail was reused.
    static func thumbnail(_ record: AttachmentRecord, vault: Vault, store: ThumbnailStore,
                          thumbnailer: Thumbnailer) -> (ThumbnailOutcome, Bool) {
        let file = vault.absolute(record.path)
        var hash: String?
        do {
            let digest = try ContentDigest.ofFile(file)
            hash = digest
            let output = store.path(hash: digest, size: thumbnailer.longEdge)
            let reused = FileManager.default.fileExists(atPath: output)
            let info = reused ? try thumbnailer.probe(file) : try thumbnailer.thumbnail(of: file, to: output)
            let type = info.format.matches(mediaType: record.type) ? nil : info.format.mediaType
            return (ThumbnailOutcome(record: record, hash: digest, type: type, width: info.width, height: info.height,
                                     thumbnail: VaultPath.fileName(output), error: nil), reused)
        } catch {
            let message = [error.what, error.cause].compactMap { $0 }.joined(separator: ": ")
            return (ThumbnailOutcome(record: record, hash: hash, type: nil, width: nil, height: nil,
                                     thumbnail: nil, error: message), false)
        }
    }
}
