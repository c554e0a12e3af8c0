// The one gate every path passes before Sheaf writes to it, deletes it or reads through it when
// the path came from somewhere Sheaf does not trust: a remote's tree, a conflict file's
// `conflict-of`, a link target, a folder typed on the command line. A path that passes is a
// `SafePath`; the guarded write path (`VaultFileWriter`) only takes those, so "forgot to check"
// cannot be written. The rules are lexical (on the bytes) and then, against the disk, that no
// folder on the way is a symlink: nothing reaches outside the vault, `.git` or `.sheaf`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheafCore

/// Why a path was refused.
public enum PathRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case absolute
    /// An empty, `.` or `..` component.
    case traversal
    /// A component that is (or a file system could take for) `.git`.
    case gitFolder
    /// A component that is (or could be taken for) `.sheaf`.
    case stateFolder
    /// A NUL, a backslash or a control character.
    case badCharacter
    case notUTF8
    /// A component over 255 bytes, or a path over 4,095.
    case tooLong
    /// A folder on the way is a symlink (`folder` is the vault path of it).
    case throughSymlink(folder: String)
    /// A folder on the way is a file.
    case notAFolder(folder: String)

    public var description: String {
        switch self {
        case .empty: return "the path is empty"
        case .absolute: return "the path is absolute"
        case .traversal: return "the path has an empty, `.` or `..` part"
        case .gitFolder: return "the path is inside .git"
        case .stateFolder: return "the path is inside .sheaf"
        case .badCharacter: return "the path holds a NUL, a backslash or a control character"
        case .notUTF8: return "the path is not valid UTF-8"
        case .tooLong: return "a name is longer than 255 bytes, or the path longer than 4,095"
        case .throughSymlink(let folder): return "the folder \(folder) is a symlink"
        case .notAFolder(let folder): return "\(folder) is a file, not a folder"
        }
    }
}

/// A vault-relative path the guard let through. Only `VaultPathGuard` makes these.
public struct SafePath: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    fileprivate init(_ path: String) { self.path = path }
    public var description: String { path }
}

public enum VaultPathGuard {
    public static let maxNameBytes = 255
    public static let maxPathBytes = 4095

    /// The lexical rules, on a path as text.
    public static func refusal(_ path: String) -> PathRefusal? {
        refusal(bytes: Array(path.utf8))
    }

