// File names made from titles: NFC, without the characters that break on some file system
// (`/ \ : * ? " < > |` and control characters), at most 120 bytes, a number added on a clash.
import Foundation

public enum NoteFileName {
    public static let maxBytes = 120
    static let forbidden: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// The file stem for a title (without extension).
    public static func stem(for title: String) -> String {
        var out = ""
        for c in title.precomposedStringWithCanonicalMapping {
            // By scalar: a `/` with a combining mark after it is a Character that is not `/`.
            if c.unicodeScalars.contains(where: forbidden.contains) { out.append(" "); continue }
            if c.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { continue }
            out.append(c)
        }
        // Collapse runs of blanks, trim blanks and dots (a leading dot would hide the file).
        var collapsed = ""
        for c in out where !(c == " " && collapsed.last == " ") { collapsed.append(c) }
        var trimmed = Substring(collapsed)
        while let f = trimmed.first, f == " " || f == "." { trimmed = trimmed.dropFirst() }
        while let l = trimmed.last, l == " " || l == "." { trimmed = trimmed.dropLast() }
        var result = String(trimmed)
        let budget = maxBytes - 3  // room for ".md"
        while result.utf8.count > budget { result.removeLast() }
        result = String(result.trimmingBlanks)
        return result.isEmpty ? "Untitled" : result
    }

    /// A free vault path in `folder` for `title`: `Title.md`, else `Title 2.md`, `Title 3.md`...
    /// `exists` answers whether a vault path is taken (compared exactly).
    public static func freePath(for title: String, in folder: String, exists: (String) -> Bool) -> String {
        let base = stem(for: title)
        var candidate = VaultPath.join(folder, base + ".md")
        var n = 2
        while exists(candidate) {
            var numbered = base
            let suffix = " \(n)"
            while numbered.utf8.count + suffix.utf8.count > maxBytes - 3 { numbered.removeLast() }
            candidate = VaultPath.join(folder, numbered + suffix + ".md")
            n += 1
        }
        return candidate
    }
}
