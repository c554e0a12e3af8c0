// A snippet's marks come from the index's tokenizer. Lines are compared with the query as the
// tokenizer hands their tokens over (slot masks); the first way, which keeps every token of the
// line by position, stays for Greek lines (folded token by token). Both must mark the same.
import Foundation
import GRDB
import SheafCore
import Testing
@testable import SheafIndex

@Suite struct HighlighterTests {
    func highlighter(_ query: String) throws -> (Highlighter, DatabaseQueue) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: StemAndWordTokenizer.self) }
        let db = try DatabaseQueue(configuration: configuration)
        let h = try db.read { db in try Highlighter(db: db, terms: SearchQuery.parse(query).terms) }
        return (h, db)
    }

    /// The slot masks mark what keeping every token marks, on random lines of words, their other
    /// forms, accents, case, CJK and punctuation, for words, prefixes, phrases, exact terms and
    /// OR groups; and they mark something where the query matched.
    @Test func lineMatchesBySlotsAreThoseByPositions() throws {
        let words = ["run", "running", "Runs", "ran", "café", "CAFE", "cafés", "naïve", "copy", "copied", "copying",
                     "three-way", "merge", "merges", "日本語", "日本", "本", "кофе", "Кофе", "x", "runner", "copywriter",
                     ",", ".", "—", "(", ")", "'", "don't", "e-mail", "email", "2026", "v1.2", "_", "*",
                     "possibility", "possible", "relational", "relate", "happy", "happiness", "happily", "generalization",
                     "general", "conditional", "hopping", "hoping", "filing", "agreed", "cats", "ponies", "caresses", "sensibility"]
        let queries = ["run", "running", "=run", "=running", "run*", "cop*", "cafe", "\"three-way merge\"", "\"copy merge\"",
                       "copy OR cafe", "日本", "本", "кофе", "naive", "=copying files", "email", "e-mail", "merge run*",
                       "\"run run\"", "title:run copy", "-run cafe", "v1", "possibility", "possible", "relational", "happy",
                       "generalize", "conditions", "hope", "file", "agree", "pony", "caress", "sensible", "go", "\"happy ponies\""]
        var generator = SystemRandomNumberGenerator()
        var marked = 0
        for query in queries {
            let (h, db) = try highlighter(query)
            try db.read { _ in
                for _ in 0..<300 {
                    let line = (0..<Int.random(in: 1...12, using: &generator))
                        .map { _ in words.randomElement(using: &generator)! }
                        .joined(separator: [" ", " ", "  ", "", "\t"].randomElement(using: &generator)!)
                    let bySlots = h.matchesBySlots(in: line, try #require(h.slots))
                    #expect(bySlots == h.matchesByPositions(in: line), "\(query) in \(line.debugDescription)")
                    #expect(bySlots == h.matches(in: line))
                    if !bySlots.isEmpty { marked += 1 }
                }
            }
        }
        #expect(marked > 1000)
    }

    /// Slots are bits of one word: a query of 64 token positions still takes them, one of 65
    /// (a long phrase) keeps every token by position instead, and both mark the phrase.
    @Test func aQueryOfMoreThan64TokensIsMatchedByPositions() throws {
        for count in [64, 65] {
            let words = (0..<count).map { "w\($0)" }
            let (h, db) = try highlighter("\"" + words.joined(separator: " ") + "\"")
            #expect((h.slots != nil) == (count <= 64))
            let line = "before " + words.joined(separator: " ") + " after"
            try db.read { _ in
                #expect(h.matches(in: line).map { String(line[$0]) } == [words.joined(separator: " ")])
            }
        }
    }

    /// A Greek line is folded token by token, so `ψυχη` marks `ψυχή`.
    @Test func aGreekLineIsStillMarkedWithItsAccentsFolded() throws {
        let (h, db) = try highlighter("ψυχη")
        let line = "Η ψυχή του"
        try db.read { _ in
            #expect(h.matches(in: line).map { String(line[$0]) } == ["ψυχή"])
        }
    }
}

extension HighlighterTests {
    /// The slot masks stem only the words that start as some query stem does, less its last two
    /// bytes (`Highlighter.stemStarts`): that holds when porter keeps all of a word but at most
    /// its last two bytes before what it adds. Checked on every word and stem SQLite's porter
    /// gives for the tokenizer tests' texts and for words built from porter's every suffix,
    /// stacked two deep.
    @Test func porterKeepsAllOfAWordButItsLastTwoBytesBeforeWhatItAdds() throws {
        let bases = ["run", "happ", "possib", "relat", "condit", "general", "hop", "fil", "agre", "pon", "care", "sens", "valen",
                     "digit", "radic", "analog", "vietnam", "predic", "feud", "decis", "call", "form", "electr", "goodn", "allow",
                     "infer", "adjust", "defens", "irrit", "replac", "depend", "adopt", "commun", "activ", "angul", "effect",
                     "bowdler", "prob", "ceas", "controll", "oscill", "troubl", "siz", "tann", "hiss", "fizz", "sk", "a", "ab",
                     "caf\u{E9}", "na\u{EF}v", "x1", "bl", "at", "iz", "y", "yy"]
        let suffixes = ["", "s", "es", "ies", "sses", "ss", "ed", "eed", "ing", "ings", "y", "ly", "ily", "bly", "ability", "ibility",
                        "biliti", "bility", "ational", "tional", "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli",
                        "ization", "ation", "ations", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "logi",
                        "icate", "ative", "alize", "iciti", "ical", "ically", "ful", "fully", "ness", "al", "ance", "ence", "er",
                        "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "sion", "tion", "ou", "ism", "ate", "iti",
                        "ous", "ive", "ize", "e", "ll", "at", "bl", "iz"]
        var words: [String] = []
        for base in bases { for first in suffixes { for second in suffixes { words.append(base + first + second) } } }
        let text = (OneTokenizerPassTests.corpus + words).joined(separator: " ")
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: StemAndWordTokenizer.self) }
        try DatabaseQueue(configuration: configuration).inDatabase { db in
            let plain = OneTokenizerPassTests.tokens(try db.makeTokenizer(.unicode61(diacritics: .remove)), text, .document)
            let stems = OneTokenizerPassTests.tokens(try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .remove))), text, .document)
            #expect(plain.count == stems.count && plain.count > 300_000)
            var changed = 0
            for (word, stem) in zip(plain, stems) where word.bytes != stem.bytes {
                changed += 1
                #expect(word.bytes.starts(with: stem.bytes.dropLast(2)), "\(word) stems to \(stem)")
            }
            #expect(changed > 100_000)
        }
    }
}
