// A note's FTS columns are tokenized where the note is parsed, on all cores, not by the single
// writer: its FTS insert then only replays what was recorded here (TokenReplay.swift). Tokenizing
// was most of the writer's thread in a cold index, while the parsing cores waited for it.
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The tokens the `sheaf` tokenizer emits for one text in a document, recorded.
struct TokenStream: Sendable {
    private struct Token {
        var flags: Int32
        /// Where the token's bytes end in `bytes`.
        var end: Int32
        var start: Int32
        var stop: Int32
    }

    private var bytes: [CChar] = []
    private var tokens: [Token] = []

    /// The tokens of `text`, made with this thread's share of the parsing tokenizers; nil when
    /// they cannot be made (the writer then tokenizes).
    static func of(_ text: String) -> TokenStream? {
        ParsingTokenizers.shared.with { pass in
            var stream = TokenStream()
            var text = text
            let rc = text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { text in
                    withUnsafeMutablePointer(to: &stream) { stream in
                        pass.tokenize(text.baseAddress, CInt(text.count), .document, flags: FTS5_TOKENIZE_DOCUMENT,
                                      context: stream) { stream, flags, token, length, start, stop in
                            stream!.assumingMemoryBound(to: TokenStream.self).pointee.record(flags, token, length, start, stop)
                        }
                    }
                }
            }
            return rc == SQLITE_OK ? stream : nil
        }
    }

    private mutating func record(_ flags: CInt, _ token: UnsafePointer<CChar>?, _ length: CInt, _ start: CInt, _ stop: CInt) -> CInt {
        if let token, length > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: token, count: Int(length))) }
        tokens.append(Token(flags: flags, end: Int32(bytes.count), start: start, stop: stop))
        return SQLITE_OK
    }

    /// Hands every token to FTS5's `callback`, as the tokenizer did when it was recorded.
    func replay(context: UnsafeMutableRawPointer?, callback: FTS5TokenCallback) -> CInt {
        bytes.withUnsafeBufferPointer { all in
            var from: Int32 = 0
            for token in tokens {
                let rc = callback(context, token.flags, all.baseAddress.map { $0 + Int(from) }, token.end - from, token.start, token.stop)
                guard rc == SQLITE_OK else { return rc }
                from = token.end
            }
            return SQLITE_OK
        }
    }
}

/// The tokenizers of the parsing cores: SQLite's, made through the `fts5_api` of an in-memory
/// connection kept for the process, one `WordsAndStems` per thread using one at a time.
final class ParsingTokenizers: @unchecked Sendable {  // `api` is only read; `idle` is behind its lock
    static let shared = ParsingTokenizers()

    private let connection: DatabaseQueue?
    private let api: UnsafePointer<fts5_api>?
    private let idle = Mutex<[WordsAndStems]>([])

    private init() {
        connection = try? DatabaseQueue()
        api = connection.map { queue in queue.inDatabase { FTS5.api($0) } }
    }

    /// `body` with tokenizers no other thread uses meanwhile; nil when none can be made.
    func with<R>(_ body: (WordsAndStems) -> R?) -> R? {
        guard let api else { return nil }
        // Made under the lock: the first one registers `sheaf_one` with the connection.
        guard let pass = idle.withLock({ $0.popLast() ?? (try? WordsAndStems(api: api)) }) else { return nil }
        defer { idle.withLock { $0.append(pass) } }
        return body(pass)
    }
}
