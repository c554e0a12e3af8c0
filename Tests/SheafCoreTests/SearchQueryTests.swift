// The `sheaf search` query parser, tested with plain strings: every example of README.md's query
// table, Unicode, OR precedence, filters, and every error.
import Foundation
import PropertyBased
import Testing
import TestSupport
@testable import SheafCore

@Suite struct SearchQueryTests {
    func parse(_ text: String) throws -> SearchQuery { try SearchQuery.parse(text) }

    /// The error a query throws, or nil when it parses.
    func failure(_ text: String) -> SearchQueryError? {
        do {
            _ = try SearchQuery.parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// The start of a day in the local time zone, as the parser reads dates.
    func localDay(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = NoteDate.localZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? .distantPast
    }

    // MARK: Terms

    @Test func wordsAreAndedAndKeepTheirCase() throws {
        #expect(try parse("sync") == SearchQuery(terms: [.word("sync")]))
        #expect(try parse("  Sync   Merge\tLisbon\n") == SearchQuery(terms: [.word("Sync"), .word("Merge"), .word("Lisbon")]))
    }

    @Test func designExamplesForTextSearch() throws {
        #expect(try parse("cafe") == SearchQuery(terms: [.word("cafe")]))
        #expect(try parse("run") == SearchQuery(terms: [.word("run")]))
        #expect(try parse("sync*") == SearchQuery(terms: [.prefix("sync")]))
        #expect(try parse("runn*") == SearchQuery(terms: [.prefix("runn")]))
        #expect(try parse("\"three-way merge\"") == SearchQuery(terms: [.phrase("three-way merge")]))
    }

    @Test func unicodeWordsInAnyScript() throws {
        #expect(try parse("кофе 日本語 café") == SearchQuery(terms: [.word("кофе"), .word("日本語"), .word("café")]))
        #expect(try parse("Κόσμος") == SearchQuery(terms: [.word("Κόσμος")]))
        #expect(try parse("кофе* \"日本語 の本\"") == SearchQuery(terms: [.prefix("кофе"), .phrase("日本語 の本")]))
        // Decomposed accents stay as typed: folding is the index's job.
        #expect(try parse("cafe\u{301}") == SearchQuery(terms: [.word("cafe\u{301}")]))
        // An ideographic space separates words too.
        #expect(try parse("東京\u{3000}大阪") == SearchQuery(terms: [.word("東京"), .word("大阪")]))
    }

    @Test func phrasesKeepTheirInnerText() throws {
        #expect(try parse("notes \"a  b\" end") == SearchQuery(terms: [.word("notes"), .phrase("a  b"), .word("end")]))
        #expect(try parse("\"OR\"") == SearchQuery(terms: [.phrase("OR")]))
        #expect(try parse("\"tag:x -y\"") == SearchQuery(terms: [.phrase("tag:x -y")]))
    }

    @Test func wordsAreRawTextNotFTSSyntax() throws {
        #expect(try parse("NEAR(a b) a*b x^y") == SearchQuery(terms: [.word("NEAR(a"), .word("b)"), .word("a*b"), .word("x^y")]))
        #expect(try parse("three-way") == SearchQuery(terms: [.word("three-way")]))
        #expect(try parse("sync**") == SearchQuery(terms: [.prefix("sync")]))
    }

    /// `=word` and `="a phrase"` match without stemming; `=` before a prefix changes nothing (a
    /// prefix is unstemmed already); after the `=` everything is text, never a filter or `OR`.
    @Test func anEqualsSignMakesATermExact() throws {
        #expect(try parse("=copying") == SearchQuery(terms: [.exact("copying")]))
        #expect(try parse("=\"copying files\" x") == SearchQuery(terms: [.exact("copying files"), .word("x")]))
        #expect(try parse("=sync*") == SearchQuery(terms: [.prefix("sync")]))
        #expect(try parse("-=running run") == SearchQuery(terms: [.word("run")], excluded: [.exact("running")]))
        #expect(try parse("-=\"old idea\" x") == SearchQuery(terms: [.word("x")], excluded: [.exact("old idea")]))
        #expect(try parse("=run OR =runs") == SearchQuery(terms: [.any([.exact("run"), .exact("runs")])]))
        #expect(try parse("title:=Copying") == SearchQuery(terms: [.title(.exact("Copying"))]))
        #expect(try parse("title:=\"Copying Machines\"") == SearchQuery(terms: [.title(.exact("Copying Machines"))]))
        #expect(try parse("-title:=x y") == SearchQuery(terms: [.word("y")], excluded: [.title(.exact("x"))]))
        #expect(try parse("=tag:x =OR =#y") == SearchQuery(terms: [.exact("tag:x"), .exact("OR"), .exact("#y")]))
        // Inside or at the end of a word, `=` is text, as before.
        #expect(try parse("a=b x= ==") == SearchQuery(terms: [.word("a=b"), .word("x="), .exact("=")]))
    }

    @Test func aLoneEqualsSignIsAnError() {
        let lone = failure("notes = x")
        #expect(lone?.kind == .loneEquals)
        #expect(lone?.position == 7)
        #expect(lone?.description == "a lone `=` (`=`): put the word to match exactly right after it, as in =copying (at character 7)")
        #expect(failure("=")?.kind == .loneEquals)
        #expect(failure("x -=")?.kind == .loneEquals)
        #expect(failure("title:=")?.kind == .missingValue)
        #expect(failure("=*")?.kind == .loneStar)
        #expect(failure("=a\"b\"")?.kind == .misplacedQuote)
        #expect(failure("=\"a")?.kind == .unbalancedQuote)
        #expect(failure("=\"\"")?.kind == .emptyPhrase)
        #expect(failure("-=x")?.kind == .onlyExclusions)
    }

    // MARK: OR

    @Test func orBindsTighterThanAnd() throws {
        #expect(try parse("a OR b") == SearchQuery(terms: [.any([.word("a"), .word("b")])]))
        #expect(try parse("x a OR b") == SearchQuery(terms: [.word("x"), .any([.word("a"), .word("b")])]))
        #expect(try parse("a OR b y") == SearchQuery(terms: [.any([.word("a"), .word("b")]), .word("y")]))
        #expect(try parse("a OR b OR c") == SearchQuery(terms: [.any([.word("a"), .word("b"), .word("c")])]))
        #expect(try parse("a OR b c OR d") ==
                SearchQuery(terms: [.any([.word("a"), .word("b")]), .any([.word("c"), .word("d")])]))
    }

    @Test func orJoinsPhrasesPrefixesAndTitles() throws {
        #expect(try parse("\"three-way merge\" OR sync* OR title:Lisbon") ==
                SearchQuery(terms: [.any([.phrase("three-way merge"), .prefix("sync"), .title(.word("Lisbon"))])]))
    }

