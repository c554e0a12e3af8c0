// Making thumbnails: for the attachments the index marks as needing one (new, changed, or whose
// thumbnail file is gone), in one run of the thumbnail helper (`sheaf-thumbnailer`, see
// ThumbnailerProcess.swift), which hashes, probes and thumbnails them one image per core. Each
// thumbnail is named by the attachment's content hash, so a renamed or copied file reuses the one
// it has. Results go back to the index only for files that have not changed since they were read.
import Foundation
import SheafCore
import SheafFiles
import SheafIndex

/// What a thumbnailing run did.
public struct ThumbnailReport: Sendable {
    public var made = 0
    /// Attachments whose content already had a thumbnail (a rename, a copy, a re-index).
    public var reused = 0
    /// Attachments that got no thumbnail, with the reason.
    public var failed: [VaultWarning] = []
    /// Attachments left without a thumbnail because the helper is missing (they are not marked
    /// failed, so the next run makes them), and the error that says so.
    public var skipped: [String] = []
    public var helperMissing: SheafError?
}

extension VaultSession {
    /// The thumbnail cache of this vault (`.sheaf/thumbnails/`).
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
    func makeThumbnails(in index: NoteIndex, forPaths paths: [String]? = nil,
                               progress: (@Sendable (Int, Int) -> Void)? = nil) throws(SheafError) -> ThumbnailReport {
        let store = thumbnailStore
        let exists: (String) -> Bool = { FileManager.default.fileExists(atPath: store.folder + "/" + $0) }
        var todo = try index.attachmentsNeedingThumbnails(thumbnailExists: exists)
        if let paths {
            let wanted = Set(paths.map(PathKey.init))  // by bytes: not the twin of a named file
            todo = todo.filter { wanted.contains(PathKey($0.path)) }
        }
        var report = ThumbnailReport()
        guard !todo.isEmpty else { return report }
        // A cache that cannot be written fails the whole run, once, not each image in the helper.
        try store.createFolder()
        let helper: String
        do { helper = try ThumbnailerProcess.locate() } catch {
            report.skipped = todo.map(\.path)
            report.helperMissing = error
            return report
        }
        let batch = ThumbnailBatch(folder: store.folder, files: todo.map {
            ThumbnailBatch.File(path: vault.absolute($0.path), mediaType: $0.type)
        })
        let results = try ThumbnailerProcess.run(batch, executable: helper, progress: progress)
        try index.record(zip(todo, results).map { record, r in
            ThumbnailOutcome(record: record, hash: r.hash, type: r.type, width: r.width, height: r.height,
                             thumbnail: r.thumbnail, error: r.error)
        })
        report.failed = zip(todo, results).compactMap { record, r in r.error.map { VaultWarning(path: record.path, message: $0) } }
        report.made = results.filter(\.made).count
        report.reused = results.count - report.made - report.failed.count
        return report
    }
}
