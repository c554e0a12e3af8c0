// The FTS5 tokenizer `sheaf`: every word of `unicode61 remove_diacritics 2` is indexed as written
// (folded, unstemmed), and when its porter stem differs, the stem goes at the same position behind
// a marker byte (`running` is `running` + `\u{1}run`; `run` is `run` alone). So an unmarked token
// is always a word that occurs in the text:
// - a word or phrase (`running`) is looked up by its stem, both marked and unmarked (FTS5 query
//   synonyms: `run` OR `\u{1}run`), and matches `run`, `runs` and `running`;
// - an exact term (`=run`, compiled with `exactMarker` before its text) is looked up unstemmed and
//   unmarked, and matches `run` only, never `running`;
// - a prefix (`runn*`) is looked up unstemmed and matches the words only.
// Indexing the stem only when it differs keeps one token per word where the stem is the word,
// and the marker costs a byte in the term dictionary, not in the postings.
//
// The tokens come from one unicode61 pass with porter per word (WordsAndStems.swift).
import GRDB
import GRDBSQLite

final class StemAndWordTokenizer: FTS5CustomTokenizer {
    static let name = "sheaf"
    /// The first character of a query string whose words are matched exactly, without stems
    /// (what `=word` compiles to, after the opening quote). The compiler removes it from user text.
    static let exactMarker: Character = "\u{2}"
    private static let exactMarkerByte = CChar(bitPattern: 0x02)

    private let pass: WordsAndStems

    init(db: Database, arguments: [String]) throws {
        pass = try WordsAndStems(api: FTS5.api(db))
    }

    func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
                  pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback) -> CInt {
        guard let pText, nText > 0 else { return SQLITE_OK }
        let mode: WordsAndStems.Mode
        if tokenization.contains(.query) {
            // `word*` and `=word`: the unstemmed word, which is always indexed unmarked; anything
            // else: its stem, unmarked (the word was its own stem) or marked.
            mode = tokenization.contains(.prefix) || pText.pointee == Self.exactMarkerByte ? .queryWords : .queryStems
        } else {
            mode = .document
        }
        return pass.tokenize(pText, nText, mode, flags: tokenization.rawValue, context: context, callback: tokenCallback)
    }
}
