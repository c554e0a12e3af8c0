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
        try makeThumbnails(in: try freshIndex().0, forPaths: paths, progress: progress)
    }

    /// The same with an index the caller has just scanned, for a command that holds
    /// `.sheaf/lock` itself (a pull): `freshIndex()` would find the lock taken and skip its scan,
    /// so files the pull wrote would not be recorded yet.
    public func makeThumbnails(in index: NoteIndex, forPaths paths: [String]? = nil,
                               progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ThumbnailReport {
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
        let vault = self.vault, thumbnailer = self.thumbnailer
        // First every file's hash and header (cheap), so the thumbnails can go largest first:
        // a large image left for the end would finish the run on one core.
        let looked = ConcurrentSlots<Look>(count: todo.count)
        let records = todo
        DispatchQueue.concurrentPerform(iterations: records.count) { i in
            looked.set(i, Self.look(at: records[i], vault: vault, store: store, thumbnailer: thumbnailer))
        }
        let looks = looked.values
        let work = looks.filter { $0.info != nil && $0.thumbnail == nil }
            .sorted { $0.info!.width * $0.info!.height > $1.info!.width * $1.info!.height }
        let made = ConcurrentSlots<Look>(count: work.count)
        // Large images are decoded alone (the Thumbnailer makes sure of it, see largeImagePixels):
        // do them first, one after the other, so none waits for a small one to let go of a core.
        let alone = work.prefix { $0.info!.width * $0.info!.height > Thumbnailer.largeImagePixels }.count
        for i in 0..<alone {
            made.set(i, Self.thumbnail(work[i], vault: vault, store: store, thumbnailer: thumbnailer))
            progress?(made.increment(), work.count)
        }
        // concurrentPerform runs at most one iteration per core: one decoded image per core.
        DispatchQueue.concurrentPerform(iterations: work.count - alone) { j in
            let i = alone + j
            made.set(i, Self.thumbnail(work[i], vault: vault, store: store, thumbnailer: thumbnailer))
            progress?(made.increment(), work.count)
        }
        let done = looks.filter { $0.info == nil || $0.thumbnail != nil } + made.values
        try index.record(done.map(\.outcome))
        report.failed = done.compactMap { look in look.error.map { VaultWarning(path: look.record.path, message: $0) } }
        report.made = made.values.filter { $0.error == nil }.count
        report.reused = done.count - report.made - report.failed.count
        return report
    }

    /// What is known of one attachment: its hash, header and thumbnail, or why it has none.
    struct Look: Sendable {
        let record: AttachmentRecord
        var hash: String?
        var info: ImageInfo?
        /// The thumbnail's file name, once it exists.
        var thumbnail: String?
        var error: String?

        var outcome: ThumbnailOutcome {
            let type = info.flatMap { $0.format.matches(mediaType: record.type) ? nil : $0.format.mediaType }
            return ThumbnailOutcome(record: record, hash: hash, type: type, width: info?.width, height: info?.height,
                                    thumbnail: thumbnail, error: error)
        }
    }

    /// Hashes an attachment and reads its header; notes the thumbnail if its content has one.
    static func look(at record: AttachmentRecord, vault: Vault, store: ThumbnailStore, thumbnailer: Thumbnailer) -> Look {
        let file = vault.absolute(record.path)
        var look = Look(record: record)
        do {
            let hash = try GitBlobID.ofFile(file)
            look.hash = hash
            look.info = try thumbnailer.probe(file)
            if FileManager.default.fileExists(atPath: store.path(hash: hash, size: thumbnailer.longEdge)) {
                look.thumbnail = ThumbnailStore.fileName(hash: hash, size: thumbnailer.longEdge)
            }
        } catch {
            look.error = message(error)
        }
        return look
    }

    /// Makes the thumbnail of an attachment whose header was read.
    static func thumbnail(_ look: Look, vault: Vault, store: ThumbnailStore, thumbnailer: Thumbnailer) -> Look {
        var result = look
        guard let hash = look.hash else { return result }
        do {
            result.info = try thumbnailer.thumbnail(of: vault.absolute(look.record.path),
                                                    to: store.path(hash: hash, size: thumbnailer.longEdge))
            result.thumbnail = ThumbnailStore.fileName(hash: hash, size: thumbnailer.longEdge)
        } catch {
            result.info = nil
            result.error = message(error)
        }
        return result
    }

    static func message(_ error: SheafError) -> String {
        [error.what, error.cause].compactMap { $0 }.joined(separator: ": ")
    }
}
