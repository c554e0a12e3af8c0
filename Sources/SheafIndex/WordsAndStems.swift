// One unicode61 pass gives the `sheaf` tokenizer's every token: each word as written and, when
// porter stems it to something else, the stem behind `stemMarker` at the same position. The
// tokenizer used to run unicode61 twice over each text (once alone, once under porter) and merge
// the two streams; that double pass was most of the single writer's time in a cold index. Porter
// stems one token at a time, keeping nothing between tokens, so SQLite's own porter is given each
// word alone (wrapping `sheaf_one`, a tokenizer that hands its whole input on as one token): the
// same stems, positions and offsets as before, so no index needs rebuilding
// (`OneTokenizerPassTests` compares the two, token by token).
//
// The tokenizers are SQLite's, made through the connection's `fts5_api` and called directly (no
// Swift object per token).
import GRDB
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One instance of a tokenizer registered with an `fts5_api`, called through its C functions. Not
/// for two threads at once (SQLite's tokenizers keep a buffer per instance).
final class SQLiteTokenizer {
    typealias Tokenize = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, CInt,
                                         FTS5TokenCallback?) -> CInt
    private let methods: fts5_tokenizer
    let handle: OpaquePointer
    let xTokenize: Tokenize

    /// `components`: the name and its arguments, as in `tokenize='...'`.
    init(api: UnsafePointer<fts5_api>, _ components: [String]) throws {
        var methods = fts5_tokenizer()
        var context: UnsafeMutableRawPointer?
        let mutableAPI = UnsafeMutablePointer(mutating: api)
        var rc = api.pointee.xFindTokenizer!(mutableAPI, components[0], &context, &methods)
        guard rc == SQLITE_OK, let create = methods.xCreate, methods.xTokenize != nil else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "no FTS5 tokenizer \(components[0])")
        }
        var handle: OpaquePointer?
        let arguments = components.dropFirst().map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var pointers = arguments.map { UnsafePointer($0) }
        rc = pointers.withUnsafeMutableBufferPointer { create(context, $0.baseAddress, CInt($0.count), &handle) }
        guard rc == SQLITE_OK, let handle else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot make \(components[0])") }
        self.methods = methods
        self.handle = handle
        xTokenize = methods.xTokenize!
    }

    deinit { methods.xDelete?(handle) }
}

/// unicode61 (`remove_diacritics 2`) once over a text, porter per word: the `sheaf` tokenizer's
/// tokens (StemAndWordTokenizer.swift says what they mean).
struct WordsAndStems {
    enum Mode {
        /// Each word, then its marked stem at the same position when it differs: what is indexed.
        case document
        /// Each word's stem, then the stem marked, at the same position: a word or phrase queried.
        case queryStems
        /// Each word alone: a prefix or an exact term queried.
        case queryWords
    }

    /// The byte before a stem that differs from its word, in the index and in query synonyms.
    /// unicode61 treats control characters as separators, so no word ever contains it.
    static let stemMarker: CChar = 0x01
    /// The tokenizer that hands its whole input on as one token (what porter wraps here).
    static let oneTokenName = "sheaf_one"

    private let words: SQLiteTokenizer
    private let stems: SQLiteTokenizer

    /// The tokenizers, made through `api` (a connection's), on which `sheaf_one` is registered
    /// first when it is not yet.
    init(api: UnsafePointer<fts5_api>) throws {
        Self.registerOneToken(api)
        words = try SQLiteTokenizer(api: api, ["unicode61", "remove_diacritics", "2"])
        stems = try SQLiteTokenizer(api: api, ["porter", Self.oneTokenName])
    }

    /// Calls `callback(context, ...)` for each token of `text`, as FTS5's xToken. `stemming`,
    /// in a document: the words porter is given (those starting with one of these bytes); the
    /// others come without their marked stem (Highlighter: a stem can only be some query stem
    /// when the word starts as that stem does).
    func tokenize(_ text: UnsafePointer<CChar>?, _ count: CInt, _ mode: Mode, flags: CInt,
                  context: UnsafeMutableRawPointer?, stemming: [[CChar]]? = nil, callback: FTS5TokenCallback) -> CInt {
        guard let text, count > 0 else { return SQLITE_OK }
        if mode == .queryWords { return words.xTokenize(words.handle, context, flags, text, count, callback) }
        let pass = UnsafeMutablePointer<Pass>.allocate(capacity: 1)
        pass.initialize(to: Pass(context: context, callback: callback, query: mode == .queryStems,
                                 stems: stems.xTokenize, stemsHandle: stems.handle, stemming: stemming))
        defer { pass.pointee.marked.deallocate(); pass.deinitialize(count: 1); pass.deallocate() }
        return words.xTokenize(words.handle, pass, flags, text, count) { pass, tokenFlags, token, length, start, end in
            Pass.word(pass!.assumingMemoryBound(to: Pass.self), tokenFlags, token, length, start, end)
        }
    }

