// Why: `sheaf search` takes one line of user text. Parsing it here, apart from SQLite, turns every
// malformed query into a clear message before any SQL runs (README.md, `sheaf search`: "never an
// SQLite error"), and hands the index module a small, validated tree that it compiles (and escapes)
// into FTS5.
import Foundation

/// Something to look for in a note's text.
///
/// Every string is raw user text exactly as typed: case, accents and punctuation are kept, and
/// none of it is FTS5 syntax. Whoever compiles a term into a `MATCH` expression must quote and
/// escape it; folding (case, accents, stems) is the index's job.
public indirect enum SearchTerm: Equatable, Sendable {
    /// A word: `sync`, `кофе`, `日本語`.
    case word(String)
    /// A prefix, `sync*`; the value is without the `*`.
    case prefix(String)
    /// The text between double quotes: `"three-way merge"` is `three-way merge`.
    case phrase(String)
    /// `=copying` or `="copying files"`: a word or phrase matched as written, without stemming
    /// (`=copying` does not match `copy` or `copied`, `=run` not `running`); case and accents are
    /// still folded. The value is without the `=` and the quotes.
    case exact(String)
    /// `title:word`, `title:pre*`, `title:"a phrase"`, `title:=word` or `title:="a phrase"`: the
    /// inner term, matched against titles only.
    case title(SearchTerm)
    /// `a OR b OR c`: at least one member must match. Two or more members, none of them `.any`.
    case any([SearchTerm])
}

/// A condition on what the catalog knows about a note rather than on its text.
public enum SearchFilter: Equatable, Sendable {
    /// `tag:x` or `#x`, without the `#`; nested tags keep their `/` (`travel/portugal`).
    case tag(String)
    /// `in:Folder/Sub` or `in:"Trips/Kyoto 2025"` (and `ls --folder`): a vault-relative folder as
    /// `folderPath(typed:)` made it. It holds the notes in that folder and in every folder below
    /// it, compared without case (`in:trips` holds `Trips/Kyoto/a.md`, not `trips-old/b.md`).
    case folder(String)
    /// `after:2026-01-01`: on or after this instant, the start (local time) of the day, month or year typed.
    case after(Date)
    /// `before:2026-02-01`: strictly before this instant, the start (local time) of the day, month or year typed.
    case before(Date)
    /// `has:attachment`: the note has at least one attachment.
    case hasAttachment
    /// `is:conflict`: the note is a conflict file.
    case isConflict
    /// `links:Note` or `links:"Note name"`: the note links to this target, as typed.
    case links(String)
}

extension SearchFilter {
    /// A folder as a user typed it, made vault-relative: `/` at either end, `.` and empty parts
    /// dropped, `..` resolved. "" is the vault's root; nil when it climbs above the root.
    public static func folderPath(typed: String) -> String? {
        VaultPath.normalize(typed)
    }
}

/// A parsed `sheaf search` query: every term and filter must match, no excluded one may.
///
/// Syntax (README.md, `sheaf search`; filters and exact words in docs/search.md): whitespace-
/// separated words are ANDed; `"a phrase"`; `prefix*`; `=word` and `="a phrase"` without
/// stemming; `a OR b` (upper-case `OR`, binding tighter than AND: `x a OR b` is x AND (a OR b));
/// `-word`, `-"a phrase"`, `-tag:x` to exclude; filters `tag:x` / `#x`, `in:Folder/Sub`,
/// `title:…`, `after:` / `before:` (YYYY-MM-DD, YYYY-MM or YYYY, today, yesterday, -7d, -2w,
/// -3m, -1y), `has:attachment`, `is:conflict`, `links:Note`. A `key:value` with any other key
/// (`http://x`, `10:30`) is a word.
public struct SearchQuery: Equatable, Sendable {
    /// Terms that must all match.
    public var terms: [SearchTerm]
    /// Terms that must not match (`-word`, `-"a phrase"`, `-title:x`).
    public var excluded: [SearchTerm]
    /// Filters that must all hold.
    public var filters: [SearchFilter]
    /// Filters that must not hold (`-tag:x`, `-in:Archive`).
    public var excludedFilters: [SearchFilter]

