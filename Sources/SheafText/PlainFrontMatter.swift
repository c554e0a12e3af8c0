// Front-matter whose reading is certain without a YAML parser: the everyday shape of a note's
// properties (`key: value`, quoted values, `[a, b]`, `- item` lists under a key, comments, blank
// lines). Such a block is always a YAML mapping, and its top-level keys are exactly the text
// before their `:`. Anything else (nested mappings, multi-line scalars, anchors, tags, escapes,
// tabs, flow mappings, indented keys, ...) is "cannot tell", never "invalid": the caller asks a
// real parser then. `PlainFrontMatterTests` holds every block this accepts to Yams's reading.

/// The front-matter rules that need no YAML parser: they answer for plain blocks only.
public struct PlainFrontMatterRules: FrontMatterRules {
    public init() {}

    public func parses(_ block: FrontMatterBlock) -> Bool? {
        PlainFrontMatter.keys(of: block) == nil ? nil : true
    }

    public func isValidMapping(_ block: FrontMatterBlock) -> Bool? {
        guard let keys = PlainFrontMatter.keys(of: block) else { return nil }
        return Set(keys.map { Array($0.utf8) }).count == keys.count
    }

    /// The key-by-key merge needs the values' meaning (lists, dates): not answered here.
    public func mergeKeyByKey(base: NoteDocument, ours: NoteDocument, theirs: NoteDocument) -> FrontMatterMerge? {
        nil
    }
}

public enum PlainFrontMatter {
    /// The top-level keys of a plain block in order (duplicates included); nil when the block is
    /// not plain, whether or not it is valid YAML.
    public static func keys(of block: FrontMatterBlock) -> [String]? {
        var keys: [String] = []
        // The state after a key line: its value is still open (nothing after the `:`), or a
        // list of `- item` lines at one indentation is under way.
        var openKey = false
        var listIndent: Int? = nil
        for line in block.lines {
            let content = Array(Lines.content(line).utf8)
            guard allowed(content) else { return nil }
            var i = 0
            while i < content.count && content[i] == space { i += 1 }
            if i == content.count || content[i] == hash { continue }  // blank or comment
            if content[i] == dash && (i + 1 == content.count || content[i + 1] == space) {
                // A `- item` line: only under a key with nothing after its `:`, at one indentation.
                guard openKey || listIndent == i else { return nil }
                guard listIndent == nil || listIndent == i else { return nil }
                listIndent = i
                openKey = false
                guard i + 1 == content.count || value(content[(i + 2)...], flowList: false) else { return nil }
                continue
            }
            guard i == 0, let colon = keyEnd(content) else { return nil }
            keys.append(String(decoding: content[..<colon], as: UTF8.self))
            listIndent = nil
            let rest = content[(colon + 1)...]
            if rest.allSatisfy({ $0 == space }) { openKey = true; continue }
            guard rest.first == space, value(rest, flowList: true) else { return nil }
            openKey = false
        }
        return keys
    }

    private static let space = UInt8(ascii: " "), hash = UInt8(ascii: "#"), dash = UInt8(ascii: "-"),
                        colon = UInt8(ascii: ":"), doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")

