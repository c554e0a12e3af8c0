// Vault-relative paths: `/`-separated, no leading `/`, no `.` or `..` parts. Every path Sheaf
// shows, stores or compares is one of these; absolute paths exist only at the file-system edge.

public enum VaultPath {
    public static let noteExtensions: Set<String> = ["md", "markdown"]

    /// Whether a path names a note (`*.md` or `*.markdown`, any case).
    public static func isNote(_ path: String) -> Bool {
        // On the UTF-8 bytes, without allocating: the freshness walk asks this for every file.
        // The extension's bytes, read from the end, are packed into one word (at most 8 of them:
        // `markdown`), ASCII letters lower-cased; other bytes never match.
        var packed: UInt64 = 0, count = 0
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: ".") { break }
            if byte == UInt8(ascii: "/") || count == 8 { return false }
            packed = packed << 8 | UInt64(byte | 0x20)
            count += 1
        }
        guard count < path.utf8.count, count > 0 else { return false }
        let name = path.utf8.count - count - 1
        guard name > 0, path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: name - 1)] != UInt8(ascii: "/") else { return false }
        return (count == 2 && packed == packedMD) || (count == 8 && packed == packedMarkdown)
    }

    /// `md` and `markdown` packed as `isNote` packs an extension.
    private static let packedMD = packed("md"), packedMarkdown = packed("markdown")
    private static func packed(_ ext: String) -> UInt64 { ext.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) } }

    /// Obsidian's own documents, `.canvas` and `.base`: link targets, but not attachments.
    public static func isObsidianDocument(_ path: String) -> Bool {
        let ext = fileExtension(path).lowercased()
        return ext == "canvas" || ext == "base"
    }

    // The separators are found in the bytes, never as Characters: a `/` or `.` followed by a
    // combining mark is one Character with it (`/\u{301}x.md`), which `lastIndex(of: "/")` does
    // not find, though the file system splits there. The bytes are also what the hot paths need
    // (a walk, a resolver of every path): a Character search walks grapheme clusters.

    public static func fileName(_ path: String) -> String {
        guard let slash = lastByte(UInt8(ascii: "/"), in: path) else { return path }
        return String(decoding: path.utf8[path.utf8.index(after: slash)...], as: UTF8.self)
    }

    /// The folder holding `path`, "" at the root.
    public static func folder(_ path: String) -> String {
        guard let slash = lastByte(UInt8(ascii: "/"), in: path) else { return "" }
        return String(decoding: path.utf8[..<slash], as: UTF8.self)
    }

    public static func fileExtension(_ path: String) -> String {
        let name = fileName(path)
        guard let dot = lastByte(UInt8(ascii: "."), in: name), dot != name.utf8.startIndex else { return "" }
        return String(decoding: name.utf8[name.utf8.index(after: dot)...], as: UTF8.self)
    }

    /// The file name without its extension.
    public static func stem(_ path: String) -> String {
        let name = fileName(path)
        guard let dot = lastByte(UInt8(ascii: "."), in: name), dot != name.utf8.startIndex else { return name }
        return String(decoding: name.utf8[..<dot], as: UTF8.self)
    }

    /// The last position of the ASCII byte `byte` in `text`.
    private static func lastByte(_ byte: UInt8, in text: String) -> String.Index? {
        text.utf8.lastIndex(of: byte)
    }

    /// The path without a note extension (`Trips/Lisbon.md` gives `Trips/Lisbon`).
    public static func withoutNoteExtension(_ path: String) -> String {
        isNote(path) ? String(decoding: path.utf8.dropLast(fileExtension(path).utf8.count + 1), as: UTF8.self) : path
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
        for part in path.pathParts() {
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
        let a = folder.pathParts()
        let b = path.pathParts()
        var common = 0
        while common < a.count && common < b.count - 1 && a[common] == b[common] { common += 1 }
        let ups = Array(repeating: "..", count: a.count - common)
        return (ups + b[common...].map(String.init)).joined(separator: "/")
    }
}