    public init(terms: [SearchTerm] = [], excluded: [SearchTerm] = [],
                filters: [SearchFilter] = [], excludedFilters: [SearchFilter] = []) {
        self.terms = terms
        self.excluded = excluded
        self.filters = filters
        self.excludedFilters = excludedFilters
    }

    /// The query that asks for any of its two or more terms instead of all of them (filters and
    /// exclusions kept); nil when it has fewer terms or already is an OR.
    public var relaxed: SearchQuery? {
        guard terms.count >= 2, !terms.contains(where: { if case .any = $0 { return true } else { return false } }) else { return nil }
        return SearchQuery(terms: [.any(terms)], excluded: excluded, filters: filters, excludedFilters: excludedFilters)
    }

    /// Parses a query as typed after `sheaf search`. Throws for an empty query, an unbalanced or
    /// misplaced quote, a misplaced `OR`, a lone `-`, `=` or `*`, a filter without a value, a bad date,
    /// an unknown `has:`/`is:` value, and a query that only excludes.
    public static func parse(_ text: String, now: Date = Date()) throws(SearchQueryError) -> SearchQuery {
        var parser = QueryParser(text, now: now)
        return try parser.parse()
    }
}

/// Why a query could not be parsed, written for the person at the terminal.
public struct SearchQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case empty, unbalancedQuote, misplacedQuote, emptyPhrase, misplacedOr, loneMinus, loneStar, loneEquals
        case missingValue, badDate, unknownValue, onlyExclusions
    }

    public var kind: Kind
    /// A sentence naming the offending token and what to type instead.
    public var message: String
    /// The offending token as typed, if there is one.
    public var token: String?
    /// Where the token starts: 1-based, counted in characters.
    public var position: Int?

    public init(_ kind: Kind, _ message: String, token: String? = nil, position: Int? = nil) {
        self.kind = kind
        self.message = message
        self.token = token
        self.position = position
    }

    public var description: String {
        guard let position else { return message }
        return message + " (at character \(position))"
    }
}

// MARK: - Parser

private struct QueryParser {
    /// One whitespace-separated piece of the query, classified.
    enum Item: Equatable {
        case or
        case term(SearchTerm)
        case filter(SearchFilter)
    }

    struct Lexeme {
        var item: Item
        var negated: Bool
        var text: String
        var position: Int
    }

    static let keys: Set<String> = ["tag", "in", "title", "after", "before", "has", "is", "links"]

    let chars: [Character]
    var i = 0

    /// The instant relative dates (`after:-7d`, `after:yesterday`) count from.
    let now: Date

    init(_ text: String, now: Date) { chars = Array(text); self.now = now }

    mutating func parse() throws(SearchQueryError) -> SearchQuery {
        var lexemes: [Lexeme] = []
        while let lexeme = try next() { lexemes.append(lexeme) }
        guard let first = lexemes.first else {
            throw SearchQueryError(.empty, "the search query is empty: type words to look for, as in sheaf search \"three-way merge\"")
        }

        var query = SearchQuery()
        var group: [SearchTerm] = []     // the OR group being built
        var pendingOr: Lexeme?           // an OR still waiting for its right-hand term
        func flush() {
            if group.count == 1 { query.terms.append(group[0]) }
            if group.count > 1 { query.terms.append(.any(group)) }
            group = []
        }
        var previous: Lexeme?
        for lexeme in lexemes {
            defer { previous = lexeme }
            switch (lexeme.item, lexeme.negated) {
            case (.or, _):
                if pendingOr != nil {
                    throw orError("two ORs in a row (`OR OR`): put a term between them, as in sync OR merge", lexeme)
                }
                // The group is non-empty exactly when the previous lexeme was a positive term.
                if group.isEmpty, let previous {
                    throw orError("`OR` after `\(previous.text)`: OR joins words, phrases, prefixes and title: terms, not filters or -exclusions", lexeme)
                }
                if group.isEmpty {
                    throw orError("the query starts with `OR`: OR goes between two terms, as in sync OR merge", lexeme)
                }
                pendingOr = lexeme
            case (.term(let term), false):
                if pendingOr != nil {
                    group.append(term)
                    pendingOr = nil
                } else {
                    flush()
                    group = [term]
                }
            case (.term(let term), true):
                if let pendingOr { throw orOperandError(pendingOr, lexeme) }
                flush()
                query.excluded.append(term)
            case (.filter(let filter), let negated):
                if let pendingOr { throw orOperandError(pendingOr, lexeme) }
                flush()
                if negated { query.excludedFilters.append(filter) } else { query.filters.append(filter) }
            }
        }
        if let pendingOr {
            throw orError("the query ends with `OR`: OR goes between two terms, as in sync OR merge", pendingOr)
        }
        flush()

        if query.terms.isEmpty && query.filters.isEmpty {
            let excluded = lexemes.map { "`\($0.text)`" }.joined(separator: " ")
            throw SearchQueryError(.onlyExclusions,
                "the query only excludes (\(excluded)): add a word or filter to search for, as in sheaf search notes -draft",
                token: first.text, position: first.position)
        }
        return query
    }

