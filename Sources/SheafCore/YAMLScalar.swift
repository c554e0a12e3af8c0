// Small YAML text helpers for the line-preserving editor: quoting a new value only when it
// needs it, reading one scalar as written, splitting a comment off a line and a flow list into
// its items. Yams decides what a scalar means; these only find where things are.
import Yams

enum YAMLScalar {
    /// `value` as a YAML scalar: plain when that reads back as the same text, else double-quoted.
    /// `inFlow` also quotes the flow indicators `, [ ] { }`.
    static func render(_ value: String, inFlow: Bool = false) -> String {
        needsQuotes(value, inFlow: inFlow) ? doubleQuoted(value) : value
    }

    /// Whether `value` written plain would read back as something else: a number (`0x10`,
    /// `.inf`, `1e3`), a date, a bool or null (asked of Yams's resolver, which knows YAML 1.1's
    /// wider rules, a superset of what YAML 1.2 readers such as Obsidian's take as non-strings),
    /// or text whose first character or inner `: `/` #` YAML reads as syntax.
    static func needsQuotes(_ value: String, inFlow: Bool) -> Bool {
        if value.isEmpty || Resolver.default.resolveTag(of: Node(value)) != .str { return true }
        return YAMLQuoting.needsQuotesAsText(value, inFlow: inFlow)
    }

    static func doubleQuoted(_ value: String) -> String { YAMLQuoting.doubleQuoted(value) }

    /// The text of one scalar as written (`'it''s'` gives `it's`); the raw text when it is not
    /// a scalar Yams can read alone.
    static func text(of raw: Substring) -> String {
        let trimmed = raw.trimmingBlanks
        guard let first = trimmed.first else { return "" }
        if first != "\"" && first != "'" { return String(trimmed) }
        if let node = try? Yams.compose(yaml: String(trimmed), .basic), case .scalar(let s) = node { return s.string }
        return String(trimmed)
    }

    /// Splits a line's value part into the value and a trailing comment (with the blanks that
    /// precede its `#`). Quotes and flow brackets are respected.
    static func splitComment(_ text: Substring) -> (value: Substring, comment: Substring) {
        var quote: Character? = nil
        var previous: Character = " "
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if let q = quote {
                if c == q { quote = nil }  // '' inside single quotes closes and reopens: harmless
                else if c == "\\" && q == "\"" { i = text.index(after: i); if i == text.endIndex { break } }
            } else if c == "\"" || c == "'" {
                if previous == " " || previous == "\t" || previous == "[" || previous == "," || previous == "{" || i == text.startIndex {
                    quote = c
                }
            } else if c == "#" && (previous == " " || previous == "\t") {
                var start = i
                while start > text.startIndex {
                    let before = text.index(before: start)
                    if text[before] == " " || text[before] == "\t" { start = before } else { break }
                }
                return (text[..<start], text[start...])
            }
            previous = c
            i = text.index(after: i)
        }
        return (text, text[text.endIndex...])
    }

    /// The raw items of a one-line flow sequence `[a, "b, c", d]`, nil when `text` is not one.
    static func flowItems(_ text: Substring) -> [Substring]? {
        let t = text.trimmingBlanks
        guard t.first == "[", t.last == "]" else { return nil }
        let inner = t.dropFirst().dropLast()
        var items: [Substring] = []
        var depth = 0
        var quote: Character? = nil
        var start = inner.startIndex
        var i = inner.startIndex
        while i < inner.endIndex {
            let c = inner[i]
            if let q = quote {
                if c == q { quote = nil }
                else if c == "\\" && q == "\"" { i = inner.index(after: i); if i == inner.endIndex { break } }
            } else if c == "\"" || c == "'" { quote = c }
            else if c == "[" || c == "{" { depth += 1 }
            else if c == "]" || c == "}" { depth -= 1 }
            else if c == "," && depth == 0 {
                items.append(inner[start..<i].trimmingBlanks)
                start = inner.index(after: i)
            }
            i = inner.index(after: i)
        }
        if quote != nil || depth != 0 { return nil }
        let last = inner[start...].trimmingBlanks
        if !last.isEmpty || !items.isEmpty { items.append(last) }
        return items.filter { !$0.isEmpty }
    }
}
