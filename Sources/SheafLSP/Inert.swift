// Names and text from the vault reach an editor's menus and messages: a title with a control
// character (an escape sequence, a bell, a NUL) is shown without it. JSON would escape it, but a
// client that prints the text it is given would still pass it to a terminal. The bidirectional
// embeddings, overrides and isolates go too (format characters, not controls, to Unicode): in a
// menu or inserted into a note they reorder what is shown after them, so a synced name could make
// a completion read as another.
extension String {
    /// The text without control characters and bidirectional overrides (line breaks, tabs and
    /// the line and paragraph separators become spaces).
    var inert: String {
        guard unicodeScalars.contains(where: Self.isStrippedOrSpaced) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if !Self.isStrippedOrSpaced(scalar) { out.append(scalar) }
            else if "\n\t\r\u{2028}\u{2029}".unicodeScalars.contains(scalar) { out.append(" ") }
        }
        return String(out)
    }

    private static func isStrippedOrSpaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return scalar.properties.generalCategory == .control
        }
    }

    /// `inert`, and at most `limit` characters (a name 2 MB long is shown by its start).
    func shown(_ limit: Int = 200) -> String {
        guard let cut = index(startIndex, offsetBy: limit - 1, limitedBy: endIndex), cut < endIndex else { return inert }
        return String(self[..<cut]).inert + "…"
    }
}
