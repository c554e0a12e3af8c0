// The walk over a vault's files: readdir and lstat, no Foundation enumerator. It skips `.git`,
// `.sheaf`, every dot-file and dot-folder, and whatever the ignore rules say; it never follows a
// symlink out of the vault, nor a symlinked folder at all (no loops). Unreadable folders and
// outside links are reported, never fatal.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

public struct VaultWalker {
    public let vault: Vault
    /// Answers whether a vault-relative path is ignored (`isDirectory` says which kind it is).
    public var isIgnored: (String, Bool) -> Bool
    /// What the rules from outside the work tree's .gitignore files (info/exclude,
    /// core.excludesFile) could reach. When set, `isIgnored` is asked only about the paths these
    /// rules or a .gitignore on the way down might match; when nil, about every path.
    public var outsideRules: IgnoreReach?
    /// Paths left out whatever git says (Obsidian's excluded files, for the index), asked about
    /// every path.
    public var excludes: ((String, Bool) -> Bool)?
    /// Told the path of every Sheaf temporary file (`TemporaryName`) in the folders the walk
    /// lists, which it otherwise passes over like any dot-name: so a writer can clean those a
    /// killed process left, without a walk of its own.
    public var onTemporaryFile: ((String) -> Void)?
    /// Threads the walk lists folders on, once more than `foldersBeforeThreads` wait to be
    /// listed; nil: the machine's cores (tests set both to make a small vault's walk take
    /// threads, or never).
    var threads: Int?
    var foldersBeforeThreads = 16

    public init(vault: Vault, outsideRules: IgnoreReach? = nil,
                isIgnored: @escaping (String, Bool) -> Bool = { _, _ in false }) {
        self.vault = vault
        self.outsideRules = outsideRules
        self.isIgnored = isIgnored
    }

    /// Every file of the vault, sorted by path (its bytes) unless `sorted` is false (the scanner does not
    /// need the order, and sorting 100k paths took a tenth of a no-change scan). Unsorted, the
    /// order is the walk's own: each folder's files in readdir order, then each subfolder's.
    public func files(sorted: Bool = true) -> (files: [VaultFile], warnings: [VaultWarning]) {
        let realRoot = Self.realPath(vault.root) ?? vault.root
        var (files, warnings) = walkTree(from: "", reach: outsideRules, realRoot: realRoot)
        if sorted { files.sort { PathBytes.precedes($0.path, $1.path) } }  // bytes: twins have one order
        return (files, warnings)
    }

