// A line made plain by bytes, for lines where every Unicode scalar is a Character of its own.
// `plainTextByCharacters` walks Characters (grapheme clusters), which cost most of a search's
// snippets: each hit's lines are made plain until the first one that matches, and the scanner
// makes each note's start plain. A line of ASCII without CR, or with letters and punctuation
// that never join a grapheme cluster (Latin, Greek, Cyrillic, CJK, dashes and quotes: no
// combining mark, joiner, emoji or Hangul jamo), has one Character per scalar; every piece of
// syntax is ASCII, and no scalar admitted here is canonically equivalent to one of them. So
// comparing bytes is comparing Characters, and this gives exactly what the walk by Characters
// gives (MarkdownScanTests checks both the admitted scalars and random lines).
extension MarkdownScan {
    /// Whether `plainTextByBytes` may make this range plain: well-formed UTF-8 whose scalars are
    /// each one Character (`isOwnCharacter`), and no CR (CR LF is one Character).
    static func isOneCharacterPerScalar(_ b: [UInt8], _ p: Int, _ end: Int) -> Bool {
        var i = p
        while i < end {
            let c = b[i]
            if c < 0x80 {
                if c == 0x0D { return false }
                i += 1
            } else if c >= 0xC2, c <= 0xDF, i + 1 < end, b[i + 1] & 0xC0 == 0x80 {
                guard isOwnCharacter(scalarValue(b, at: i)) else { return false }
                i += 2
            } else if c >= 0xE0, c <= 0xEF, i + 2 < end, b[i + 1] & 0xC0 == 0x80, b[i + 2] & 0xC0 == 0x80 {
                let value = scalarValue(b, at: i)
                guard value >= 0x800, isOwnCharacter(value) else { return false }  // no overlong form
                i += 3
            } else {
                return false
            }
        }
        return true
    }

    /// The value of the one-, two- or three-byte UTF-8 sequence at `k`, its bytes taken as they
    /// are (`isOneCharacterPerScalar` checks them).
    static func scalarValue(_ b: [UInt8], at k: Int) -> UInt32 {
        let c = b[k]
        if c < 0x80 { return UInt32(c) }
        if c < 0xE0 { return UInt32(c & 0x1F) << 6 | UInt32(b[k + 1] & 0x3F) }
        return UInt32(c & 0x0F) << 12 | UInt32(b[k + 1] & 0x3F) << 6 | UInt32(b[k + 2] & 0x3F)
    }

    /// Scalars past ASCII that are always a grapheme cluster of their own (Grapheme_Cluster_Break
    /// Other or Control) and equal, as a Character, no ASCII one: Latin-1 and Latin Extended,
    /// Greek and Coptic (not its question mark, which is `;`), Cyrillic without its combining
    /// marks, the dashes, quotes, bullets and ellipsis of General Punctuation, CJK punctuation
    /// without its tone marks, kana without its voicing marks, and the CJK Unified Ideographs.
    static func isOwnCharacter(_ v: UInt32) -> Bool {
        switch v {
        case 0xA0...0x24F, 0x370...0x37D, 0x37F...0x3FF, 0x400...0x482, 0x48A...0x4FF,
             0x2010...0x2027, 0x2030...0x205E, 0x3001...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x309B...0x30FF, 0x4E00...0x9FFF:
            return true
        default:
            return false
        }
    }

    /// `plainTextByCharacters`, step for step, on bytes; only for ranges `isOneCharacterPerScalar`
    /// accepts.
    static func plainTextByBytes(_ b: [UInt8], _ p: Int, _ end: Int) -> String {
        func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        /// `!`, `[`, `<`, `*`, `_`, backtick and `~`: the bytes the rules of the loop start at.
        func isMarkup(_ c: UInt8) -> Bool {
            switch c {
            case 0x21, 0x5B, 0x3C, 0x2A, 0x5F, 0x60, 0x7E: return true
            default: return false
            }
        }
        /// Whether the scalar starting at `k` is a letter, as `Character.isLetter` says.
        func isLetter(at k: Int) -> Bool {
            let c = b[k]
            if c < 0x80 { return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
            return Unicode.Scalar(scalarValue(b, at: k)).map { Character($0).isLetter } ?? false
        }
        var s = p, e = end
        // List markers and quotes at the start, each followed by trimming both ends.
        while s < e, b[s] == 0x3E || b[s] == 0x2D || b[s] == 0x2A || b[s] == 0x2B {
            s += 1
            while s < e && isBlank(b[s]) { s += 1 }
            while e > s && isBlank(b[e - 1]) { e -= 1 }
        }
        // The closers each opener looks for, one search of each kind (`ForwardSearch`).
        var pairs = ForwardSearch(limit: e), brackets = pairs, parens = pairs, angles = pairs
        func nextClosingPair(from: Int) -> Int? { pairs.first(from: from) { $0 + 1 < e && b[$0] == 0x5D && b[$0 + 1] == 0x5D } }
        func nextBracket(from: Int) -> Int? { brackets.first(from: from) { b[$0] == 0x5D } }
        func nextParen(from: Int) -> Int? { parens.first(from: from) { b[$0] == 0x29 } }
        func nextAngle(from: Int) -> Int? { angles.first(from: from) { b[$0] == 0x3E } }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var i = s
        while i < e {
            let c = b[i]
            if !isMarkup(c) {
                // A run of text up to the next byte any rule below starts at, copied at once.
                var j = i + 1
                while j < e && !isMarkup(b[j]) { j += 1 }
                out.append(contentsOf: b[i..<j])
                i = j
                continue
            }
            let next: UInt8? = i + 1 < e ? b[i + 1] : nil
            if c == 0x21, next == 0x5B, i + 2 < e, b[i + 2] == 0x5B, let close = nextClosingPair(from: i) {
                i = close + 2  // `![[embed]]` says nothing in a snippet
                continue
            }
            if c == 0x21, next == 0x5B, let paren = nextParen(from: i) {
                i = paren + 1  // `![alt](image)`
                continue
            }
            if c == 0x5B, next == 0x5B, let close = nextClosingPair(from: i) {
                // `[[target|shown]]`: the last non-empty piece between the bars.
                var pieceEnd = close, k = close
                while k > i + 2 {
                    if b[k - 1] == 0x7C {
                        if k < pieceEnd { break }
                        pieceEnd = k - 1
                    }
                    k -= 1
                }
                if k < pieceEnd { out.append(contentsOf: b[k..<pieceEnd]) }
                i = close + 2
                continue
            }
            if c == 0x5B, let close = nextBracket(from: i), close + 1 < e, b[close + 1] == 0x28,
               let paren = nextParen(from: close) {
                out.append(contentsOf: b[(i + 1)..<close])  // `[text](url)`
                i = paren + 1
                continue
            }
            // An inline HTML tag (`<button class=...>`, `</span>`) is markup, not text.
            if c == 0x3C, i + 1 < e, next == 0x2F || isLetter(at: i + 1), let close = nextAngle(from: i) {
                i = close + 1
                continue
            }
            if c == 0x2A || c == 0x5F || c == 0x60 || c == 0x7E { i += 1; continue }
            out.append(c)
            i += 1
        }
        var from = 0, to = out.count
        while from < to && isBlank(out[from]) { from += 1 }
        while to > from && isBlank(out[to - 1]) { to -= 1 }
        return String(decoding: out[from..<to], as: UTF8.self)
    }
}
