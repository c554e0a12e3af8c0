// Chinese, Japanese and Korean have no spaces between words, and unicode61 glues a whole run of
// such characters into one token. Sheaf indexes every run also as overlapping bigrams
// ("日本語" gives "日本 本語") in its own column, and searches a CJK word as the phrase of its
// bigrams, so any substring of two or more characters is found.

enum CJKBigrams {
    static func isCJK(_ s: Unicode.Scalar) -> Bool { isCJK(s.value) }

    static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x3040...0x30FF,   // Hiragana, Katakana
             0x3400...0x4DBF,   // CJK Extension A
             0x4E00...0x9FFF,   // CJK Unified Ideographs
             0xF900...0xFAFF,   // Compatibility Ideographs
             0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF,  // Hangul
             0x20000...0x2FA1F: // Extensions B-F, supplement
            return true
        default:
            return false
        }
    }

    /// The runs of CJK characters in `text`.
    static func runs(_ text: String) -> [[Unicode.Scalar]] {
        var runs: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for s in text.unicodeScalars {
            if isCJK(s) { current.append(s) } else if !current.isEmpty { runs.append(current); current = [] }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    static func bigrams(_ run: [Unicode.Scalar]) -> [String] {
        if run.count == 1 { return [String(String.UnicodeScalarView(run))] }
        return (0..<(run.count - 1)).map { String(String.UnicodeScalarView(run[$0...($0 + 1)])) }
    }

    /// The bigrams of every CJK run in `texts`, space-separated; runs are kept apart by a
    /// token no CJK query contains ("0"), so a phrase never spans two runs.
    static func of(_ texts: [String]) -> String {
        var out: [String] = []
        for text in texts where contains(text) {
            for run in runs(text) { out.append(bigrams(run).joined(separator: " ")) }
        }
        return out.joined(separator: " 0 ")
    }

    /// Whether `text` holds a CJK character (the first, U+1100, has lead byte 0xE1).
    static func contains(_ text: String) -> Bool { ScalarScan.contains(text, leadAtLeast: 0xE1, where: isCJK) }
}
