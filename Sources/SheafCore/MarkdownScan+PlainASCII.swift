// A snippet line made plain by bytes, for lines that are ASCII only. `plainTextByCharacters`
// walks Characters (grapheme clusters), which cost most of a search's snippets: each hit's
// lines are made plain until the first one that matches (perf, 200-note vault: a fifth of
// `sheaf search`). In ASCII without CR every byte is one Character (the only ASCII pair that is
// one grapheme cluster is CR LF), so comparing bytes is comparing Characters, and this gives
// exactly what the walk by Characters gives (MarkdownScanTests checks it on random lines).
extension MarkdownScan {
    /// Whether `plainTextASCII` may make this range plain: ASCII, no CR.
    static func isPlainASCII(_ b: [UInt8], _ p: Int, _ end: Int) -> Bool {
        var i = p
        while i < end {
            if b[i] >= 0x80 || b[i] == 0x0D { return false }
            i += 1
        }
        return true
    }

    /// `plainTextByCharacters`, step for step, on bytes; only for ranges `isPlainASCII` accepts.
    static func plainTextASCII(_ b: [UInt8], _ p: Int, _ end: Int) -> String {
        func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        /// The first `needle` at or after `from`, before `limit`.
        func first(_ needle: UInt8, from: Int, limit: Int) -> Int? {
            var k = from
            while k < limit { if b[k] == needle { return k }; k += 1 }
            return nil
        }
        /// The first `]]` at or after `from`: the index of its first `]`.
        func closingPair(from: Int, limit: Int) -> Int? {
            var k = from
            while k + 1 < limit { if b[k] == 0x5D && b[k + 1] == 0x5D { return k }; k += 1 }
            return nil
        }
        var s = p, e = end
        // List markers and quotes at the start, each followed by trimming both ends.
        while s < e, b[s] == 0x3E || b[s] == 0x2D || b[s] == 0x2A || b[s] == 0x2B {
            s += 1
            while s < e && isBlank(b[s]) { s += 1 }
            while e > s && isBlank(b[e - 1]) { e -= 1 }
        }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var i = s
        while i < e {
            let c = b[i]
            let next: UInt8? = i + 1 < e ? b[i + 1] : nil
            if c == 0x21, next == 0x5B, i + 2 < e, b[i + 2] == 0x5B, let close = closingPair(from: i, limit: e) {
                i = close + 2  // `![[embed]]` says nothing in a snippet
                continue
            }
            if c == 0x21, next == 0x5B, let paren = first(0x29, from: i, limit: e) {
                i = paren + 1  // `![alt](image)`
                continue
            }
            if c == 0x5B, next == 0x5B, let close = closingPair(from: i, limit: e) {
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
            if c == 0x5B, let close = first(0x5D, from: i, limit: e), close + 1 < e, b[close + 1] == 0x28,
               let paren = first(0x29, from: close, limit: e) {
                out.append(contentsOf: b[(i + 1)..<close])  // `[text](url)`
                i = paren + 1
                continue
            }
            // An inline HTML tag (`<button class=...>`, `</span>`) is markup, not text.
            if c == 0x3C, let n = next, (n >= 0x41 && n <= 0x5A) || (n >= 0x61 && n <= 0x7A) || n == 0x2F,
               let close = first(0x3E, from: i, limit: e) {
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