    @Test func lowerCaseOrIsAWord() throws {
        #expect(try parse("a or b") == SearchQuery(terms: [.word("a"), .word("or"), .word("b")]))
        #expect(try parse("a Or b") == SearchQuery(terms: [.word("a"), .word("Or"), .word("b")]))
    }

    @Test func orNextToFiltersSplitsGroups() throws {
        #expect(try parse("a OR b tag:x c") ==
                SearchQuery(terms: [.any([.word("a"), .word("b")]), .word("c")], filters: [.tag("x")]))
        #expect(try parse("a OR b -c") == SearchQuery(terms: [.any([.word("a"), .word("b")])], excluded: [.word("c")]))
    }

    // MARK: Negation

    @Test func negationOfWordsPhrasesAndFilters() throws {
        #expect(try parse("notes -draft -\"old idea\" -tag:x -#y -in:Archive -title:tmp*") == SearchQuery(
            terms: [.word("notes")],
            excluded: [.word("draft"), .phrase("old idea"), .title(.prefix("tmp"))],
            excludedFilters: [.tag("x"), .tag("y"), .folder("Archive")]))
        #expect(try parse("tag:travel -tag:travel/portugal") ==
                SearchQuery(filters: [.tag("travel")], excludedFilters: [.tag("travel/portugal")]))
        #expect(try parse("-OR x") == SearchQuery(terms: [.word("x")], excluded: [.word("OR")]))
    }

    @Test func aHyphenInsideAWordIsNotANegation() throws {
        #expect(try parse("e-mail 2026-01-01") == SearchQuery(terms: [.word("e-mail"), .word("2026-01-01")]))
    }

    // MARK: Filters

    @Test func designExamplesForFilters() throws {
        #expect(try parse("tag:x") == SearchQuery(filters: [.tag("x")]))
        #expect(try parse("#x") == SearchQuery(filters: [.tag("x")]))
        #expect(try parse("in:Folder/Sub") == SearchQuery(filters: [.folder("Folder/Sub")]))
        #expect(try parse("title:word") == SearchQuery(terms: [.title(.word("word"))]))
        #expect(try parse("after:2026-01-01") == SearchQuery(filters: [.after(localDay(2026, 1, 1))]))
        #expect(try parse("before:2026-02-01") == SearchQuery(filters: [.before(localDay(2026, 2, 1))]))
        #expect(try parse("has:attachment") == SearchQuery(filters: [.hasAttachment]))
        #expect(try parse("is:conflict") == SearchQuery(filters: [.isConflict]))
        #expect(try parse("links:Note") == SearchQuery(filters: [.links("Note")]))
    }

    @Test func everythingTogether() throws {
        let query = try parse("merge sync* OR \"three-way merge\" #sync in:Projects/Sheaf after:2026-01 -draft has:attachment")
        #expect(query == SearchQuery(
            terms: [.word("merge"), .any([.prefix("sync"), .phrase("three-way merge")])],
            excluded: [.word("draft")],
            filters: [.tag("sync"), .folder("Projects/Sheaf"), .after(localDay(2026, 1, 1)), .hasAttachment]))
    }

    @Test func tagsNestAndLoseTheirHash() throws {
        #expect(try parse("#travel/portugal") == SearchQuery(filters: [.tag("travel/portugal")]))
        #expect(try parse("tag:travel/portugal") == SearchQuery(filters: [.tag("travel/portugal")]))
        #expect(try parse("tag:#idea") == SearchQuery(filters: [.tag("idea")]))
        #expect(try parse("#путешествия #日本") == SearchQuery(filters: [.tag("путешествия"), .tag("日本")]))
        // `#123` is not a tag (as in MarkdownScan), and a lone `#` is a word.
        #expect(try parse("#123 #") == SearchQuery(terms: [.word("#123"), .word("#")]))
    }

    @Test func quotedFilterValues() throws {
        #expect(try parse("in:\"Trips/Kyoto 2025\"") == SearchQuery(filters: [.folder("Trips/Kyoto 2025")]))
        #expect(try parse("links:\"Lisbon trip\" x") == SearchQuery(terms: [.word("x")], filters: [.links("Lisbon trip")]))
        #expect(try parse("title:\"a phrase\"") == SearchQuery(terms: [.title(.phrase("a phrase"))]))
        #expect(try parse("title:pre*") == SearchQuery(terms: [.title(.prefix("pre"))]))
        #expect(try parse("-in:\"Old Stuff\" x") == SearchQuery(terms: [.word("x")], excludedFilters: [.folder("Old Stuff")]))
    }

    @Test func folderSlashesAreTrimmed() throws {
        #expect(try parse("in:/Trips/Kyoto/") == SearchQuery(filters: [.folder("Trips/Kyoto")]))
    }

    @Test func filterKeysIgnoreCaseAndValuesKeepIt() throws {
        #expect(try parse("Tag:Idea IN:Inbox HAS:Attachment Is:CONFLICT") ==
                SearchQuery(filters: [.tag("Idea"), .folder("Inbox"), .hasAttachment, .isConflict]))
    }

    @Test func unknownKeysAreWords() throws {
        #expect(try parse("http://x 10:30 foo:bar") == SearchQuery(terms: [.word("http://x"), .word("10:30"), .word("foo:bar")]))
        #expect(try parse("ab:c*") == SearchQuery(terms: [.prefix("ab:c")]))
    }

    @Test func datesByDayMonthAndYear() throws {
        #expect(try parse("after:2026-03") == SearchQuery(filters: [.after(localDay(2026, 3, 1))]))
        #expect(try parse("before:2026") == SearchQuery(filters: [.before(localDay(2026, 1, 1))]))
        #expect(try parse("after:2024-02-29 before:2024-03-01") ==
                SearchQuery(filters: [.after(localDay(2024, 2, 29)), .before(localDay(2024, 3, 1))]))
        #expect(try parse("after:2026-01-01") == SearchQuery(filters: [.after(localDay(2026, 1, 1))]))
        #expect(try parse("before:1969-12-31") == SearchQuery(filters: [.before(localDay(1969, 12, 31))]))
        #expect(try parse("after:2000-03-01") == SearchQuery(filters: [.after(localDay(2000, 3, 1))]))
    }

    /// Issue 14, item 13: relative dates were refused (`after:yesterday` was "not a date").
    @Test func relativeDatesCountFromTodayInLocalTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = NoteDate.localZone
        let now = calendar.date(from: DateComponents(year: 2026, month: 3, day: 10, hour: 15))!
        func at(_ q: String) throws -> SearchQuery { try SearchQuery.parse(q, now: now) }
        #expect(try at("after:yesterday") == SearchQuery(filters: [.after(localDay(2026, 3, 9))]))
        #expect(try at("after:today before:tomorrow") == SearchQuery(filters: [.after(localDay(2026, 3, 10)), .before(localDay(2026, 3, 11))]))
        #expect(try at("after:-7d") == SearchQuery(filters: [.after(localDay(2026, 3, 3))]))
        #expect(try at("after:-2w") == SearchQuery(filters: [.after(localDay(2026, 2, 24))]))
        #expect(try at("after:-1m") == SearchQuery(filters: [.after(localDay(2026, 2, 10))]))
        #expect(try at("before:-1y") == SearchQuery(filters: [.before(localDay(2025, 3, 10))]))
        for bad in ["after:-7", "after:-d", "after:7d", "after:-7x", "after:someday"] {
            #expect(throws: SearchQueryError.self) { try at(bad) }
        }
    }

    // MARK: Errors

    @Test func emptyQuery() {
        #expect(failure("")?.kind == .empty)
        #expect(failure("   \t\n")?.kind == .empty)
        #expect(failure("")?.description.contains("empty") == true)
    }

    @Test func unbalancedQuote() {
        let error = failure("merge \"three-way merge")
        #expect(error?.kind == .unbalancedQuote)
        #expect(error?.position == 7)
        #expect(error?.token == "\"three-way merge")
        #expect(error?.description == "unbalanced quote: `\"three-way merge` has no closing \" (at character 7)")
        #expect(failure("in:\"Trips")?.kind == .unbalancedQuote)
        #expect(failure("-\"x")?.kind == .unbalancedQuote)
        #expect(failure("a \"b\" \"")?.kind == .unbalancedQuote)
    }

    @Test func misplacedAndEmptyQuotes() {
        #expect(failure("foo\"bar\"")?.kind == .misplacedQuote)
        #expect(failure("foo:\"bar\"")?.kind == .misplacedQuote)
        #expect(failure("\"a b\"c")?.kind == .misplacedQuote)
        #expect(failure("\"a b\"c")?.position == 6)
        #expect(failure("\"\"")?.kind == .emptyPhrase)
        #expect(failure("x \"  \"")?.kind == .emptyPhrase)
        #expect(failure("title:\"\"")?.kind == .emptyPhrase)
    }

    @Test func misplacedOr() {
        let start = failure("OR a")
        #expect(start?.kind == .misplacedOr)
        #expect(start?.position == 1)
        #expect(start?.message.contains("starts with `OR`") == true)

        let end = failure("a OR")
        #expect(end?.kind == .misplacedOr)
        #expect(end?.position == 3)
        #expect(end?.message.contains("ends with `OR`") == true)

        let doubled = failure("a OR OR b")
        #expect(doubled?.kind == .misplacedOr)
        #expect(doubled?.position == 6)
        #expect(doubled?.message.contains("two ORs in a row") == true)

        #expect(failure("OR")?.kind == .misplacedOr)
        #expect(failure("tag:x OR b")?.message.contains("after `tag:x`") == true)
        #expect(failure("a OR tag:x")?.message.contains("before `tag:x`") == true)
        #expect(failure("-a OR b")?.kind == .misplacedOr)
        #expect(failure("a OR -b")?.kind == .misplacedOr)
    }

    @Test func loneMinus() {
        #expect(failure("-")?.kind == .loneMinus)
        let error = failure("notes - draft")
        #expect(error?.kind == .loneMinus)
        #expect(error?.position == 7)
        #expect(failure("notes -")?.kind == .loneMinus)
    }

    @Test func loneStar() {
        #expect(failure("*")?.kind == .loneStar)
        #expect(failure("a **")?.kind == .loneStar)
        #expect(failure("-*")?.kind == .loneStar)
        #expect(failure("title:*")?.kind == .loneStar)
        #expect(failure("a *")?.description == "a lone `*` (`*`): a prefix needs at least one character before the star, as in sync* (at character 3)")
    }

    @Test func badDatesNameTheValue() {
        for value in ["2026-13-01", "2026-02-30", "2025-02-29", "1900-02-29", "26-01-01", "2026-1-1", "2026-01-01T10:00",
                      "someday", "2026-", "0000", "２０２６"] {
            let error = failure("after:\(value)")
            #expect(error?.kind == .badDate, "after:\(value)")
            #expect(error?.message.contains(value) == true)
            #expect(error?.message.contains("YYYY-MM-DD") == true)
        }
        #expect(failure("notes before:2026-02-30")?.position == 7)
    }

    @Test func unknownHasAndIsValuesListTheAllowedOnes() {
        let has = failure("has:pdf")
        #expect(has?.kind == .unknownValue)
        #expect(has?.message == "`has:pdf`: has: takes attachment, not pdf")
        let isError = failure("x is:draft")
        #expect(isError?.kind == .unknownValue)
        #expect(isError?.message.contains("conflict") == true)
        #expect(isError?.position == 3)
    }

    @Test func filtersNeedAValue() {
        for query in ["tag:", "in:", "title:", "after:", "before:", "has:", "is:", "links:", "tag:#", "in:/"] {
            #expect(failure(query)?.kind == .missingValue, "\(query)")
        }
        #expect(failure("tag:")?.message == "`tag:` needs a value, as in tag:travel")
    }

    @Test func onlyExclusionsIsAnError() {
        let error = failure("-draft -\"old idea\"")
        #expect(error?.kind == .onlyExclusions)
        #expect(error?.message.contains("`-draft`") == true)
        #expect(failure("-tag:x")?.kind == .onlyExclusions)
        #expect(failure("-title:x -in:Archive")?.kind == .onlyExclusions)
        // One positive filter is enough.
        #expect(failure("-draft tag:x") == nil)
        #expect(failure("-draft is:conflict") == nil)
    }

    // MARK: Properties

    /// Random queries rendered from a random tree parse back to that tree.
    @Test func parseOfRenderIsIdentity() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = QueryRandom(seed: UInt64(seed))
            let (text, expected) = rng.query()
            #expect((try? SearchQuery.parse(text)) == expected, "\(text)")
        }
    }

    /// Token soup never traps: it parses to something positive or throws a described error.
    @Test func tokenSoupParsesOrThrows() async {
        let pieces = ["a", "OR", "-", "*", "\"", "\"x y\"", "tag:", "#", "in:", "title:", "after:2026", "has:", "is:x",
                      "кофе", "日本語", "-b", "c*", ":", "links:\"", "  ", "\t", "=", "=d", "title:="]
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = QueryRandom(seed: UInt64(seed))
            let text = (0..<rng.int(8)).map { _ in rng.pick(pieces) }.joined(separator: rng.int(3) == 0 ? "" : " ")
            switch Result(catching: { () throws(SearchQueryError) in try SearchQuery.parse(text) }) {
            case .success(let query): #expect(!query.terms.isEmpty || !query.filters.isEmpty, "\(text)")
            case .failure(let error): #expect(!error.message.isEmpty)
            }
        }
    }
}

