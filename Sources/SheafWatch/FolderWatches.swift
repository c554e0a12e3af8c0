// The table of watched folders (watch descriptor <-> vault-relative folder) and the walk that
// adds watches to a folder tree. A watch follows its folder's inode, so when a folder is renamed
// inside the vault only the table's paths change; a folder that leaves the vault must lose its
// watches, or its events would come back under a path it no longer has.
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

final class FolderWatches {
    private(set) var pathOf: [Int32: String] = [:]
    private var watchOf: [PathKey: Int32] = [:]
    /// Folders that could not be watched, with why (a limit, no permission).
    private(set) var missing: [PathKey: String] = [:]

    var count: Int { pathOf.count }

    func path(_ wd: Int32) -> String? { pathOf[wd] }
    func watch(_ folder: String) -> Int32? { watchOf[PathKey(folder)] }

    func record(_ wd: Int32, _ folder: String) {
        if let old = pathOf[wd] { watchOf.removeValue(forKey: PathKey(old)) }
        pathOf[wd] = folder
        watchOf[PathKey(folder)] = wd
        missing.removeValue(forKey: PathKey(folder))
    }

    func markMissing(_ folder: String, _ why: String) { missing[PathKey(folder)] = why }

    /// Forgets every folder that could not be watched (a new listing marks those that still cannot).
    func clearMissing() { missing = [:] }

    /// Forgets a descriptor the kernel dropped (IN_IGNORED).
    func forget(_ wd: Int32) {
        guard let path = pathOf.removeValue(forKey: wd) else { return }
        if watchOf[PathKey(path)] == wd { watchOf.removeValue(forKey: PathKey(path)) }
    }

    /// `folder` and the folders under it, with their descriptors.
    func subtree(_ folder: String) -> [(wd: Int32, path: String)] {
        let prefix = folder + "/"
        return pathOf.compactMap { wd, path in
            PathBytes.same(path, folder) || path.hasBytePrefix(prefix) ? (wd, path) : nil  // not a twin folder
        }
    }

    /// Forgets `folder` and everything under it; returns their descriptors.
    func removeSubtree(_ folder: String) -> [Int32] {
        let prefix = folder + "/"
        for key in missing.keys where PathBytes.same(key.path, folder) || key.path.hasBytePrefix(prefix) { missing.removeValue(forKey: key) }
        let gone = subtree(folder)
        for (wd, _) in gone { forget(wd) }
        return gone.map(\.wd)
    }

    /// The folder moved inside the vault: its watches now name the new paths.
    func renameSubtree(from: String, to: String) {
        for (wd, path) in subtree(from) {
            record(wd, to + String(decoding: path.utf8.dropFirst(from.utf8.count), as: UTF8.self))
        }
    }
}

/// What a walk of a folder tree found while adding watches.
struct TreeScan {
    var files: [String] = []
    /// The files among `files` that are symlinks (a note indexed through its target's bytes).
    var symlinks: [String] = []
    var folders: [String] = []
    var failures: [String] = []
    var warnings: [String] = []
}

extension FolderWatches {
    /// Watches `folder` and every folder under it the filter follows (the watch before the
    /// listing, so nothing created in between is missed), and lists their files.
    func watchTree(_ folder: String, vault: Vault, queue: InotifyQueue, filter: WatchFilter,
                   addWatches: Bool = true) -> TreeScan {
        var scan = TreeScan()
        var stack = [folder]
        while let current = stack.popLast() {
            let absolute = vault.absolute(current)
            if addWatches {
                switch queue.addWatch(absolute) {
                case .watching(let wd): record(wd, current)
                case .gone: continue
                case .failed(let why):
                    markMissing(current, why)
                    scan.failures.append("cannot watch \(current.isEmpty ? "." : current): \(why)")
                    continue
                }
            }
            scan.folders.append(current)
            guard let dir = opendir(absolute) else { continue }
            defer { closedir(dir) }
            let fd = dirfd(dir)
            while let entry = readdir(dir) {
                let bytes = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: UInt8.self, capacity: 256) { Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)))) }
                }
                if bytes.first == UInt8(ascii: ".") { continue }
                guard let name = PathBytes.string(bytes) else {
                    scan.warnings.append(VaultPath.join(current, PathBytes.displayName(bytes)) + ": the name is not UTF-8; skipped")
                    continue
                }
                let path = VaultPath.join(current, name)
                var info = stat()
                guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: if filter.follows(path, isFolder: true) { stack.append(path) }
                case S_IFREG: if filter.follows(path, isFolder: false) { scan.files.append(path) }
                case S_IFLNK:
                    if filter.follows(path, isFolder: false) { scan.files.append(path); scan.symlinks.append(path) }
                default: break
                }
            }
        }
        return scan
    }
}
