// How Sheaf writes a string as a YAML scalar, in the part that needs no YAML library: the double
// quoting and the rules about characters and syntax. SheafCore's `YAMLScalar` adds the one
// question a resolver answers (would the plain text read as a number, a date, a bool?); the
// small merge driver asks only about values that read as text whatever they hold (a note path).

public enum YAMLQuoting {
    private static let reservedWords: Set<String> = ["null", "~", "true", "false", "yes", "no", "on", "off", "y", "n"]
    private static let indicatorStarts: Set<Unicode.Scalar> = ["-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`"]

    /// Whether `value` written plain would read back as something else for a reason other than
    /// its type: nothing at all, blanks at an edge, a first character or an inner `: `/` #` YAML
    /// reads as syntax, a reserved word, a control character. `inFlow` also counts the flow
    /// indicators `, [ ] { }`. By scalar, as YAML reads it: a `"`, `#` or space with a combining
    /// mark after it is a Character that is none of them, and a check by Character wrote `"́x`
    /// or `a #́b` plain, which YAML reads as a quoted string or a comment.
    public static func needsQuotesAsText(_ value: String, inFlow: Bool) -> Bool {
        let scalars = Array(value.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return true }
        if first == " " || last == " " || first == "\t" || last == "\t" { return true }
        if indicatorStarts.contains(first) { return true }
        if reservedWords.contains(value.lowercased()) { return true }
        if last == ":" { return true }
        for i in scalars.indices.dropLast() {
            if (scalars[i] == ":" && scalars[i + 1] == " ") || (scalars[i] == " " && scalars[i + 1] == "#") { return true }
        }
        if scalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FEFF}" }) { return true }
        if inFlow && scalars.contains(where: { ",[]{}".unicodeScalars.contains($0) }) { return true }
        return false
    }

    /// `value` in double quotes, escaped so YAML (and TOML, whose basic strings use the same
    /// escapes) reads back exactly `value`.
    public static func doubleQuoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    // `\uXXXX`: an escape YAML and TOML both read (VaultConfig writes with this too).
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
