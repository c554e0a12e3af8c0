// `.sheaf/thumbnails/`: a cache of thumbnails named by the git blob id of the attachment and the
// thumbnail size, so a renamed or copied attachment keeps its thumbnail and an edited one gets a
// new one. Nothing here is needed to read a vault; `sheaf gc` removes what no attachment uses.
// Only the names live here; looking at and deleting the files is SheafFiles' (ThumbnailStore+Files).

public struct ThumbnailStore: Sendable {
    public let folder: String

    public init(vault: Vault) { folder = vault.stateDirectory + "/thumbnails" }

    /// The store in `folder` (what a thumbnail helper is told).
    public init(folder: String) { self.folder = folder }

    /// The file a thumbnail of content `hash` at `size` px lives in (absolute).
    public func path(hash: String, size: Int) -> String { folder + "/" + Self.fileName(hash: hash, size: size) }

    public static func fileName(hash: String, size: Int) -> String { "\(hash)-\(size).jpg" }
}