    /// One text's pass: the word porter is stemming, and where its marked stem is made. It lives
    /// behind a plain pointer: the callbacks run per token.
    private struct Pass {
        let context: UnsafeMutableRawPointer?
        let callback: FTS5TokenCallback
        let query: Bool
        let stems: SQLiteTokenizer.Tokenize
        let stemsHandle: OpaquePointer
        var word: UnsafePointer<CChar>?
        var wordLength: CInt = 0
        var flags: CInt = 0
        var start: CInt = 0
        var end: CInt = 0
        var marked = UnsafeMutableBufferPointer<CChar>.allocate(capacity: 80)
        let stemming: [[CChar]]?

        init(context: UnsafeMutableRawPointer?, callback: FTS5TokenCallback, query: Bool,
             stems: SQLiteTokenizer.Tokenize, stemsHandle: OpaquePointer, stemming: [[CChar]]?) {
            self.context = context
            self.callback = callback
            self.query = query
            self.stems = stems
            self.stemsHandle = stemsHandle
            self.stemming = stemming
        }

        /// Whether porter is given `token`.
        func wantsStem(_ token: UnsafePointer<CChar>, _ length: CInt) -> Bool {
            guard let stemming else { return true }
            return stemming.contains { start in
                start.count <= Int(length) && (start.isEmpty || memcmp(start, token, start.count) == 0)
            }
        }

        /// A word from unicode61: in a document, emitted as written; then porter is given it alone.
        static func word(_ pass: UnsafeMutablePointer<Pass>, _ flags: CInt, _ token: UnsafePointer<CChar>?, _ length: CInt,
                         _ start: CInt, _ end: CInt) -> CInt {
            if !pass.pointee.query {
                let rc = pass.pointee.callback(pass.pointee.context, flags, token, length, start, end)
                guard rc == SQLITE_OK else { return rc }
            }
            guard let token, length > 0, pass.pointee.wantsStem(token, length) else { return SQLITE_OK }
            pass.pointee.word = token
            pass.pointee.wordLength = length
            pass.pointee.flags = flags
            pass.pointee.start = start
            pass.pointee.end = end
            return pass.pointee.stems(pass.pointee.stemsHandle, pass, 0, token, length) { pass, _, stem, length, _, _ in
                Pass.stem(pass!.assumingMemoryBound(to: Pass.self), stem, length)
            }
        }

        /// The word's stem from porter: in a query the stem and its marked synonym; in a
        /// document the marked stem, when it is not the word itself.
        static func stem(_ pass: UnsafeMutablePointer<Pass>, _ stem: UnsafePointer<CChar>?, _ length: CInt) -> CInt {
            guard let stem, length > 0 else { return SQLITE_OK }
            let p = pass.pointee
            if p.query {
                let rc = p.callback(p.context, p.flags, stem, length, p.start, p.end)
                guard rc == SQLITE_OK else { return rc }
            } else if length == p.wordLength, let word = p.word, memcmp(stem, word, Int(length)) == 0 {
                return SQLITE_OK
            }
            if p.marked.count < Int(length) + 1 {
                p.marked.deallocate()
                pass.pointee.marked = .allocate(capacity: Int(length) + 1)
            }
            let marked = pass.pointee.marked
            marked[0] = WordsAndStems.stemMarker
            UnsafeMutableRawPointer(marked.baseAddress! + 1).copyMemory(from: stem, byteCount: Int(length))
            return p.callback(p.context, FTS5_TOKEN_COLOCATED, marked.baseAddress, length + 1, p.start, p.end)
        }
    }

    /// Registers `sheaf_one` with `api` unless it is there.
    private static func registerOneToken(_ api: UnsafePointer<fts5_api>) {
        let mutableAPI = UnsafeMutablePointer(mutating: api)
        var context: UnsafeMutableRawPointer?
        var found = fts5_tokenizer()
        guard api.pointee.xFindTokenizer!(mutableAPI, oneTokenName, &context, &found) != SQLITE_OK else { return }
        var methods = fts5_tokenizer(
            xCreate: { _, _, _, handle in
                // No state: any non-null handle will do.
                handle?.pointee = OpaquePointer(bitPattern: 1)
                return SQLITE_OK
            },
            xDelete: { _ in },
            xTokenize: { _, context, flags, text, count, callback in
                guard let text, count > 0 else { return SQLITE_OK }
                return callback!(context, flags, text, count, 0, count)
            })
        _ = api.pointee.xCreateTokenizer(mutableAPI, oneTokenName, nil, &methods, nil)
    }
}
