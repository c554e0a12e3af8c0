// `PlainFrontMatter` answers "a mapping with these keys" without a YAML parser, so it must never
// answer for a block Yams reads otherwise: every block it accepts is held to `FrontMatter(parsing:)`
// on blocks generated from lines that mix the plain shapes with their near misses.
import SheafCore
import Testing
import TestSupport

@Suite struct PlainFrontMatterTests {
    static func block(_ lines: [String]) -> FrontMatterBlock {
        FrontMatterBlock(lines: lines.map { $0 + "\n" })
    }

    static let keys = ["title", "date created", "café", "cafe\u{301}", "日付", "a-b.c/d", "2026", "null", "true",
                       "tags", "Tags", "k", "_x", "x y", "-x", "? x", "k ", "a:b", "\"q\"", "x#y", "a  b", "[k]",
                       "&a k", "1.5", String(repeating: "k", count: 1030)]
    static let values = ["plain words", "a: b", "a:b", "x #c", "x#c", "x  # c", "[a, b]", "[a, [b]]", "[a,]", "[]",
                         "[ ]", "[a b, c]", "[\"a, b\", 'c']", "[a: b]", "[a]#c", "[a] #c", "[a", "{a: b}", "\"q\"",
                         "\"q\\\"x\"", "\"a: #b\"", "'s''q'", "'a' #c", "\"a\"#c", "\"a\" x", "|", ">", "&a x", "*a",
                         "!tag x", "%x", "@x", "`x`", "x:", "x: ", "~", "-5", "- x", "-", "2026-01-01", "12:30",
                         "http://x.y", "C#", "a, b", "a\u{2028}b", "tab\there", "a\u{85}b", "\u{FEFF}x", "naïve",
                         "🎉 x", "\"unterminated", "'", "a \"b\" c", "a {b} [c]", "?x", ":x", ",x", "#x"]

    static func line(_ rng: inout SeededRandom) -> String {
        let key = keys.randomElement(using: &rng)!
        let value = values.randomElement(using: &rng)!
        let indent = String(repeating: " ", count: [0, 0, 2, 2, 4, 1].randomElement(using: &rng)!)
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1, 2, 3: return "\(key): \(value)"
        case 4: return "\(key):"
        case 5: return "\(key):  "
        case 6, 7: return "\(indent)- \(value)"
        case 8: return "\(indent)-"
        case 9: return "\(indent)# \(value)"
        case 10: return Bool.random(using: &rng) ? "" : indent
        case 11: return "\(indent)\(key): \(value)"
        case 12: return "\(indent)\(value)"
        default: return "\(key):\(value)"
        }
    }

    /// Whatever the plain reader accepts, Yams reads as a mapping with the same keys, byte for byte.
    @Test func everyBlockItAcceptsYamsReadsAsAMappingWithTheSameKeys() {
        var rng = SeededRandom(seed: 20261127)
        var accepted = 0, rejected = 0
        for round in 0..<6000 {
            let lines = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.line(&rng) }
            let block = Self.block(lines)
            guard let keys = PlainFrontMatter.keys(of: block) else { rejected += 1; continue }
            accepted += 1
            let parsed = try? FrontMatter(parsing: block)
            #expect(parsed != nil, "round \(round): accepted, but Yams cannot read it: \(lines)")
            if let parsed {
                #expect(parsed.entries.map { Array($0.key.utf8) } == keys.map { Array($0.utf8) },
                        "round \(round): \(lines)")
            }
        }
        #expect(accepted > 600 && rejected > 600, "accepted \(accepted), rejected \(rejected)")
    }

    @Test func theEverydayShapesAreAccepted() {
        let note = ["title: Trip to Lisbon", "date created: 2026-05-01", "tags: [travel, lisbon]", "aliases:",
                    "  - Lisbon trip", "  - \"Lisboa: 2026\"", "rating: 4  # out of 5", "# a comment", "",
                    "status: 'in progress'", "empty:", "links:", "- \"[[Other Note]]\"", "日付: 二〇二六年"]
        #expect(PlainFrontMatter.keys(of: Self.block(note)) ==
                ["title", "date created", "tags", "aliases", "rating", "status", "empty", "links", "日付"])
        #expect(PlainFrontMatter.keys(of: Self.block([])) == [])
        #expect(PlainFrontMatterRules().isValidMapping(Self.block(["a: 1", "a: 2"])) == false)
    }

    @Test func anythingElseIsLeftToAParser() {
        let others: [[String]] = [
            ["meta:", "  a: 1"],                   // a nested mapping
            ["title: a long", "  continued"],      // a multi-line plain scalar
            ["body: |", "  text"],                 // a block scalar
            ["a: &x 1", "b: *x"],                  // anchors
            ["a: !!str 1"],                        // a tag
            ["a: \"esc\\n\""],                     // an escape
            ["a:\tb"], ["\ta: b"],                 // tabs
            ["a: {b: c}"],                         // a flow mapping
            ["  a: 1"],                            // an indented key
            ["- a"],                               // a list, not a mapping
            ["a: b", "- c"],                       // an item after a value
            ["a:", "  - b", "- c"],                // items at two indentations
            ["a: b: c"], ["a: b:"],                // a mapping inside a plain value
            ["a: x\u{2028}y"],                     // a line separator, a line break for YAML
        ]
        for lines in others {
            #expect(PlainFrontMatter.keys(of: Self.block(lines)) == nil, "\(lines)")
        }
    }
}
