// How a name from a file or a remote is shown on a terminal: control characters escaped, so a
// name can neither drive the terminal nor forge a line (docs/output.md). Here, without
// Foundation, because `sheaf` and the small merge driver `sheaf-merge-file` must show the same
// paths in the same bytes.

/// Control characters as the terminal must not get them, and how text output shows them instead.
public enum ShownText {
    /// A character that moves or drives the terminal, or breaks or reorders a line: C0 and C1
    /// controls and DEL, the Unicode line and paragraph separators, and the bidirectional
    /// embeddings, overrides and isolates (which reorder the rest of the line on screen).
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A name as text output shows it: as it is, unless it holds a control character or begins
    /// with a double quote; then in double quotes with C escapes (`\n`, `\t`, `\r`, `\x1b`,
    /// `\u0085`, `\"`, `\\`), as git shows such paths. A shown name that begins with `"` is
    /// always this quoted form, so no two names are shown alike.
    public static func name(_ name: String) -> String {
        guard name.first == "\"" || name.unicodeScalars.contains(where: isControl) else { return name }
        var out = "\""
        for s in name.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out += isControl(s) ? escape(s) : String(s)
            }
        }
        return out + "\""
    }

    /// Sheaf's own words with names inside (a message, a commit summary, an error's cause):
    /// each control character escaped where it stands, the rest as it is.
    public static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return text.unicodeScalars.map { isControl($0) ? escape($0) : String($0) }.joined()
    }

    /// `text` with its control characters removed (a completion candidate: it must stay one word
    /// on one line, and an escape would not name the note either).
    public static func withoutControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.filter { !isControl($0) })
        return String(out)
    }

    private static func escape(_ s: Unicode.Scalar) -> String {
        switch s {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default:
            let hex = String(s.value, radix: 16)
            return s.value < 0x80 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                                  : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
