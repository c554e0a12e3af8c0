// `sheaf search`: a parsed SearchQuery compiled into one FTS5 MATCH expression (every user
// string quoted, so nothing typed is FTS5 syntax) plus SQL conditions on the catalog. Hits come
// ranked by BM25 with column weights, ties broken by recency; snippets are cut from the files.
import Foundation
import GRDB
import SheafCore

/// One search result.
public struct SearchHit: Sendable {
    public let path: String
    public let title: String
    public let modified: Date
    /// BM25 score, lower is better (0 for filter-only queries).
    public let score: Double
    /// The snippet as pieces; `true` marks a piece that matched.
    public var snippet: [(text: String, match: Bool)] = []
}

public struct SearchOptions: Sendable {
    public var limit: Int
    public var snippets: Bool
    public init(limit: Int = 20, snippets: Bool = true) {
        self.limit = limit
        self.snippets = snippets
    }
}

extension NoteIndex {
    /// Column weights for bm25(), in the table's order: body, title, aliases, tags, path, meta, cjk.
    static let weights = "1.0, 10.0, 10.0, 5.0, 3.0, 1.0, 1.0"

    public func search(_ query: SearchQuery, vault: Vault, options: SearchOptions = SearchOptions()) throws(SheafError) -> [SearchHit] {
        let match = Self.matchExpression(query.terms, excluded: query.excluded)
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        for f in query.filters { let (sql, args) = Self.condition(f); conditions.append(sql); arguments += args }
        for f in query.excludedFilters { let (sql, args) = Self.condition(f); conditions.append("NOT (\(sql))"); arguments += args }
        if query.terms.isEmpty && !query.excluded.isEmpty {
            conditions.append("n.fts_rowid NOT IN (SELECT rowid FROM note_fts WHERE note_fts MATCH ?)")
            arguments.append(Self.matchExpression(query.excluded.count == 1 ? query.excluded : [.any(query.excluded)], excluded: []))
        }
        let whereExtra = conditions.map { " AND " + $0 }.joined()
        let sql: String
        if !query.terms.isEmpty {
            sql = """
                SELECT n.path, n.title, n.modified, bm25(note_fts, \(Self.weights)) AS score, n.warnings, n.hash, n.snippet
                FROM note_fts JOIN notes n ON n.fts_rowid = note_fts.rowid
                WHERE note_fts MATCH ?\(whereExtra)
                ORDER BY score, n.modified DESC LIMIT ?
                """
            arguments = [match] + arguments + [options.limit]
        } else {
            sql = "SELECT n.path, n.title, n.modified, 0.0 AS score, n.warnings, n.hash, n.snippet FROM notes n WHERE 1\(whereExtra) ORDER BY n.modified DESC LIMIT ?"
            arguments.append(options.limit)
        }
        var hits: [SearchHit]
        var indexed: [Snippet.Indexed] = []  // what the index holds of each hit, for its snippet
        do {
            if !query.terms.isEmpty && conditions.isEmpty {
                (hits, indexed) = try pool.read { db in try Self.topRanked(db, match: match, limit: options.limit) }
            } else {
                hits = try pool.read { db in
                    try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                        indexed.append(Snippet.Indexed(readWhole: (row["warnings"] as String).isEmpty, hash: row["hash"], snippet: row["snippet"]))
                        return SearchHit(path: row["path"], title: row["title"],
                                         modified: Date(timeIntervalSince1970: row["modified"]), score: row["score"])
                    }
                }
            }
        } catch {
            throw SheafError("the search failed", cause: "\(error)", hint: "check the query; `sheaf search --help` shows the syntax")
        }
        if options.snippets && !hits.isEmpty {
            // The tokenizer lives on a connection, so the snippets are cut inside a read.
            do {
                hits = try pool.read { db in
                    let highlighter = try Highlighter(db: db, terms: query.terms)
                    var done = hits
                    for i in done.indices {
                        done[i].snippet = Snippet.make(vault: vault, path: done[i].path, highlighter: highlighter,
                                                       indexed: indexed[i])
                    }
                    return done
                }
            } catch {
                throw SheafError("the search failed", cause: "\(error)", hint: "run `sheaf index --rebuild`")
            }
        }
        return hits
    }

    /// The best `limit` notes for a MATCH without catalog conditions, in the order of the joined
    /// query (score, then the most recently modified): the full-text rows are ranked alone and
    /// the catalog is looked up only for the best of them, not for each of thousands of matches.
    /// Rows past the `limit`-th live one are read while they tie with it, so the recency order
    /// among equal scores is kept; rows without a catalog row (dead rows of edited notes, left
    /// until the next compaction) are skipped. The ranking asks SQLite for a window of `limit`
    /// + the dead rows + 1, so it keeps only that many in its sorter instead of sorting every
    /// match; when the window runs out before the answer is sure (more dead rows or ties than
    /// counted), it asks again without one.
    static func topRanked(_ db: Database, match: String, limit: Int) throws -> ([SearchHit], [Snippet.Indexed]) {
        let limit = limit < 0 ? Int.max : limit  // as SQL's LIMIT: a negative one is none
        guard limit > 0 else { return ([], []) }
        let dead = max(0, try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'") ?? 0)
        var window: Int? = limit.addingReportingOverflow(dead + 1).overflow ? nil : limit + dead + 1
        let lookup = try db.cachedStatement(sql: "SELECT path, title, modified, warnings, hash, snippet FROM notes WHERE fts_rowid = ?")
        while true {
            let ranked = try Row.fetchCursor(db, sql: "SELECT rowid, bm25(note_fts, \(weights)) AS score FROM note_fts WHERE note_fts MATCH ? ORDER BY score LIMIT ?",
                                             arguments: [match, window ?? -1])
            var found: [(hit: SearchHit, indexed: Snippet.Indexed)] = []
            var read = 0, sure = false
            while let row = try ranked.next() {
                read += 1
                let score: Double = row[1]
                if found.count >= limit, let last = found.last, score > last.hit.score { sure = true; break }
                let rowid: Int64 = row[0]
                guard let note = try Row.fetchOne(lookup, arguments: [rowid]) else { continue }
                found.append((SearchHit(path: note[0], title: note[1], modified: Date(timeIntervalSince1970: note[2]), score: score),
                              Snippet.Indexed(readWhole: (note[3] as String).isEmpty, hash: note[4], snippet: note[5])))
            }
            // Every row was read (fewer than the window): the answer is sure too.
            if !sure, let size = window, read >= size { window = nil; continue }
            // Stable: equal scores by recency, as `ORDER BY score, n.modified DESC`.
            found.sort { $0.hit.score != $1.hit.score ? $0.hit.score < $1.hit.score : $0.hit.modified > $1.hit.modified }
            let best = found.prefix(limit)
            return (best.map(\.hit), best.map(\.indexed))
        }
    }

    // MARK: - FTS5

    static func matchExpression(_ terms: [SearchTerm], excluded: [SearchTerm]) -> String {
        var expr = terms.map(compile).joined(separator: " AND ")
        for e in excluded where !terms.isEmpty { expr = "(\(expr)) NOT \(compile(e))" }
        return expr
    }

    static func compile(_ term: SearchTerm) -> String {
        switch term {
        case .word(let w): return text(w, prefix: false)
        case .prefix(let p): return text(p, prefix: true)
        case .phrase(let p): return text(p, prefix: false)
        case .exact(let e): return text(e, prefix: false, exact: true)
        case .title(let inner): return "title : (\(compile(inner)))"
        case .any(let members): return "(" + members.map(compile).joined(separator: " OR ") + ")"
        }
    }

    /// A user string as an FTS5 string: quoted, `"` doubled. CJK runs are looked up as phrases
    /// of bigrams in the `cjk` column (never stemmed, so an exact term looks them up the same).
    /// An exact term's words start with the tokenizer's exact marker, which no user text keeps.
    static func text(_ s: String, prefix: Bool, exact: Bool = false) -> String {
        let s = s.filter { $0 != StemAndWordTokenizer.exactMarker }
        let mark = exact ? String(StemAndWordTokenizer.exactMarker) : ""
        if CJKBigrams.contains(s) {
            var parts: [String] = []
            for run in CJKBigrams.runs(s) {
                if run.count == 1 {
                    parts.append("cjk : " + quote(String(String.UnicodeScalarView(run))) + " *")
                } else {
                    parts.append("cjk : " + quote(CJKBigrams.bigrams(run).joined(separator: " ")) + (prefix ? " *" : ""))
                }
            }
            let rest = String(String.UnicodeScalarView(s.unicodeScalars.filter { !CJKBigrams.isCJK($0) }))
            if rest.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                parts.append(quote(mark + rest))
            }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
        }
        return quote(mark + TextFolding.foldGreek(s)) + (prefix ? " *" : "")
    }

    /// `s` as an FTS5 string: every `"` doubled, scalar by scalar: by
    /// Character, a `"` with a combining mark after it stayed single and ended the string early,
    /// and the rest of what was typed was read as FTS5 syntax.
    static func quote(_ s: String) -> String {
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in s.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append(scalar) }
        }
        quoted.append("\"")
        return String(quoted)
    }

    // MARK: - Catalog conditions

    static func condition(_ filter: SearchFilter) -> (String, [DatabaseValueConvertible]) {
        switch filter {
        case .tag(let tag):
            let key = NoteIndex.tagKey(tag)
            // substr() counts characters (code points) in text, not bytes.
            return ("EXISTS (SELECT 1 FROM tags t WHERE t.note = n.rowid AND (t.key = ? OR substr(t.key, 1, ?) = ?))",
                    [key, key.unicodeScalars.count + 1, key + "/"])
        case .folder(let folder):
            return FolderFilter.condition(folder)
        case .after(let date): return ("n.created >= ?", [date.timeIntervalSince1970])
        case .before(let date): return ("n.created < ?", [date.timeIntervalSince1970])
        case .isConflict: return ("n.is_conflict = 1", [])
        case .hasAttachment:
            return ("EXISTS (SELECT 1 FROM links l JOIN files f ON f.name_key = l.target_key WHERE l.note = n.rowid)", [])
        case .links(let target):
            return ("EXISTS (SELECT 1 FROM links l WHERE l.note = n.rowid AND l.target_key = ?)", [linkKey(target)])
        }
    }
}
