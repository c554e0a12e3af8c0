// Writing a commit's files into a folder that holds none of the user's files yet: `sheaf clone`'s
// checkout, a share joined into an empty folder. `VaultFileWriter` protects a file the user may be
// saving (identity check, exchange, one fsync per file before it is swapped in); here there is no
// such file, so a file is created where nothing is (`O_EXCL`: a file that appeared meanwhile is
// never overwritten, the caller takes the careful way for it), each folder is made or checked once
// for the whole batch, and the disk is waited for once at the end (`syncfs`), before the update
// that wrote them is recorded as done. A crash before that leaves the update's journal, and its
// replay knows that files it finds may be torn copies of its own (`isTornCopy`).
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

public final class FreshFolderWriter {
    public let root: String
    /// Folders below the root this batch made or found to be real folders.
    private var folders: Set<PathKey> = []
    /// Whether anything was written since the last `sync()`.
    private var unsynced = false

    public init(root: String) { self.root = root }

    /// Whether the folder holds nothing but `.git` and `.sheaf` (a vault just made, or none yet).
    public static func holdsNoFiles(_ root: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return false }
        return names.allSatisfy { $0 == ".git" || $0 == ".sheaf" }
    }

    /// Writes `bytes` as a new file at `path`. False when the path is refused or something is in
    /// the way (a file there, or a file or symlink where a folder must be): the caller then
    /// takes `VaultFileWriter`'s way, which says why or keeps what is there.
    public func create(_ path: String, _ bytes: [UInt8], mode: mode_t) throws(SheafError) -> Bool {
        guard case .success(let safe) = VaultPathGuard.check(path, in: root, knownFolders: folders) else { return false }
        var folder = ""
        for part in safe.path.pathParts().dropLast() {
            folder = VaultPath.join(folder, String(part))
            let key = PathKey(folder)
            if folders.contains(key) { continue }
            if mkdir(root + "/" + folder, 0o755) != 0 {
                var info = stat()
                guard errno == EEXIST, lstat(root + "/" + folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
            }
            folders.insert(key)
        }
        let full = root + "/" + safe.path
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else {
            if errno == EEXIST || errno == ELOOP { return false }
            throw SheafError("cannot write", path: safe.path, cause: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        unsynced = true
        do throws(SheafError) {
            try AtomicFile.writeAll(bytes, to: fd)
        } catch {
            unlink(full)
            throw SheafError("cannot write", path: safe.path, cause: error.cause ?? error.what)
        }
        fchmod(fd, mode)  // open() applied the umask; a checkout gives the commit's mode
        return true
    }

    /// Waits until everything written is on disk: one `syncfs` for the file system holding the
    /// root (the files and the folders made), where one `fsync` per file waited for each.
    public func sync() throws(SheafError) {
        guard unsynced else { return }
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SheafError("cannot sync", path: root, cause: String(cString: strerror(errno))) }
        defer { close(fd) }
        if let syncfs = Self.syncfsFunction {
            guard syncfs(fd) == 0 else { throw SheafError("cannot sync", path: root, cause: String(cString: strerror(errno))) }
        } else {
            Glibc.sync()
        }
        unsynced = false
    }

    /// Whether `bytes`, found on disk where this batch wrote `wanted` before a crash, are what a
    /// crash leaves of that write rather than a save: a shorter or equal length, every byte
    /// either `wanted`'s or a zero (blocks the file system allocated and never wrote).
    public static func isTornCopy(_ bytes: [UInt8], of wanted: [UInt8]) -> Bool {
        guard bytes.count <= wanted.count else { return false }
        return zip(bytes, wanted).allSatisfy { $0 == $1 || $0 == 0 }
    }

    // syncfs(2) is in glibc but not in Swift's Glibc module: look it up once.
    private typealias SyncFS = @convention(c) (Int32) -> Int32
    private static let syncfsFunction: SyncFS? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: SyncFS.self)
    }()
}
