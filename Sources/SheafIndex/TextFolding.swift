// unicode61's remove_diacritics folds Latin letters only. Greek accents (ά, έ, ΐ) are folded
// here, on the way into the index and on the query, so that καλημέρα finds ΚΑΛΗΜΕΡΑ. Only text
// that holds Greek pays for it.
import Foundation

enum TextFolding {
    /// Greek and Coptic (U+0370-03FF, lead bytes 0xCD-0xCF) or Greek Extended (U+1F00-1FFF).
    static func hasGreek(_ s: String) -> Bool {
        ScalarScan.contains(s, leadAtLeast: 0xCD) { (0x0370...0x03FF).contains($0) || (0x1F00...0x1FFF).contains($0) }
    }

    /// Whether `s` is plain ASCII: most notes are, and a byte check is far cheaper than scalars.
    static func isASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }

    /// `s` with Greek diacritics removed; other text unchanged.
    static func foldGreek(_ s: String) -> String {
        guard hasGreek(s) else { return s }
        return s.folding(options: .diacriticInsensitive, locale: nil)
    }
}
