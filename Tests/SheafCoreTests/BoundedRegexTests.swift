// The linear-time matcher behind Obsidian's `/regex/` ignore filters: JavaScript's answers on
// the syntax such filters use, refusals by name for what cannot run in bounded time.
import Testing
@testable import SheafCore

@Suite struct BoundedRegexTests {
    func matches(_ pattern: String, _ text: String) throws -> Bool {
        try BoundedRegex(pattern).matches(text)
    }

    @Test func answersAsJavaScriptDoes() throws {
        let table: [(String, String, Bool)] = [
            (#"\.excalidraw\.md$"#, "A/Drawing.excalidraw.md", true),
            (#"\.excalidraw\.md$"#, "A/Drawing.excalidraw.md.bak", false),
            (#"^Archive/.*\.md$"#, "Archive/2024/Old.md", true),
            (#"^Archive/"#, "Notes/Archive/x.md", false),
            ("chive", "Archive/x.md", true),                      // unanchored, as `test`
            (#"^(\D+)+\d{9}"#, "Scan 123456789.md", true),
            (#"^(\D+)+\d{9}"#, "Scan 12345678.md", false),
            ("colou?r", "A/color.md", true),
            ("^a{2,3}b", "aab", true), ("^a{2,3}b", "ab", false), ("^a{2,3}$", "aaaa", false),
            ("^a{2,}$", "aaaaa", true), ("x{1}y", "xy", true),
            ("a{,2}", "a{,2}", true),                             // not a quantifier: literal
            ("^(?:cat|dog)s?/", "dogs/x.md", true), ("^(?:cat|dog)s?/", "cow/x.md", false),
            ("^(?<year>[0-9]{4})-", "2026-03-14.md", true),
            ("[^a-z]", "abc", false), ("[^a-z]", "abC", true),
            (#"[\d_-]x"#, "-x", true), (#"[\w.]+\.md$"#, "a.b.md", true),
            (#"\bnote\b"#, "my note.md", true), (#"\bnote\b"#, "notes.md", false),
            (#"\Bote"#, "note", true),
            ("a.c", "a\nc", false), ("a.c", "aéc", true),
            ("é", "café.md", true), (#"\u00e9"#, "café.md", true), (#"\x41"#, "A", true),
            (#"\s"#, "a b", true), (#"\S+"#, "   ", false),
            ("(a*)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", false),
            ("", "anything", true), ("a|", "zzz", true), ("[]", "a", false),
            (#"\/Private\/"#, "A/Private/x.md", true),
        ]
        for (pattern, text, expected) in table {
            #expect(try matches(pattern, text) == expected, "/\(pattern)/ on \(text)")
        }
    }

    /// The pattern that made every `search` take 35 s on ICU's backtracking matcher answers at
    /// once on long names, in steps proportional to the name's length.
    @Test func nestedRepeatsOnLongNamesAnswerWithoutBacktracking() throws {
        let regex = try BoundedRegex(#"^(\D+)+\d{9}"#)
        let name = String(repeating: "Meeting notes about the garden shed ", count: 30) + ".md"
        #expect(!regex.matches(name))
        #expect(regex.matches(name + "123456789"))
        #expect(try !BoundedRegex("(x+x+)+y").matches(String(repeating: "x", count: 5_000)))
    }

    @Test func patternsThatCannotRunInBoundedTimeAreRefusedByName() {
        let refused: [(String, String)] = [
            (#"(a)\1"#, "back-references"), (#"(?<n>a)\k<n>"#, "back-references"),
            ("a(?=b)", "look-ahead"), ("(?<!a)b", "look-ahead and look-behind"),
            ("(a{1000}){1000}", "too large"), ("a{99999}", "repeat count"),
            ("(a", "unmatched ("), ("a)", "unmatched )"), ("[a", "unmatched ["), ("*a", "nothing to repeat"),
            ("a{3,2}", "out of order"), ("[z-a]", "out of order"),
        ]
        for (pattern, reason) in refused {
            #expect(throws: BoundedRegex.Refusal.self, "/\(pattern)/") { try BoundedRegex(pattern) }
            do { _ = try BoundedRegex(pattern) } catch { #expect(error.reason.contains(reason), "/\(pattern)/: \(error.reason)") }
        }
    }

    @Test func aRefusedFilterExcludesNothingAndIsReported() {
        let filters = ObsidianIgnoreFilters(["/(a)\\1/", "Templates/", "/\\.tmp$/"])
        #expect(filters.refused.map(\.filter) == ["/(a)\\1/"])
        #expect(!filters.excludes("aa.md", isFolder: false))
        #expect(filters.excludes("Templates/x.md", isFolder: false) && filters.excludes("x.tmp", isFolder: false))
        #expect(ObsidianIgnoreFilters.warning(filter: "/(a)\\1/", reason: "r").description.contains(".obsidian/app.json"))
    }
}
