// Vault-relative paths: `/`-separated, no leading `/`, no `.` or `..` parts. Every path Sheaf
// shows, stores or compares is one of these; absolute paths exist only at the file-system edge.

public enum VaultPath {
    public static let noteExtensions: Set<String> = ["md", "markdown"]

    /// Whether a path names a note (`*.md` or `*.markdown`, any case).
    public static func isNote(_ path: String) -> Bool {
        // On the UTF-8 bytes: the freshness walk asks this for every file.
        var ext: [UInt8] = []
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: ".") { break }
            if byte == UInt8(ascii: "/") || ext.count > 8 { return false }
            ext.append(byte | 0x20)  // ASCII letters to lower case; other bytes never match
        }
        guard ext.count < path.utf8.count, !ext.isEmpty else { return false }
        let name = path.utf8.count - ext.count - 1
        guard name > 0, path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: name - 1)] != UInt8(ascii: "/") else { return false }
        return ext.elementsEqual("dm".utf8) || ext.elementsEqual("nwodkram".utf8)
    }

    /// Obsidian's own documents, `.canvas` and `.base`: link targets, but not attachments.
    public static func isObsidianDocument(_ path: String) -> Bool {
        let ext = fileExtension(path).lowercased()
        return ext == "canvas" || ext == "base"
    }

    public static func fileName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The folder holding `path`, "" at the root.
    public static func folder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    public static func fileExtension(_ path: String) -> String {
        let name = fileName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The file name without its extension.
    public static func stem(_ path: String) -> String {
        let name = fileName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The path without a note extension (`Trips/Lisbon.md` gives `Trips/Lisbon`).
    public static func withoutNoteExtension(_ path: String) -> String {
        isNote(path) ? String(path.dropLast(fileExtension(path).count + 1)) : path
    }

    /// `stem + suffix + "." + ext` cut to fit a file system's 255-byte name limit: the stem loses
    /// characters from its end (never half a character), the suffix and extension stay whole.
    /// The same inputs always give the same name.
    public static func fittedName(stem: String, suffix: String, ext: String, maxBytes: Int = 255) -> String {
        let tail = suffix + (ext.isEmpty ? "" : "." + ext)
        var cut = Substring(stem)
        while !cut.isEmpty && cut.utf8.count + tail.utf8.count > maxBytes { cut = cut.dropLast() }
        return String(cut) + tail
    }

    public static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return name.isEmpty ? folder : folder + "/" + name
    }

    /// Resolves `.` and `..` in a `/`-separated relative path; nil when it climbs above the root.
    public static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The relative path from folder `from` to `to` (both vault-relative).
    public static func relative(from folder: String, to path: String) -> String {
        let a = folder.split(separator: "/")
        let b = path.split(separator: "/")
        var common = 0
        while common < a.count && common < b.count - 1 && a[common] == b[common] { common += 1 }
        let ups = Array(repeating: "..", count: a.count - common)
        return (ups + b[common...].map(String.init)).joined(separator: "/")
    }
}