    func orError(_ message: String, _ lexeme: Lexeme) -> SearchQueryError {
        SearchQueryError(.misplacedOr, message, token: lexeme.text, position: lexeme.position)
    }

    func orOperandError(_ or: Lexeme, _ operand: Lexeme) -> SearchQueryError {
        orError("`OR` before `\(operand.text)`: OR joins words, phrases, prefixes and title: terms, not filters or -exclusions", or)
    }

    // MARK: Lexing

    /// The next lexeme, or nil at the end of the text.
    mutating func next() throws(SearchQueryError) -> Lexeme? {
        while i < chars.count && chars[i].isWhitespace { i += 1 }
        guard i < chars.count else { return nil }
        let start = i
        var negated = false
        // `-word` excludes; `--word` is a word (what follows `--` on the command line).
        if chars[i] == "-" && !(i + 1 < chars.count && chars[i + 1] == "-") {
            guard i + 1 < chars.count, !chars[i + 1].isWhitespace else {
                throw SearchQueryError(.loneMinus, "a lone `-`: put the word to exclude right after it, as in -draft",
                                       token: "-", position: start + 1)
            }
            negated = true
            i += 1
        }

        let item: Item
        if chars[i] == "=" {
            item = .term(try exact(tokenStart: start))
        } else if chars[i] == "\"" {
            let phrase = try quoted(tokenStart: start)
            item = .term(.phrase(phrase))
        } else {
            var j = i
            while j < chars.count && !chars[j].isWhitespace && chars[j] != "\"" { j += 1 }
            let word = String(chars[i..<j])
            i = j
            if j < chars.count && chars[j] == "\"" && word.lowercased() == "title:=" {
                // title:="a phrase": the exact phrase, in titles.
                item = .term(.title(.exact(try quoted(tokenStart: start))))
            } else if j < chars.count && chars[j] == "\"" {
                // A quote glued to a word opens a value only after a filter key: in:"Trips/Kyoto 2025".
                guard word.hasSuffix(":"), Self.keys.contains(String(word.dropLast()).lowercased()) else {
                    throw SearchQueryError(.misplacedQuote,
                        "a quote inside a word (`\(text(start, j + 1))`): put a space before a phrase",
                        token: text(start, j + 1), position: j + 1)
                }
                let value = try quoted(tokenStart: start)
                item = try keyed(String(word.dropLast()).lowercased(), value, quoted: true, token: text(start, i), at: start)
            } else {
                item = try classify(word, negated: negated, token: text(start, i), at: start)
            }
        }
        return Lexeme(item: item, negated: negated, text: text(start, i), position: start + 1)
    }

