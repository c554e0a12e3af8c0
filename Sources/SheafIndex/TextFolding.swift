// unicode61's remove_diacritics folds Latin letters only. Greek accents (ά, έ, ΐ) are folded
// here, on the way into the index and on the query, so that καλημέρα finds ΚΑΛΗΜΕΡΑ. Only text
// that holds Greek pays for it.
import Foundation

enum TextFolding {
    static func hasGreek(_ s: String) -> Bool {
        !isASCII(s) && s.unicodeScalars.contains { (0x0370...0x03FF).contains($0.value) || (0x1F00...0x1FFF).contains($0.value) }
    }

    /// Whether `s` is plain ASCII: most notes are, and a byte check is far cheaper than scalars.
    static func isASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }

    /// `s` with Greek diacritics removed; other text unchanged.
    static func foldGreek(_ s: String) -> String {
        guard hasGreek(s) else { return s }
        return s.folding(options: .diacriticInsensitive, locale: nil)
    }
}