/// Builds random valid queries alongside the tree they should parse to (SplitMix64, seeded).
private struct QueryRandom {
    var random: SeededRandom
    init(seed: UInt64) { random = SeededRandom(seed: Int(truncatingIfNeeded: seed)) }

    mutating func next() -> UInt64 { random.next() }

    mutating func int(_ below: Int) -> Int { Int(next() % UInt64(below)) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    static let words = ["sync", "Merge", "кофе", "日本語", "café", "a-b", "x:y", "10:30", "or", "3.5"]

    mutating func term() -> (String, SearchTerm) {
        let word = pick(Self.words)
        switch int(7) {
        case 5: return ("=" + word, .exact(word))
        case 6: return ("=\"\(word) \(word)\"", .exact("\(word) \(word)"))
        case 0: return (word, .word(word))
        case 1: return (word + "*", .prefix(word))
        case 2: return ("\"\(word) \(word)\"", .phrase("\(word) \(word)"))
        case 3: return ("title:" + word, .title(.word(word)))
        default: return ("title:\"\(word) x\"", .title(.phrase("\(word) x")))
        }
    }

    mutating func filter() -> (String, SearchFilter) {
        if int(6) == 0 {
            let tag = "trip/" + pick(["pt", "日本"])
            return ("#" + tag, .tag(tag))
        }
        let name = pick(["Trips", "Kyoto 2025", "кофе"])
        switch int(5) {
        case 0: return ("tag:\"\(name)\"", .tag(name))
        case 1: return ("in:\"\(name)\"", .folder(name))
        case 2: return ("links:\"\(name)\"", .links(name))
        case 3: return ("has:attachment", .hasAttachment)
        default: return ("is:conflict", .isConflict)
        }
    }

    mutating func query() -> (String, SearchQuery) {
        var parts: [String] = []
        var query = SearchQuery()
        for _ in 0..<(1 + int(5)) {
            switch int(4) {
            case 0:
                let (text, filter) = filter()
                let negated = int(2) == 0
                parts.append((negated ? "-" : "") + text)
                if negated { query.excludedFilters.append(filter) } else { query.filters.append(filter) }
            case 1:
                let (text, term) = term()
                parts.append("-" + text)
                query.excluded.append(term)
            case 2:
                var texts: [String] = []
                var terms: [SearchTerm] = []
                for _ in 0..<(2 + int(2)) {
                    let (text, term) = term()
                    texts.append(text)
                    terms.append(term)
                }
                parts.append(texts.joined(separator: " OR "))
                query.terms.append(.any(terms))
            default:
                let (text, term) = term()
                parts.append(text)
                query.terms.append(term)
            }
        }
        if query.terms.isEmpty && query.filters.isEmpty {
            parts.append("is:conflict")
            query.filters.append(.isConflict)
        }
        return (parts.joined(separator: " "), query)
    }
}
