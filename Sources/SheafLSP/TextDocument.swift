// An editor's buffer as the server holds it: its text, and the conversions between the UTF-8
// offsets Sheaf's parser speaks and the positions the protocol speaks (line, and a character
// counted in UTF-16 code units, so `é` is one, `𝄞` and most emoji two).
import SheafKit
struct TextDocument {
    let uri: String
    /// The note's vault path, nil for a file outside the vault.
    let path: String?
    var version: Int
    private(set) var text: String
    private(set) var bytes: [UInt8]
    /// UTF-8 offset where each line starts.
    private(set) var lineStarts: [Int]
    /// The note's links and headings, parsed once per text (`LanguageServer.outline`).
    var outline: NoteOutline?
    /// The UTF-16 units before each offset, for positions.
    private(set) var columns = UTF16Columns([])

    init(uri: String, path: String?, version: Int, text: String) {
        self.uri = uri
        self.path = path
        self.version = version
        self.text = text
        self.bytes = []
        self.lineStarts = []
        replace(text)
    }

    mutating func replace(_ text: String) {
        self.text = text
        outline = nil
        bytes = Array(text.utf8)
        lineStarts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
        columns = UTF16Columns(bytes)
    }

    /// The line holding UTF-8 offset `offset`.
    func line(ofByte offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The end of line `line` (before its LF and a CR).
    func lineEnd(_ line: Int) -> Int {
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > lineStarts[line] && bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The protocol position of UTF-8 offset `offset`.
    func position(ofByte offset: Int) -> Position {
        let offset = max(0, min(offset, bytes.count))
        let line = line(ofByte: offset)
        return Position(line: line, character: columns.units(before: offset) - columns.units(before: lineStarts[line]))
    }

    /// The UTF-8 offset of a protocol position (clamped to the line, and to a character's start).
    func byteOffset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let start = lineStarts[position.line], end = lineEnd(position.line)
        var units = 0
        var offset = start
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        for scalar in line.unicodeScalars {
            if units >= position.character { break }
            units += scalar.utf16.count
            offset += scalar.utf8.count
        }
        return min(offset, end)
    }

    /// The text of line `line` up to UTF-8 offset `offset` on it.
    func linePrefix(upTo offset: Int) -> (start: Int, bytes: ArraySlice<UInt8>) {
        let line = line(ofByte: offset)
        return (lineStarts[line], bytes[lineStarts[line]..<offset])
    }

    func range(ofBytes range: Range<Int>) -> [String: Any] {
        ["start": position(ofByte: range.lowerBound).json, "end": position(ofByte: range.upperBound).json]
    }
}

struct Position: Equatable {
    let line: Int
    let character: Int

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    init?(_ json: Any?) {
        guard let object = json as? [String: Any], let line = object["line"] as? Int, let character = object["character"] as? Int else { return nil }
        self.init(line: line, character: character)
    }

    var json: [String: Any] { ["line": line, "character": character] }

    /// A range from the start of `line` to the start of `line` (where a jump lands).
    static func lineRange(_ line: Int) -> [String: Any] {
        let at = Position(line: line, character: 0).json
        return ["start": at, "end": at]
    }
}
