// Names reach the terminal from files and remotes that anyone may have written: a note's title,
// a path a remote pushed, a tag, a commit summary. A control character in one (ESC, a newline, a
// carriage return) would drive the terminal (set its title, clear the screen) or forge a line of
// output. So every line the CLI prints is a `TerminalLine`: its literal parts are Sheaf's own
// words, and everything interpolated into it is escaped (docs/output.md has the rules). `-0` and
// `--json` output bypass this: the first is byte-exact for xargs, the second escaped by JSON.
import SheafCore
import SheafKit

/// Control characters as the terminal must not get them, and how text output shows them instead.
enum ShownText {
    /// A character that moves or drives the terminal, or breaks or reorders a line: C0 and C1
    /// controls and DEL, the Unicode line and paragraph separators, and the bidirectional
    /// embeddings, overrides and isolates (which reorder the rest of the line on screen).
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A name as text output shows it: as it is, unless it holds a control character or begins
    /// with a double quote; then in double quotes with C escapes (`\n`, `\t`, `\r`, `\x1b`,
    /// `\u0085`, `\"`, `\\`), as git shows such paths. A shown name that begins with `"` is
    /// always this quoted form, so no two names are shown alike.
    static func name(_ name: String) -> String {
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
    static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return text.unicodeScalars.map { isControl($0) ? escape($0) : String($0) }.joined()
    }

    /// `text` with its control characters removed (a completion candidate: it must stay one word
    /// on one line, and an escape would not name the note either).
    static func withoutControls(_ text: String) -> String {
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

/// Text for the terminal. String literals are Sheaf's own words and go out as written; every
/// `String` interpolated is a name and shown by `ShownText.name`; `\(text:)` is prose that holds
/// names (escaped in place); a `SheafError` or `VaultWarning` is shown with its parts escaped.
struct TerminalLine: ExpressibleByStringInterpolation, Sendable {
    private(set) var text: String

    init(stringLiteral value: String) { text = value }
    init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    /// Text Sheaf made itself (help, usage), out as it is.
    init(verbatim text: String) { self.text = text }

    static func + (a: TerminalLine, b: TerminalLine) -> TerminalLine { TerminalLine(verbatim: a.text + b.text) }
    static func += (a: inout TerminalLine, b: TerminalLine) { a.text += b.text }

    /// Lines joined by `separator` (Sheaf's own).
    static func joined(_ lines: [TerminalLine], separator: String) -> TerminalLine {
        TerminalLine(verbatim: lines.map(\.text).joined(separator: separator))
    }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 16 * interpolationCount) }

        mutating func appendLiteral(_ literal: String) { text += literal }

        /// A name: a path, a title, a tag, a remote, a file, a word the user typed.
        mutating func appendInterpolation(_ name: String) { text += ShownText.name(name) }
        mutating func appendInterpolation(_ name: Substring) { text += ShownText.name(String(name)) }
        /// Prose holding names, from Kit or git: a message, a cause, a commit summary.
        mutating func appendInterpolation(text prose: String) { text += ShownText.text(prose) }
        /// Names joined by `separator` (", "), each shown as a name.
        mutating func appendInterpolation(names: some Sequence<String>, separator: String = ", ") {
            text += names.map(ShownText.name).joined(separator: separator)
        }
        mutating func appendInterpolation(_ line: TerminalLine) { text += line.text }
        mutating func appendInterpolation<N: BinaryInteger>(_ number: N) { text += String(number) }

        /// `sheaf: <what>: <path>`, then `cause:` and `hint:`; credentials in URLs redacted.
        mutating func appendInterpolation(_ error: SheafError) {
            text += error.rendered(path: { ShownText.name(redactingCredentials($0)) },
                                   text: { ShownText.text(redactingCredentials($0)) })
        }

        /// `<path>: <message>`.
        mutating func appendInterpolation(_ warning: VaultWarning) {
            text += ShownText.name(warning.path) + ": " + ShownText.text(warning.message)
        }
    }
}
