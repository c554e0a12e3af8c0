// The thumbnail cache on disk: whether a thumbnail is there, making the folder, and `sheaf gc`'s
// deletion. What the files are named is SheafCore's `ThumbnailStore`.
import Foundation
import SheafCore

extension ThumbnailStore {
    public func exists(hash: String, size: Int) -> Bool { FileManager.default.fileExists(atPath: path(hash: hash, size: size)) }

    public func createFolder() throws(SheafError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        catch { throw SheafError("cannot create the thumbnail folder", path: folder, cause: error.localizedDescription) }
    }

    /// Deletes every file of the folder not in `keep` (file names); returns the count and bytes freed.
    public func removeAll(except keep: Set<String>) -> (files: Int, bytes: Int) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return (0, 0) }
        var removed = (files: 0, bytes: 0)
        for name in names where !keep.contains(name) {
            let full = folder + "/" + name
            let size = ((try? fm.attributesOfItem(atPath: full))?[.size] as? Int) ?? 0
            if (try? fm.removeItem(atPath: full)) != nil { removed.files += 1; removed.bytes += size }
        }
        return removed
    }
}
