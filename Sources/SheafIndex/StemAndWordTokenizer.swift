// The FTS5 tokenizer `sheaf`: porter stems over `unicode61 remove_diacritics 2`, plus the word
// itself (folded, unstemmed) at the same position whenever its stem differs. Porter indexes
// `running` as `run`, so a prefix query `runn*` found nothing; with the word colocated, prefix
// queries are tokenized unstemmed and match it, while words and phrases still match by stem.
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
    private let stems: any FTS5Tokenizer
    private let words: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        stems = try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .remove)))
        words = try db.makeTokenizer(.unicode61(diacritics: .remove))
    }

    func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
                  pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback) -> CInt {
        if tokenization.contains(.query) {
            // `word*`: the unstemmed word; anything else: its stem.
            let tokenizer = tokenization.contains(.prefix) ? words : stems
            return tokenizer.tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText,
                                      tokenCallback: tokenCallback)
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
        // Then the stems, each followed by its word when they differ.
        rc = stems.tokenize(context: run, tokenization: tokenization, pText: pText, nText: nText) { ctx, flags, token, length, start, end in
            ctx!.assumingMemoryBound(to: Run.self).pointee.emit(flags, token, length, start, end)
        }
        return rc
    }

    /// One document's tokenization: the words of the first pass, then the merge.
    private struct Run {
        let context: UnsafeMutableRawPointer?
        let callback: FTS5TokenCallback
        var bytes: [CChar] = []
        var ends: [Int] = []
        var next = 0

        init(context: UnsafeMutableRawPointer?, callback: @escaping FTS5TokenCallback) {
            self.context = context
            self.callback = callback
            bytes.reserveCapacity(4096)
            ends.reserveCapacity(512)
        }

        mutating func keep(_ token: UnsafePointer<CChar>?, _ length: Int) {
            if let token, length > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: token, count: length)) }
            ends.append(bytes.count)
        }

        mutating func emit(_ flags: CInt, _ token: UnsafePointer<CChar>?, _ length: CInt, _ start: CInt, _ end: CInt) -> CInt {
            let rc = callback(context, flags, token, length, start, end)
            guard rc == SQLITE_OK, next < ends.count else { return rc }
            let from = next == 0 ? 0 : ends[next - 1], to = ends[next]
            next += 1
            let (context, callback) = (self.context, self.callback)
            return bytes.withUnsafeBufferPointer { all -> CInt in
                let word = UnsafeBufferPointer(rebasing: all[from..<to])
                guard let base = word.baseAddress, word.count > 0 else { return SQLITE_OK }
                if word.count == Int(length), let token, memcmp(base, token, word.count) == 0 { return SQLITE_OK }
                return callback(context, FTS5_TOKEN_COLOCATED, base, CInt(word.count), start, end)
            }
        }
    }
}