    /// Reads `=word`, `="a phrase"` or `=prefix*` starting at the `=` at `i`: the exact term (a
    /// prefix is unstemmed already, so `=sync*` is `sync*`). Everything after the `=` is text to
    /// match, never a filter or an `OR`: `=tag:x` looks for the words `tag` and `x`.
    mutating func exact(tokenStart: Int) throws(SearchQueryError) -> SearchTerm {
        i += 1
        guard i < chars.count, !chars[i].isWhitespace else {
            let token = text(tokenStart, i)
            throw SearchQueryError(.loneEquals,
                "a lone `=` (`\(token)`): put the word to match exactly right after it, as in =copying",
                token: token, position: i)
        }
        if chars[i] == "\"" { return .exact(try quoted(tokenStart: tokenStart)) }
        var j = i
        while j < chars.count && !chars[j].isWhitespace && chars[j] != "\"" { j += 1 }
        if j < chars.count && chars[j] == "\"" {
            throw SearchQueryError(.misplacedQuote,
                "a quote inside a word (`\(text(tokenStart, j + 1))`): put a space before a phrase",
                token: text(tokenStart, j + 1), position: j + 1)
        }
        let word = text(i, j)
        i = j
        let term = try plain(word, token: text(tokenStart, j), at: tokenStart)
        if case .word(let w) = term { return .exact(w) }
        return term
    }

    /// Reads `"…"` starting at the opening quote at `i`; leaves `i` after the closing quote.
    mutating func quoted(tokenStart: Int) throws(SearchQueryError) -> String {
        let open = i
        var close = open + 1
        while close < chars.count && chars[close] != "\"" { close += 1 }
        guard close < chars.count else {
            throw SearchQueryError(.unbalancedQuote,
                "unbalanced quote: `\(text(tokenStart, chars.count))` has no closing \"",
                token: text(tokenStart, chars.count), position: open + 1)
        }
        i = close + 1
        if i < chars.count && !chars[i].isWhitespace {
            var end = i
            while end < chars.count && !chars[end].isWhitespace { end += 1 }
            throw SearchQueryError(.misplacedQuote,
                "text right after a closing quote (`\(text(tokenStart, end))`): put a space after the phrase",
                token: text(tokenStart, end), position: i + 1)
        }
        let value = text(open + 1, close)
        guard value.contains(where: { !$0.isWhitespace }) else {
            throw SearchQueryError(.emptyPhrase, "an empty phrase (`\(text(tokenStart, i))`): put words between the quotes",
                                   token: text(tokenStart, i), position: open + 1)
        }
        return value
    }

    func text(_ from: Int, _ to: Int) -> String { String(chars[from..<to]) }

    /// An unquoted token (without its `-`): `OR`, `#tag`, `key:value`, `prefix*` or a word.
    func classify(_ word: String, negated: Bool, token: String, at start: Int) throws(SearchQueryError) -> Item {
        if word == "OR" && !negated { return .or }
        if word.hasPrefix("#") {
            let tag = String(word.dropFirst())
            // Like MarkdownScan: `#123` is not a tag, so it stays a word.
            if !tag.isEmpty && !tag.allSatisfy({ $0.isASCII && $0.isNumber }) { return .filter(.tag(tag)) }
            return .term(.word(word))
        }
        if let colon = word.firstIndex(of: ":") {
            let key = word[..<colon].lowercased()
            if Self.keys.contains(key) {
                return try keyed(key, String(word[word.index(after: colon)...]), quoted: false, token: token, at: start)
            }
        }
        return .term(try plain(word, token: token, at: start))
    }

    /// A word, or a prefix when it ends with `*`.
    func plain(_ word: String, token: String, at start: Int) throws(SearchQueryError) -> SearchTerm {
        guard word.hasSuffix("*") else { return .word(word) }
        var stem = Substring(word)
        while stem.hasSuffix("*") { stem = stem.dropLast() }
        guard !stem.isEmpty else {
            throw SearchQueryError(.loneStar,
                "a lone `*` (`\(token)`): a prefix needs at least one character before the star, as in sync*",
                token: token, position: start + 1)
        }
        return .prefix(String(stem))
    }

