// A file as the walk found it, as a value: its vault path and the identity (size, mtime in ns,
// inode) the index compares. The walk that makes these is SheafFiles' `VaultWalker`; the value
// itself is pure, so the index's catalog and Kit's `Catalog` speak of it without file access.

/// One file found by the walk, with the identity the index compares.
public struct VaultFile: Sendable, Equatable {
    public let path: String
    public let size: Int
    public let mtimeNanoseconds: Int64
    public let inode: UInt64
    public var isNote: Bool { VaultPath.isNote(path) }

    public init(path: String, size: Int, mtimeNanoseconds: Int64, inode: UInt64) {
        self.path = path
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
    }
}
