// Line handling that keeps every byte: each line carries its own terminator ("\n", "\r\n" or
// none at end of file), so joining the pieces gives back the exact input.
// Swift treats "\r\n" as one Character, so splitting works on UTF-8 bytes. The small generic
// helpers are @inlinable: the scanner and the front-matter editor call them per line from other modules.

public enum Lines {
    /// Splits `text` into lines that keep their terminators. `"a\r\nb"` gives `["a\r\n", "b"]`.
    public static func split(_ text: Substring) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        let utf8 = text.utf8
        var i = utf8.startIndex
        while i != utf8.endIndex {
            if utf8[i] == UInt8(ascii: "\n") {
                let next = utf8.index(after: i)
                result.append(text[start..<next])
                start = next
            }
            i = utf8.index(after: i)
        }
        if start != text.endIndex { result.append(text[start...]) }
        return result
    }

    public static func split(_ text: String) -> [Substring] { split(text[...]) }

    /// The line without its terminator.
    @inlinable public static func content<S: StringProtocol>(_ line: S) -> Substring {
        var s = Substring(line)
        if s.utf8.last == UInt8(ascii: "\n") { s = s.dropLast() }  // "\r\n" is one Character
        return s
    }

    /// The terminator a line ends with ("\r\n", "\n" or "").
    @inlinable public static func terminator<S: StringProtocol>(_ line: S) -> String {
        let bytes = Substring(line).utf8
        if bytes.last != UInt8(ascii: "\n") { return "" }
        return bytes.dropLast().last == UInt8(ascii: "\r") ? "\r\n" : "\n"
    }

    /// The line ending a text mostly uses: CRLF when its first line break is CRLF.
    public static func dominantEnding(_ text: Substring) -> String {
        guard let nl = text.utf8.firstIndex(of: UInt8(ascii: "\n")) else { return "\n" }
        if nl != text.utf8.startIndex, text.utf8[text.utf8.index(before: nl)] == UInt8(ascii: "\r") {
            return "\r\n"
        }
        return "\n"
    }
}

extension StringProtocol {
    /// The text with spaces and tabs removed from its end.
    @inlinable public var trimmingTrailingBlanks: Substring {
        var s = Substring(self)
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }

    /// The text with spaces and tabs removed from both ends.
    @inlinable public var trimmingBlanks: Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }

    /// True when the text is empty or only spaces and tabs.
    @inlinable public var isBlank: Bool { allSatisfy { $0 == " " || $0 == "\t" } }
}

extension StringProtocol {
    /// Whether the text ends with a line break ("\n" or "\r\n"). `hasSuffix("\n")` is false for
    /// "\r\n", which Swift counts as one Character.
    @inlinable public var endsWithLineBreak: Bool { Substring(self).utf8.last == UInt8(ascii: "\n") }
}

extension StringProtocol {
    /// Equal byte for byte. Swift's `==` also equates canonically equivalent texts ("é" and
    /// "e\u{301}"), which YAML keys and a note's bytes do not: front-matter code compares keys,
    /// values and lines with this.
    @inlinable public func isIdentical<T: StringProtocol>(to other: T) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Array where Element: StringProtocol {
    /// Equal line by line, byte for byte.
    @inlinable public func isIdentical(to other: [Element]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.isIdentical(to: $1) }
    }
}

extension Unicode.Scalar {
    /// A tab, a space separator (Unicode's category Zs) or U+200B ZERO WIDTH SPACE: what
    /// Foundation's `CharacterSet.whitespaces` holds.
    @inlinable public var isHorizontalWhitespace: Bool {
        isASCII ? self == " " || self == "\t" : value == 0x200B || properties.generalCategory == .spaceSeparator
    }
}

extension StringProtocol {
    /// The text without horizontal white space at its ends: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives, by scalars, without bridging to NSString
    /// (whose first use costs a small command a tenth of a millisecond per call site).
    public var trimmingHorizontalWhitespace: String {
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isHorizontalWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isHorizontalWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
