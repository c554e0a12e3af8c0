// Names reach the terminal from files and remotes that anyone may have written: a note's title,
// a path a remote pushed, a tag, a commit summary. A control character in one (ESC, a newline, a
// carriage return) would drive the terminal (set its title, clear the screen) or forge a line of
// output. So every line the CLI prints is a `TerminalLine`: its literal parts are Sheaf's own
// words, and everything interpolated into it is escaped (docs/output.md has the rules). `-0` and
// `--json` output bypass this: the first is byte-exact for xargs, the second escaped by JSON.
import SheafCore
import SheafKit

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
