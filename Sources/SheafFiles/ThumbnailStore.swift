// `.sheaf/thumbnails/`: a cache of thumbnails named by the git blob id of the attachment and the
// thumbnail size, so a renamed or copied attachment keeps its thumbnail and an edited one gets a
// new one. Nothing here is needed to read a vault; `sheaf gc` removes what no attachment uses.
import Foundation
import SheafCore

public struct ThumbnailStore: Sendable {
    public let folder: String

    public init(vault: Vault) { folder = vault.stateDirectory + "/thumbnails" }

    /// The store in `folder` (what a thumbnail helper is told).
    public init(folder: String) { self.folder = folder }

    /// The file a thumbnail of content `hash` at `size` px lives in (absolute).
    public func path(hash: String, size: Int) -> String { folder + "/" + Self.fileName(hash: hash, size: size) }

    public static func fileName(hash: String, size: Int) -> String { "\(hash)-\(size).jpg" }

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
