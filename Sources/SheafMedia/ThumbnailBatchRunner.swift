// The thumbnail helper's work on one batch (`ThumbnailBatch`, in the `sheaf-thumbnailer`
// process): first every file's hash and header (cheap, all cores), so the thumbnails can go
// largest first (a large image left for the end would finish the run on one core); then one image
// per core at a time, so memory stays bounded whatever the number of images. Images whose decoding
// cost the header does not bound go on to a memory-capped child each (ThumbnailHelper.swift).
// Each thumbnail is named by the content hash, so a renamed or copied file reuses the one it has.
import Foundation
import SheafCore
import SheafFiles

public enum ThumbnailBatchRunner {
    /// Runs `batch`, telling `emit` (from any thread, one call at a time) what it does.
    public static func run(_ batch: ThumbnailBatch, emit: @escaping @Sendable (ThumbnailBatchLine) -> Void) {
        let store = ThumbnailStore(folder: batch.folder)
        let thumbnailer = Thumbnailer(longEdge: batch.longEdge, quality: batch.quality)
        let files = batch.files
        let looked = ConcurrentSlots<Look>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            emit(ThumbnailBatchLine(begin: i))
            looked.set(i, look(at: files[i], index: i, store: store, thumbnailer: thumbnailer))
            emit(ThumbnailBatchLine(end: i))
        }
        let looks = looked.values
        for look in looks where look.info == nil || look.result.thumbnail != nil { emit(ThumbnailBatchLine(result: look.result)) }
        let work = looks.filter { $0.info != nil && $0.result.thumbnail == nil }
            .sorted { $0.info!.width * $0.info!.height > $1.info!.width * $1.info!.height }
        emit(ThumbnailBatchLine(work: work.count))
        guard !work.isEmpty else { return }
        do { try store.createFolder() } catch {
            for look in work {
                var result = look.result
                result.error = [error.what, error.cause].compactMap { $0 }.joined(separator: ": ")
                emit(ThumbnailBatchLine(result: result))
            }
            return
        }
        let make = { @Sendable (look: Look) in
            emit(ThumbnailBatchLine(begin: look.result.index))
            let result = thumbnail(look, files[look.result.index], store: store, thumbnailer: thumbnailer)
            emit(ThumbnailBatchLine(end: look.result.index))
            emit(ThumbnailBatchLine(result: result))
        }
        // Large images are decoded alone (the Thumbnailer makes sure of it, see largeImagePixels):
        // do them first, one after the other, so none waits for a small one to let go of a core.
        let alone = work.prefix { $0.info!.width * $0.info!.height > Thumbnailer.largeImagePixels }.count
        for i in 0..<alone { make(work[i]) }
        // concurrentPerform runs at most one iteration per core: one decoded image per core.
        DispatchQueue.concurrentPerform(iterations: work.count - alone) { j in make(work[alone + j]) }
    }

    /// What is known of one image: its hash, header and thumbnail, or why it has none.
    struct Look: Sendable {
        var result: ThumbnailResult
        var info: ImageInfo?
    }

    /// Hashes an image and reads its header; notes the thumbnail if its content has one.
    static func look(at file: ThumbnailBatch.File, index: Int, store: ThumbnailStore, thumbnailer: Thumbnailer) -> Look {
        var look = Look(result: ThumbnailResult(index: index))
        do {
            let hash = try GitBlobID.ofFile(file.path)
            look.result.hash = hash
            let info = try thumbnailer.probe(file.path)
            look.info = info
            look.result.width = info.width
            look.result.height = info.height
            look.result.type = info.format.matches(mediaType: file.mediaType) ? nil : info.format.mediaType
            if store.exists(hash: hash, size: thumbnailer.longEdge) {
                look.result.thumbnail = ThumbnailStore.fileName(hash: hash, size: thumbnailer.longEdge)
            }
        } catch {
            look.info = nil
            look.result.error = message(error)
        }
        return look
    }

    /// Makes the thumbnail of an image whose header was read.
    static func thumbnail(_ look: Look, _ file: ThumbnailBatch.File, store: ThumbnailStore, thumbnailer: Thumbnailer) -> ThumbnailResult {
        var result = look.result
        guard let hash = result.hash else { return result }
        do {
            try thumbnailer.thumbnail(of: file.path, to: store.path(hash: hash, size: thumbnailer.longEdge))
            result.thumbnail = ThumbnailStore.fileName(hash: hash, size: thumbnailer.longEdge)
            result.made = true
        } catch {
            result.width = nil
            result.height = nil
            result.type = nil
            result.error = message(error)
        }
        return result
    }

    static func message(_ error: SheafError) -> String {
        [error.what, error.cause].compactMap { $0 }.joined(separator: ": ")
    }
}
