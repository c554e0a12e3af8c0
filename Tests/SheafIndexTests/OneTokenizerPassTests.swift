// The `sheaf` tokenizer makes its words and stems in one unicode61 pass (WordsAndStems.swift).
// Indexes made before must stay valid: the tokens, their order, positions, byte offsets and
// colocated flags are compared here, one by one, with the two passes the tokenizer used to make
// (SQLite's unicode61, and porter over unicode61, merged word by word).
import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import SheafIndex

@Suite struct OneTokenizerPassTests {
    /// One token as FTS5 receives it.
    struct Token: Equatable, CustomStringConvertible {
        let colocated: Bool
        let bytes: [UInt8]
        let start: Int32
        let end: Int32
        var description: String { "\(colocated ? "+" : "")\(String(decoding: bytes, as: UTF8.self).debugDescription)@\(start)-\(end)" }
    }

    static let corpus: [String] = [
        "Running runs ran; the runner was running late. RUNNING Runs",
        "Café naïve résumé déjà-vu Ångström Øresund Straße façade coöperate e\u{301}te\u{301}",
        "日本語のテキストを検索する 한국어 텍스트 中文混合English文本 ｶﾀｶﾅ",
        "Ελληνικά καλημέρα ΚΑΛΗΜΕΡΑ Русский текст бегущий naïveté",
        "3.14 2026-11-27 v2 x86_64 abc123def 1st 2nd 10,000 0x1F #tag/sub",
        "don't it's O'Neil's rock'n'roll ‘quoted’ “double” l’été",
        "a an to is by of it go ox as at be do if in me my no on or so up us we",
        String(repeating: "antidisestablishmentarianism", count: 3) + " pneumonoultramicroscopicsilicovolcanoconiosis"
            + " " + String(repeating: "running", count: 9) + " " + String(repeating: "x", count: 64) + "ing "
            + String(repeating: "y", count: 62) + "ies",
        """
        connection connections connective connected connecting relational conditional rational valenci
        hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication
        operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate
        formative formalize electriciti electrical hopeful goodness revival allowance inference airliner
        gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou
        communism activate angulariti homologous effective bowdlerize probate rate cease controll roll
        generalizations oscillators caresses ponies ties caress cats feed agreed plastered bled motoring sing
        conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky
        """,
        "emoji 🎉 party🎉time ﬁne ligature ™ © ½ ① tab\there\nnew\r\nline\u{0}nul \u{1}marker \u{2}exact",
        "Mixed: naïve日本running Ελλάδα123 ün-ïcode — dash – en … ellipsis ‐ hyphen",
        "   ", "", "x", "éé",
    ]

    /// The tokens `tokenizer` gives `text`.
    static func tokens(_ tokenizer: any FTS5Tokenizer, _ text: String, _ tokenization: FTS5Tokenization) -> [Token] {
        var out: [Token] = []
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
                withUnsafeMutablePointer(to: &out) { out in
                    _ = tokenizer.tokenize(context: out, tokenization: tokenization, pText: text.baseAddress, nText: CInt(text.count)) {
                        out, flags, token, length, start, end in
                        let bytes = token.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
                        out!.assumingMemoryBound(to: [Token].self).pointee
                            .append(Token(colocated: flags & FTS5_TOKEN_COLOCATED != 0, bytes: bytes, start: start, end: end))
                        return SQLITE_OK
                    }
                }
            }
        }
        return out
    }

    /// What the tokenizer gave before one pass: the words of unicode61 and the stems of porter over
    /// unicode61, two runs lined up token by token.
    static func twoPasses(_ db: Database, _ text: String, _ tokenization: FTS5Tokenization) throws -> [Token] {
        let words = tokens(try db.makeTokenizer(.unicode61(diacritics: .remove)), text, tokenization)
        let stems = tokens(try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .remove))), text, tokenization)
        #expect(words.count == stems.count)
        let marked = { (stem: Token) in Token(colocated: true, bytes: [0x01] + stem.bytes, start: stem.start, end: stem.end) }
        if tokenization.contains(.prefix) { return words }
        if tokenization.contains(.query) { return stems.flatMap { [$0, marked($0)] } }
        return zip(words, stems).flatMap { word, stem in
            #expect(word.start == stem.start && word.end == stem.end)
            return word.bytes == stem.bytes ? [word] : [word, marked(stem)]
        }
    }

    func connection() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: StemAndWordTokenizer.self) }
        return try DatabaseQueue(configuration: config)
    }

    /// Regression (issue 28, cold index): the tokenizer ran unicode61 twice over every text, on
    /// the single writer's thread. One pass must give the very tokens the two gave, in documents
    /// and in queries (a word with its stem synonyms; a prefix or `=exact` unstemmed).
    @Test func oneTokenizerPassGivesTheTokensOfTheTwoPasses() throws {
        try connection().inDatabase { db in
            let sheaf = try db.makeTokenizer(FTS5TokenizerDescriptor(components: [StemAndWordTokenizer.name]))
            for text in Self.corpus {
                #expect(Self.tokens(sheaf, text, .document) == (try Self.twoPasses(db, text, .document)), "\(text.debugDescription)")
                #expect(Self.tokens(sheaf, text, .query) == (try Self.twoPasses(db, text, .query)), "\(text.debugDescription)")
                #expect(Self.tokens(sheaf, text, [.query, .prefix]) == (try Self.twoPasses(db, text, [.query, .prefix])))
                let exact = "\u{2}" + text
                #expect(Self.tokens(sheaf, exact, .query) == Self.tokens(try db.makeTokenizer(.unicode61(diacritics: .remove)), exact, .query))
            }
            // The corpus holds stems that differ and words over porter's 64 bytes.
            let all = Self.corpus.flatMap { Self.tokens(sheaf, $0, .document) }
            #expect(all.contains { $0.colocated } && all.contains { $0.bytes.count > 64 })
        }
    }
}