    /// A known `key:value` (key lower-cased, value without its quotes).
    func keyed(_ key: String, _ value: String, quoted: Bool, token: String, at start: Int) throws(SearchQueryError) -> Item {
        func fail(_ kind: SearchQueryError.Kind, _ message: String) -> SearchQueryError {
            SearchQueryError(kind, message, token: token, position: start + 1)
        }
        let examples = ["tag": "tag:travel", "in": "in:Projects/Sheaf", "title": "title:budget",
                        "after": "after:2026-01-01", "before": "before:2026-02-01", "has": "has:attachment",
                        "is": "is:conflict", "links": "links:Lisbon"]
        let missing = fail(.missingValue, "`\(token)` needs a value, as in \(examples[key] ?? key + ":value")")
        guard !value.isEmpty else { throw missing }
        switch key {
        case "tag":
            let tag = value.hasPrefix("#") ? String(value.dropFirst()) : value
            guard !tag.isEmpty else { throw missing }
            return .filter(.tag(tag))
        case "in":
            guard let folder = SearchFilter.folderPath(typed: value) else {
                throw fail(.unknownValue, "`\(token)`: \(value) is outside the vault; name a folder inside it, as in in:Projects/Sheaf")
            }
            guard !folder.isEmpty else { throw missing }
            return .filter(.folder(folder))
        case "title":
            if quoted { return .term(.title(.phrase(value))) }
            if value.hasPrefix("=") {
                let word = String(value.dropFirst())
                guard !word.isEmpty else { throw missing }
                let term = try plain(word, token: token, at: start)
                if case .word(let w) = term { return .term(.title(.exact(w))) }
                return .term(.title(term))
            }
            return .term(.title(try plain(value, token: token, at: start)))
        case "after", "before":
            guard let date = Self.date(value) ?? Self.relativeDate(value, now: now) else {
                throw fail(.badDate, "`\(token)`: \(value) is not a date; use YYYY-MM-DD, YYYY-MM or YYYY (\(key):2026-01-01), today, yesterday, or -7d, -2w, -3m, -1y")
            }
            return .filter(key == "after" ? .after(date) : .before(date))
        case "has":
            guard ["attachment", "attachments"].contains(value.lowercased()) else {
                throw fail(.unknownValue, "`\(token)`: has: takes attachment, not \(value)")
            }
            return .filter(.hasAttachment)
        case "is":
            guard value.lowercased() == "conflict" else {
                throw fail(.unknownValue, "`\(token)`: is: takes conflict, not \(value)")
            }
            return .filter(.isConflict)
        default:
            return .filter(.links(value))
        }
    }

    /// The start of a day named relative to `now`, in local time: `today`, `yesterday`,
    /// `tomorrow`, or `-N` days, weeks, months or years back (`-7d`, `-2w`, `-3m`, `-1y`; `+` ahead).
    static func relativeDate(_ text: String, now: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = NoteDate.localZone
        let today = calendar.startOfDay(for: now)
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: today)
        case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: today)
        default: break
        }
        guard let sign = text.first, sign == "-" || sign == "+", let unit = text.last?.lowercased(),
              let count = Int(text.dropFirst().dropLast()), count >= 0, text.count > 2 else { return nil }
        let n = sign == "-" ? -count : count
        switch unit {
        case "d": return calendar.date(byAdding: .day, value: n, to: today)
        case "w": return calendar.date(byAdding: .day, value: 7 * n, to: today)
        case "m": return calendar.date(byAdding: .month, value: n, to: today)
        case "y": return calendar.date(byAdding: .year, value: n, to: today)
        default: return nil
        }
    }

    /// The start (local time, as `NoteDate` reads dates) of `YYYY-MM-DD`, `YYYY-MM` or `YYYY`; nil for anything else or a day
    /// that does not exist (2026-02-30).
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for (part, width) in zip(parts, [4, 2, 2]) {
            guard part.count == width, part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(part) else { return nil }
            numbers.append(n)
        }
        let year = numbers[0]
        let month = numbers.count > 1 ? numbers[1] : 1
        let day = numbers.count > 2 ? numbers[2] : 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard year >= 1, (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
        // The start of that day where the user is, by the one rule for dates without an offset.
        func padded(_ n: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(n).count)) + String(n)
        }
        return NoteDate.parse(padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2))
    }
}
