// Names and text from the vault reach an editor's menus and messages: a title with a control
// character (an escape sequence, a bell, a NUL) is shown without it. JSON would escape it, but a
// client that prints the text it is given would still pass it to a terminal.
extension String {
    /// The text without control characters (line breaks and tabs become spaces).
    var inert: String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.properties.generalCategory != .control { out.append(scalar) }
            else if scalar == "\n" || scalar == "\t" || scalar == "\r" { out.append(" ") }
        }
        return String(out)
    }

    /// `inert`, and at most `limit` characters (a name 2 MB long is shown by its start).
    func shown(_ limit: Int = 200) -> String {
        guard let cut = index(startIndex, offsetBy: limit - 1, limitedBy: endIndex), cut < endIndex else { return inert }
        return String(self[..<cut]).inert + "…"
    }
}