    /// The lexical rules, on a path's bytes (a tree entry's name may not be UTF-8).
    public static func refusal(bytes: [UInt8]) -> PathRefusal? {
        if bytes.isEmpty { return .empty }
        if bytes.first == UInt8(ascii: "/") { return .absolute }
        if bytes.count > maxPathBytes { return .tooLong }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .notUTF8 }
        for byte in bytes where byte == 0 || byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7f {
            return .badCharacter
        }
        for component in text.pathParts(omittingEmpty: false) {
            if component.isEmpty || component == "." || component == ".." { return .traversal }
            if component.utf8.count > maxNameBytes { return .tooLong }
            switch reservedName(component) {
            case .git?: return .gitFolder
            case .sheaf?: return .stateFolder
            case nil: break
            }
        }
        return nil
    }

    /// Whether a path has a `.git` or `.sheaf` component in any spelling: never staged, written or read.
    public static func isReserved(_ path: String) -> Bool {
        path.pathParts().contains { reservedName($0) != nil }
    }

    enum Reserved { case git, sheaf }

    /// Whether a name is, or a file system could take it for, `.git` or `.sheaf`: any case, with
    /// trailing dots and spaces (Windows drops them), with characters macOS ignores in names
    /// (zero-width joiners and the like), or as an 8.3 short name (`GIT~1`).
    static func reservedName(_ name: Substring) -> Reserved? {
        // ASCII names (nearly all) without building strings: every ignorable code point is
        // non-ASCII, and lower-casing ASCII is `| 0x20` on letters. Same answer, ~20x cheaper
        // (this ran on every entry of a pulled tree: a quarter of a pull's CPU at 10k notes).
        var ascii = true
        for scalar in name.unicodeScalars where !scalar.isASCII {
            ascii = false
            // Another code point stays in the folded name and folds to no ASCII letter (only
            // U+0130 and U+212A lower-case to ASCII letters), so the name cannot be reserved.
            if !isIgnorable(scalar) && scalar.value != 0x130 && scalar.value != 0x212A { return nil }
        }
        if ascii {
            var bytes = name.utf8[...]
            while let last = bytes.last, last == UInt8(ascii: ".") || last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
            guard (4...7).contains(bytes.count) else { return nil }
            let folded = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
            if folded.elementsEqual(".git".utf8) || folded.elementsEqual("git~1".utf8) { return .git }
            if folded.elementsEqual(".sheaf".utf8) || folded.elementsEqual("sheaf~1".utf8) { return .sheaf }
            return nil
        }
        var scalars = name.unicodeScalars.filter { !isIgnorable($0) }
        while let last = scalars.last, last == "." || last == " " { scalars.removeLast() }
        let folded = String(String.UnicodeScalarView(scalars)).lowercased()
        if folded == ".git" || folded == "git~1" { return .git }
        if folded == ".sheaf" || folded == "sheaf~1" { return .sheaf }
        return nil
    }

    /// Code points HFS+ drops when it compares names (git's list for `core.protectHFS`).
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C...0x200F, 0x202A...0x202E, 0x206A...0x206F, 0xFEFF: return true
        default: return false
        }
    }

    /// The lexical rules, then the disk: every folder on the way below `root` that exists is a
    /// real folder, not a symlink. The last component may be anything (the caller decides what
    /// it may replace).
    public static func check(_ path: String, in root: String) -> Result<SafePath, PathRefusal> {
        check(path, in: root, knownFolders: [])
    }

    /// `check` for a batch that writes many files into few folders it made itself (a checkout
    /// into a fresh folder, `FreshFolderWriter`): a folder in `knownFolders` was found to be a
    /// real folder earlier in the batch and is not looked at again.
    public static func check(_ path: String, in root: String, knownFolders: Set<PathKey>) -> Result<SafePath, PathRefusal> {
        if let refusal = refusal(path) { return .failure(refusal) }
        var folder = root
        var relative = ""
        for part in path.pathParts().dropLast() {
            folder += "/" + part
            relative = VaultPath.join(relative, String(part))
            if knownFolders.contains(PathKey(relative)) { continue }
            var info = stat()
            guard lstat(folder, &info) == 0 else { break }  // missing: it will be made as a folder
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK: return .failure(.throughSymlink(folder: relative))
            default: return .failure(.notAFolder(folder: relative))
            }
        }
        return .success(SafePath(path))
    }

    /// `check`, as an error that names the path for the person at the terminal.
    public static func require(_ path: String, in root: String, doing what: String = "will not write") throws(SheafError) -> SafePath {
        switch check(path, in: root) {
        case .success(let safe): return safe
        case .failure(let refusal):
            throw SheafError(what, path: path, cause: refusal.description,
                             hint: "Sheaf writes only to files inside the vault, outside .git and .sheaf, and never through a symlink")
        }
    }

    /// A folder (vault-relative, "" for the root) to make and write into: the folder itself is
    /// checked like every folder above it.
    public static func requireFolder(_ folder: String, in root: String) throws(SheafError) -> SafePath {
        if folder.isEmpty { return SafePath("") }
        _ = try require(VaultPath.join(folder, "x"), in: root, doing: "will not write into this folder")
        return SafePath(folder)
    }

    /// Whether a symlink's resolved target (an absolute, real path) stays inside the vault's real
    /// root, out of `.git`, `.sheaf` and every dot-folder Sheaf does not read.
    public static func isReadableTarget(_ target: String, realRoot: String) -> Bool {
        guard let relative = target.droppingBytePrefix(realRoot + "/"), refusal(relative) == nil else { return false }
        return !relative.pathParts().contains { $0.hasBytePrefix(".") }
    }

    /// Makes the folders of `path` below the root, refusing to pass a symlink (checked again
    /// for each folder as it is made, so a symlink planted meanwhile is not followed either).
    public static func makeFolders(of path: SafePath, in root: String) throws(SheafError) {
        var folder = root
        for part in path.path.pathParts().dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o755) == 0 { continue }
            let failure = errno
            var info = stat()
            guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                let relative = String(folder.dropFirst(root.count + 1))
                throw SheafError("cannot create folder", path: relative,
                                 cause: failure == EEXIST ? "a file or symlink is in the way" : String(cString: strerror(failure)))
            }
        }
    }
}