    /// What the walk finds in `folder` itself (its subfolders are only named). `questions`
    /// serialises the calls to `isIgnored` and `excludes`: folders are listed on several threads.
    func list(_ folder: String, reach inherited: IgnoreReach?, realRoot: String, questions: NSLock) -> FolderListing {
        var listing = FolderListing()
        let absolute = vault.absolute(folder)
        guard let dir = opendir(absolute) else {
            listing.warnings.append(VaultWarning(path: folder.isEmpty ? "." : folder, message: "cannot read folder: \(String(cString: strerror(errno)))"))
            return listing
        }
        defer { closedir(dir) }
        let fd = dirfd(dir)  // stat by name relative to the folder: no walk down the whole path
        // Each entry's path is built once, from the folder's bytes and the name read in place
        // (d_name): no array and no String of the name alone, one validation.
        var pathBytes = Array(folder.utf8)
        if !folder.isEmpty { pathBytes.append(UInt8(ascii: "/")) }
        let prefixCount = pathBytes.count
        var entries: [(path: String, nameCount: Int, info: stat)] = []
        var hasGitignore = false
        while let entry = readdir(dir) {
            let cName = UnsafeRawPointer(entry).advanced(by: Self.nameOffset).assumingMemoryBound(to: CChar.self)
            let name = UnsafeRawBufferPointer(start: cName, count: strlen(cName))
            if name.first == UInt8(ascii: ".") {  // ., .., .git, .sheaf, dot-files and dot-folders
                if name.elementsEqual(".gitignore".utf8) { hasGitignore = true }
                if onTemporaryFile != nil, name.starts(with: TemporaryName.prefix.utf8), let text = PathBytes.string(name) {
                    listing.temporaryFiles.append(VaultPath.join(folder, text))
                }
                continue
            }
            pathBytes.removeSubrange(prefixCount...)
            pathBytes.append(contentsOf: name)
            pathBytes.append(0)
            // A name that is not UTF-8 cannot be a vault path: String(cString:) would repair it
            // to U+FFFD and so name another file (its twin) or none. It is named and skipped.
            // (validatingCString: String(validating:as:) is generic, unspecialised, slower.)
            guard let path = pathBytes.withUnsafeBytes({ String(validatingCString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }) else {
                listing.warnings.append(VaultWarning(path: VaultPath.join(folder, PathBytes.displayName(name)),
                                                     message: "the name is not UTF-8; skipped (rename it to index and commit it)"))
                continue
            }
            var info = stat()
            guard fstatat(fd, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }  // vanished since readdir
            entries.append((path, name.count, info))
        }
        var reach = inherited
        if hasGitignore, let outer = reach,
           let text = try? String(contentsOfFile: absolute + "/.gitignore", encoding: .utf8) {
            reach = outer.merging(IgnoreReach(rules: text))
        } else if hasGitignore {
            reach = nil  // unreadable: ask about everything below
        }
        listing.childReach = reach
        func ignored(_ path: String, nameCount: Int, folder: Bool) -> Bool {
            if let excludes, questions.withLock({ excludes(path, folder) }) { return true }
            if let reach, !reach.mightIgnore(name: Substring(path.utf8.suffix(nameCount)), isFolder: folder) { return false }
            return questions.withLock { isIgnored(path, folder) }
        }
        for (path, nameCount, info) in entries {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                if !ignored(path, nameCount: nameCount, folder: true) { listing.subfolders.append(path) }
            } else if type == S_IFREG {
                if !ignored(path, nameCount: nameCount, folder: false) { listing.files.append(Self.file(path, info)) }
            } else if type == S_IFLNK {
                let full = vault.absolute(path)
                guard let target = Self.realPath(full) else { continue }  // dangling
                guard VaultPathGuard.isReadableTarget(target, realRoot: realRoot) else {
                    listing.warnings.append(VaultWarning(path: path, message: "symlink leads outside the vault, or into .git, .sheaf or a hidden folder; skipped"))
                    continue
                }
                var targetInfo = stat()
                // A link to a file inside the vault is read as that file; linked folders are not
                // followed, so the walk cannot loop.
                if stat(full, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFREG, !ignored(path, nameCount: nameCount, folder: false) {
                    listing.files.append(Self.file(path, targetInfo))
                }
            }
        }
        return listing
    }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The files at some vault paths as the walk would find them, without walking: a path is
    /// left out when the walk would not list it (nothing there, a folder, a name or folder
    /// starting with `.`, an ignored file or folder, a path through a symlinked folder, a
    /// symlink leading out of the vault or to no file). Stats only the files and the folders on
    /// their way, never a sibling; git is asked about ignore rules only where the walk would ask
    /// (the `.gitignore` files on the way and `outsideRules` decide, as in the walk).
    public func files(at paths: [String]) -> [VaultFile] {
        let realRoot = Self.realPath(vault.root) ?? vault.root
        var reaches: [String: IgnoreReach?] = [:]
        return paths.compactMap { file(at: $0, realRoot: realRoot, reaches: &reaches) }
    }

    /// What the ignore rules could reach among the names in `folder` (nil: anything).
    private func reach(in folder: String, cache: inout [String: IgnoreReach?]) -> IgnoreReach? {
        if let known = cache[folder] { return known }
        let inherited = folder.isEmpty ? outsideRules : reach(in: VaultPath.folder(folder), cache: &cache)
        var result = inherited
        let gitignore = vault.absolute(folder) + "/.gitignore"
        if access(gitignore, F_OK) == 0 {
            if let outer = inherited, let text = try? String(contentsOfFile: gitignore, encoding: .utf8) {
                result = outer.merging(IgnoreReach(rules: text))
            } else {
                result = nil  // unreadable: ask about everything below
            }
        }
        cache[folder] = .some(result)
        return result
    }

    /// The files the walk would list in `folder` and below, as they are now: none when the walk
    /// would not enter it (nothing there, a file, a symlink, a dot-name or an ignored folder on
    /// the way). What a change set's `recheck` of a folder looks at.
    public func files(under folder: String) -> [VaultFile] {
        var reaches: [String: IgnoreReach?] = [:]
        let parts = folder.pathParts(omittingEmpty: false)
        guard folder.isEmpty || walksInto(parts[...], reaches: &reaches) else { return [] }
        let inherited = folder.isEmpty ? outsideRules : reach(in: VaultPath.folder(folder), cache: &reaches)
        return walkTree(from: folder, reach: inherited, realRoot: Self.realPath(vault.root) ?? vault.root).files
    }

    /// The walk's question for one path (`list` asks it the same way): `excludes`, then git.
    private func ignored(_ name: Substring, _ path: String, folder: Bool, reaches: inout [String: IgnoreReach?]) -> Bool {
        if let excludes, excludes(path, folder) { return true }
        if let reach = reach(in: VaultPath.folder(path), cache: &reaches),
           !reach.mightIgnore(name: name, isFolder: folder) { return false }
        return isIgnored(path, folder)
    }

    /// Whether the walk enters every folder `names` spell out from the root (each a real folder,
    /// not a dot-name, not ignored).
    private func walksInto(_ names: ArraySlice<Substring>, reaches: inout [String: IgnoreReach?]) -> Bool {
        var folder = ""
        for name in names {
            guard !name.isEmpty, !name.hasBytePrefix(".") else { return false }
            folder = VaultPath.join(folder, String(name))
            var info = stat()
            guard lstat(vault.absolute(folder), &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
                  !ignored(name, folder, folder: true, reaches: &reaches) else { return false }
        }
        return true
    }

    private func file(at path: String, realRoot: String, reaches: inout [String: IgnoreReach?]) -> VaultFile? {
        let parts = path.pathParts(omittingEmpty: false)
        guard !parts.isEmpty, !parts.contains(where: { $0.isEmpty || $0.hasBytePrefix(".") }),
              walksInto(parts.dropLast(), reaches: &reaches) else { return nil }
        func ignored(_ name: Substring, _ path: String, folder: Bool) -> Bool {
            self.ignored(name, path, folder: folder, reaches: &reaches)
        }
        let full = vault.absolute(path)
        var info = stat()
        guard lstat(full, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return ignored(parts.last!, path, folder: false) ? nil : Self.file(path, info)
        case S_IFLNK:
            guard let target = Self.realPath(full), VaultPathGuard.isReadableTarget(target, realRoot: realRoot) else { return nil }
            var targetInfo = stat()
            guard stat(full, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFREG,
                  !ignored(parts.last!, path, folder: false) else { return nil }
            return Self.file(path, targetInfo)
        default:
            return nil
        }
    }

    private static func file(_ path: String, _ info: stat) -> VaultFile {
        VaultFile(path: path, size: Int(info.st_size),
                  mtimeNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                  inode: UInt64(info.st_ino))
    }

    /// The path with every symlink resolved (realpath(3)), nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
