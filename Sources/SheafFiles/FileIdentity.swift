// What tells Sheaf that a file is still the one it read: the device and inode (an editor that
// saves by renaming a new file over the old one changes them) plus the size and the nanosecond
// modification time (an editor that writes in place changes those). When they differ, the
// bytes decide (`FileState`): a `touch` is not an edit.
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

public struct FileIdentity: Sendable, Equatable, Hashable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let mtimeNanoseconds: Int64
    /// The file type bits (`S_IFREG`, `S_IFLNK`, `S_IFDIR`, ...).
    public let type: UInt32
    /// The permission bits.
    public let mode: UInt32

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        mtimeNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        type = UInt32(info.st_mode & S_IFMT)
        mode = UInt32(info.st_mode & 0o7777)
    }

    /// The identity of what is at `path` itself (a symlink is not followed); nil when nothing is.
    public static func of(path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(info)
    }

    static func of(descriptor fd: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileIdentity(info)
    }

    public var isRegularFile: Bool { type == UInt32(S_IFREG) }

    /// Whether two names are one file (one device and inode): a name in another case on a
    /// case-insensitive file system. Never judged by the names: `café.md` in NFC and in NFD,
    /// `Note.md` and `note.md` are two files on Linux.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = of(path: a), let y = of(path: b) else { return false }
        return x.device == y.device && x.inode == y.inode
    }

    /// Same file, same size, same modification time: the contents are taken as unchanged.
    public func matches(_ other: FileIdentity?) -> Bool {
        guard let other else { return false }
        return device == other.device && inode == other.inode && size == other.size
            && mtimeNanoseconds == other.mtimeNanoseconds && type == other.type
    }
}

/// A file as Sheaf read it: its bytes and identity, both nil when there was no file.
public struct FileState: Sendable, Equatable {
    public var bytes: [UInt8]?
    public var identity: FileIdentity?

    public init(bytes: [UInt8]?, identity: FileIdentity?) {
        self.bytes = bytes
        self.identity = identity
    }

    public static let absent = FileState(bytes: nil, identity: nil)
    public var exists: Bool { identity != nil }
}