    /// Characters YAML reads as themselves everywhere: printable, no tab, no line break of any
    /// kind (U+0085, U+2028 and U+2029 end a line for a YAML reader), no byte-order mark.
    private static func allowed(_ bytes: ArraySlice<UInt8>) -> Bool {
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let v = scalar.value
            if v >= 0x20 && v <= 0x7E { continue }
            if v < 0xA0 || v == 0x2028 || v == 0x2029 || v == 0xFEFF || v == 0xFFFE || v == 0xFFFF || v == 0xFFFD {
                return false
            }
        }
        return true
    }

    private static func allowed(_ bytes: [UInt8]) -> Bool { allowed(bytes[...]) }

    /// The index of the `:` ending a plain key at the start of `line`: a letter, digit, `_` or
    /// non-ASCII character first, then those, `-`, `.`, `/` and single inner spaces; at most
    /// 1,000 bytes (YAML limits a key on one line to 1,024 characters).
    private static func keyEnd(_ line: [UInt8]) -> Int? {
        guard let first = line.first, isKeyStart(first) else { return nil }
        var i = 1
        while i < line.count && i <= 1000 {
            let c = line[i]
            if c == colon {
                guard line[i - 1] != space, i + 1 == line.count || line[i + 1] == space else { return nil }
                return i
            }
            guard isKeyStart(c) || c == dash || c == UInt8(ascii: ".") || c == UInt8(ascii: "/")
                    || (c == space && line[i - 1] != space) else { return nil }
            i += 1
        }
        return nil
    }

    private static func isKeyStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c >= 0x80
    }

    /// Whether `text` (after a key's `: ` or an item's `- `) is one plain value on its line: a
    /// plain scalar, a quoted one without escapes, or (after a key) a one-line `[a, b]` of such,
    /// each optionally followed by a ` # comment`.
    private static func value(_ text: ArraySlice<UInt8>, flowList: Bool) -> Bool {
        let text = text.drop { $0 == space }
        guard let first = text.first else { return true }
        if first == doubleQuote || first == singleQuote {
            guard let end = quotedEnd(text) else { return false }
            return isTail(text[end...])
        }
        if flowList && first == UInt8(ascii: "[") {
            var rest = text.dropFirst().drop { $0 == space }
            if rest.first == UInt8(ascii: "]") { return isTail(rest.dropFirst()) }  // []
            while true {
                rest = rest.drop { $0 == space }
                guard let c = rest.first else { return false }
                if c == doubleQuote || c == singleQuote {
                    guard let end = quotedEnd(rest) else { return false }
                    rest = rest[end...]
                } else {
                    let end = rest.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "]") } ?? rest.endIndex
                    guard plainFlowItem(rest[..<end]) else { return false }
                    rest = rest[end...]
                }
                rest = rest.drop { $0 == space }
                guard let separator = rest.first else { return false }
                rest = rest.dropFirst()
                if separator == UInt8(ascii: "]") { return isTail(rest) }
                guard separator == UInt8(ascii: ",") else { return false }
            }
        }
        return plainScalar(text)
    }

    /// The index after the closing quote of a quoted scalar at the start of `text`, whose inside
    /// has no quote character of its kind and no backslash.
    private static func quotedEnd(_ text: ArraySlice<UInt8>) -> Int? {
        guard let quote = text.first else { return nil }
        var i = text.startIndex + 1
        while i < text.endIndex {
            if text[i] == quote { return i + 1 }
            if text[i] == UInt8(ascii: "\\") || text[i] == doubleQuote || text[i] == singleQuote { return nil }
            i += 1
        }
        return nil
    }

    /// Nothing, blanks, or blanks and a comment.
    private static func isTail(_ text: ArraySlice<UInt8>) -> Bool {
        let rest = text.drop { $0 == space }
        return rest.isEmpty || (rest.first == hash && rest.startIndex > text.startIndex)
    }

    /// A plain scalar in block context: no indicator first, no `: ` or trailing `:` (a mapping
    /// inside), up to a ` #` comment.
    private static func plainScalar(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first, !indicators.contains(first) else { return false }
        var value = text
        if let comment = commentStart(text) { value = text[..<comment] }
        while value.last == space { value = value.dropLast() }
        guard !value.isEmpty, value.last != colon else { return false }
        var i = value.startIndex
        while i < value.endIndex - 1 {
            if value[i] == colon && value[i + 1] == space { return false }
            i += 1
        }
        return true
    }

    /// An item of a one-line `[a, b]`: plain text without flow indicators, `:`, `#` or quotes.
    private static func plainFlowItem(_ text: ArraySlice<UInt8>) -> Bool {
        var item = text.drop { $0 == space }
        while item.last == space { item = item.dropLast() }
        guard let first = item.first, !indicators.contains(first) else { return false }
        return !item.contains { "{}[],:#\"'".utf8.contains($0) }
    }

    /// The index of a comment's `#` (one that follows a blank).
    private static func commentStart(_ text: ArraySlice<UInt8>) -> Int? {
        var i = text.startIndex + 1
        while i < text.endIndex {
            if text[i] == hash && text[i - 1] == space { return i }
            i += 1
        }
        return nil
    }

    /// Characters that cannot start a plain scalar (or start one only in some contexts).
    private static let indicators: Set<UInt8> = Set("-?:,[]{}#&*!|>'\"%@`".utf8)
}
