// The byte shape of a text apart from its words: a leading UTF-8 BOM and the line ending of each
// line. The note merge compares texts without them (a side that only converted its line endings,
// or added a BOM, changed no line), then writes the result in the local side's shape, so lines
// the remote side brought do not mix their endings into the note (docs/merging.md, "Byte shape").

#if canImport(Glibc)
import Glibc
#endif

struct TextShape {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    var hasBOM: Bool
    /// The ending of a line that the text's own lines do not decide.
    var ending: String
    /// For a text with both endings: the endings of its lines, by the line's bytes, in order.
    var endings: [[UInt8]: [String]]

    /// The shape of `bytes`. A text without a line break takes its ending from the first of
    /// `others` that has one ("\n" when none has).
    init(of bytes: [UInt8], others: [[UInt8]]) {
        hasBOM = bytes.starts(with: Self.bom)
        var lf = 0, crlf = 0
        var first: String? = nil
        Self.forEachLine(bytes) { _, ending in
            guard let ending else { return }
            if ending == "\n" { lf += 1 } else { crlf += 1 }
            if first == nil { first = ending }
        }
        if lf > 0 && crlf > 0 {
            // Mixed endings only: each line's ending by its bytes.
            var byLine: [[UInt8]: [String]] = [:]
            Self.forEachLine(bytes) { content, ending in
                if let ending { byLine[Array(content), default: []].append(ending) }
            }
            ending = lf == crlf ? first! : (lf > crlf ? "\n" : "\r\n")
            endings = byLine
        } else if let first {
            ending = first
            endings = [:]
        } else {
            ending = others.lazy.compactMap(Self.firstEnding).first ?? "\n"
            endings = [:]
        }
    }

    /// `bytes` without a leading BOM and with every CRLF as LF.
    static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        forEachLine(bytes) { content, ending in
            out += content
            if ending != nil { out.append(UInt8(ascii: "\n")) }
        }
        return out
    }

    /// Normalized `bytes` (LF endings, no BOM) written in this shape.
    func apply(to bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = hasBOM ? Self.bom : []
        out.reserveCapacity(bytes.count + bytes.count / 16 + 3)
        var used: [[UInt8]: Int] = [:]
        Self.forEachLine(bytes) { content, lineEnding in
            out += content
            guard lineEnding != nil else { return }
            var chosen = ending
            if !endings.isEmpty, let list = endings[Array(content)] {
                let n = used[Array(content), default: 0]
                if n < list.count { chosen = list[n]; used[Array(content)] = n + 1 }
            }
            out += Array(chosen.utf8)
        }
        return out
    }

    /// Calls `body` with each line's bytes (BOM and terminator excluded) and its terminator
    /// ("\n", "\r\n", or nil for a last line without one).
    private static func forEachLine(_ bytes: [UInt8], _ body: (ArraySlice<UInt8>, String?) -> Void) {
        var start = bytes.starts(with: Self.bom) ? 3 : 0
        // Line breaks found with memchr (a byte loop in Swift is slow in debug builds).
        let breaks: [Int] = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            var found: [Int] = []
            var at = start
            while at < buffer.count, let hit = memchr(base + at, 10, buffer.count - at) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                found.append(i)
                at = i + 1
            }
            return found
        }
        for i in breaks {
            let crlf = i > start && bytes[i - 1] == UInt8(ascii: "\r")
            body(bytes[start..<(crlf ? i - 1 : i)], crlf ? "\r\n" : "\n")
            start = i + 1
        }
        if start < bytes.count { body(bytes[start...], nil) }
    }

    private static func firstEnding(_ bytes: [UInt8]) -> String? {
        guard let nl = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return nl > 0 && bytes[nl - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n"
    }
}
