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
// It works on the C level (GRDB's FTS5CustomTokenizer hands over the text and SQLite's token
// callback): no Swift String per token. Both wrapped tokenizers are SQLite's own; porter emits
// exactly one token per unicode61 token, so the two runs line up token by token.
import GRDB
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#endif

final class StemAndWordTokenizer: FTS5CustomTokenizer {
    static let name = "sheaf"
    /// The byte before a stem that differs from its word, in the index and in query synonyms.
    /// unicode61 treats control characters as separators, so no word ever contains it.
    static let stemMarker: CChar = 0x01
    /// The first character of a query string whose words are matched exactly, without stems
    /// (what `=word` compiles to, after the opening quote). The compiler removes it from user text.
    static let exactMarker: Character = "\u{2}"
    private static let exactMarkerByte = CChar(bitPattern: 0x02)

    private let stems: any FTS5Tokenizer
    private let words: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        stems = try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .remove)))
        words = try db.makeTokenizer(.unicode61(diacritics: .remove))
    }

    func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
                  pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback) -> CInt {
        if tokenization.contains(.query) {
            // `word*` and `=word`: the unstemmed word, which is always indexed unmarked.
            if tokenization.contains(.prefix) || (nText > 0 && pText?.pointee == Self.exactMarkerByte) {
                return words.tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText,
                                      tokenCallback: tokenCallback)
            }
            // Anything else: its stem, unmarked (the word was its own stem) or marked.
            let synonyms = UnsafeMutablePointer<Synonyms>.allocate(capacity: 1)
            synonyms.initialize(to: Synonyms(context: context, callback: tokenCallback))
            defer { synonyms.deinitialize(count: 1); synonyms.deallocate() }
            return stems.tokenize(context: synonyms, tokenization: tokenization, pText: pText, nText: nText) { ctx, flags, token, length, start, end in
                ctx!.assumingMemoryBound(to: Synonyms.self).pointee.emit(flags, token, length, start, end)
            }
        }
        // The state lives behind a plain pointer: the callbacks run per token, and a class's
        // properties would pay a dynamic exclusivity check on every access.
        let run = UnsafeMutablePointer<Run>.allocate(capacity: 1)
        run.initialize(to: Run(context: context, callback: tokenCallback))
        defer { run.deinitialize(count: 1); run.deallocate() }
        // First the words, kept in one buffer.
        var rc = words.tokenize(context: run, tokenization: tokenization, pText: pText, nText: nText) { ctx, _, token, length, _, _ in
            ctx!.assumingMemoryBound(to: Run.self).pointee.keep(token, Int(length))
            return SQLITE_OK
        }
        guard rc == SQLITE_OK else { return rc }
        // Then the stems: each word, followed by its marked stem when they differ.
        rc = stems.tokenize(context: run, tokenization: tokenization, pText: pText, nText: nText) { ctx, flags, token, length, start, end in
            ctx!.assumingMemoryBound(to: Run.self).pointee.emit(flags, token, length, start, end)
        }
        return rc
    }

    /// `\u{1}` + the token, in a reused buffer, passed to `body`.
    fileprivate static func withMarked<R>(_ token: UnsafePointer<CChar>, _ length: Int, into buffer: inout [CChar],
                                          _ body: (UnsafePointer<CChar>, CInt) -> R) -> R {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(stemMarker)
        buffer.append(contentsOf: UnsafeBufferPointer(start: token, count: length))
        return buffer.withUnsafeBufferPointer { body($0.baseAddress!, CInt($0.count)) }
    }

    /// A query's stems, each with its marked synonym.
    private struct Synonyms {
        let context: UnsafeMutableRawPointer?
        let callback: FTS5TokenCallback
        var marked: [CChar] = []

        init(context: UnsafeMutableRawPointer?, callback: @escaping FTS5TokenCallback) {
            self.context = context
            self.callback = callback
        }

        mutating func emit(_ flags: CInt, _ token: UnsafePointer<CChar>?, _ length: CInt, _ start: CInt, _ end: CInt) -> CInt {
            let rc = callback(context, flags, token, length, start, end)
            guard rc == SQLITE_OK, let token, length > 0 else { return rc }
            let (context, callback) = (self.context, self.callback)
            return StemAndWordTokenizer.withMarked(token, Int(length), into: &marked) { text, count in
                callback(context, FTS5_TOKEN_COLOCATED, text, count, start, end)
            }
        }
    }

    /// One document's tokenization: the words of the first pass, then the merge.
    private struct Run {
        let context: UnsafeMutableRawPointer?
        let callback: FTS5TokenCallback
        var bytes: [CChar] = []
        var ends: [Int] = []
        var next = 0
        var marked: [CChar] = []

        init(context: UnsafeMutableRawPointer?, callback: @escaping FTS5TokenCallback) {
            self.context = context
            self.callback = callback
            bytes.reserveCapacity(4096)
            ends.reserveCapacity(512)
            marked.reserveCapacity(64)
        }

        mutating func keep(_ token: UnsafePointer<CChar>?, _ length: Int) {
            if let token, length > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: token, count: length)) }
            ends.append(bytes.count)
        }

        mutating func emit(_ flags: CInt, _ token: UnsafePointer<CChar>?, _ length: CInt, _ start: CInt, _ end: CInt) -> CInt {
            guard next < ends.count, let token, length > 0 else { return callback(context, flags, token, length, start, end) }
            let from = next == 0 ? 0 : ends[next - 1], to = ends[next]
            next += 1
            let (context, callback) = (self.context, self.callback)
            var same = true
            let rc = bytes.withUnsafeBufferPointer { all -> CInt in
                let word = UnsafeBufferPointer(rebasing: all[from..<to])
                guard let base = word.baseAddress, word.count > 0 else { return callback(context, flags, token, length, start, end) }
                same = word.count == Int(length) && memcmp(base, token, word.count) == 0
                return callback(context, flags, base, CInt(word.count), start, end)
            }
            guard rc == SQLITE_OK, !same else { return rc }
            return StemAndWordTokenizer.withMarked(token, Int(length), into: &marked) { text, count in
                callback(context, FTS5_TOKEN_COLOCATED, text, count, start, end)
            }
        }
    }
}
