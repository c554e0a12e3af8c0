// Why: a snippet must mark what made the note match, so the highlights come from the same
// tokenizer that indexed it, not from a second guess at stemming. The FTS table is contentless,
// so FTS5's highlight() has no text to work on; instead the candidate line is run through the
// `sheaf` tokenizer (StemAndWordTokenizer: the folded words plus their marked stems) and the
// query's terms through it in query mode, exactly as FTS5 does (a stem with its marked synonym, an
// exact term unstemmed), and the tokens are compared. CJK terms are
// matched as the index matches them (bigrams inside one run of CJK characters, CJKBigrams), and
// Greek accents are folded on both sides (TextFolding), so whatever matched is what is marked.
import Foundation
import GRDB
import GRDBSQLite
import SheafCore

struct Highlighter {
    /// One term to find: a run of token positions, each matched by any of its synonyms (a word is
    /// a run of one; the last token of a `prefix*` term matches any token starting with it), or a
    /// CJK run.
    enum Pattern: Equatable {
        case tokens([[[UInt8]]], lastIsPrefix: Bool)
        case cjk([Unicode.Scalar], prefix: Bool)
    }

    let patterns: [Pattern]
    private let tokenizer: any FTS5Tokenizer
    /// The same tokenizer, called without GRDB's wrapper, for the slot masks.
    private let wordsAndStems: WordsAndStems
    /// The words whose stems the slot masks need: those starting as a marked stem among the
    /// slots does (`stemStarts`); nil for every word.
    let stemming: [[CChar]]?
    /// Every token position of every `.tokens` pattern, in order, as one slot each: a line's
    /// tokens are compared with these as the tokenizer hands them over (`slotMasks`), so a line
    /// that matches nothing costs no token copies. Nil when there are more than 64.
    let slots: [Slot]?

    struct Slot {
        var synonyms: [[UInt8]]
        var prefix: Bool
    }

    /// The highlighter of `terms` (a query's positive terms; `title:` terms match titles, not the
    /// body a snippet is cut from, so they mark nothing), on a connection of the index.
    init(db: Database, terms: [SearchTerm]) throws {
        tokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: [StemAndWordTokenizer.name]))
        var patterns: [Pattern] = []
        for (text, kind) in Self.leaves(terms) {
            let prefix = kind == .prefix
            if CJKBigrams.contains(text) {
                for run in CJKBigrams.runs(text) { patterns.append(.cjk(run, prefix: prefix || run.count == 1)) }
                let rest = String(String.UnicodeScalarView(text.unicodeScalars.filter { !CJKBigrams.isCJK($0) }))
                if let p = Self.tokenPattern(tokenizer, rest, kind == .prefix ? .stemmed : kind) { patterns.append(p) }
            } else if let p = Self.tokenPattern(tokenizer, TextFolding.foldGreek(text), kind) {
                patterns.append(p)
            }
        }
        self.patterns = patterns
        var slots: [Slot] = []
        for case .tokens(let query, let lastIsPrefix) in patterns {
            for (j, synonyms) in query.enumerated() {
                slots.append(Slot(synonyms: synonyms, prefix: lastIsPrefix && j == query.count - 1))
            }
        }
        self.slots = slots.count <= 64 ? slots : nil
        wordsAndStems = try WordsAndStems(api: FTS5.api(db))
        stemming = Self.stemStarts(slots)
    }

    /// What a word must start with for its stem to be one of the slots' marked stems: porter
    /// rewrites only a word's end, keeping all of it but at most its last two bytes before what
    /// it adds (`y` to `i`, `ational` to `ate`, `biliti` to `ble`); so a stem `S` comes from a
    /// word starting with `S` less its last two bytes. Nil (stem every word) when a stem is too
    /// short to say anything, or a prefix slot could match a marked stem.
    static func stemStarts(_ slots: [Slot]) -> [[CChar]]? {
        let marker = UInt8(bitPattern: WordsAndStems.stemMarker)
        var starts: [[CChar]] = []
        for slot in slots {
            for synonym in slot.synonyms {
                if slot.prefix {
                    if synonym.isEmpty || synonym[0] == marker { return nil }
                    continue
                }
                guard synonym.first == marker else { continue }
                let stem = synonym.dropFirst()
                guard stem.count > 2 else { return nil }
                let start = stem.dropLast(2).map { CChar(bitPattern: $0) }
                if !starts.contains(start) { starts.append(start) }
            }
        }
        return starts
    }

    /// How a term's text is looked up, as `NoteIndex.compile` does.
    enum Kind: Equatable { case stemmed, prefix, exact }

    /// The strings of the body-matching terms, each with how it is looked up.
    static func leaves(_ terms: [SearchTerm]) -> [(String, Kind)] {
        terms.flatMap { term -> [(String, Kind)] in
            switch term {
            case .word(let w), .phrase(let w): return [(w, .stemmed)]
            case .prefix(let p): return [(p, .prefix)]
            case .exact(let e): return [(e, .exact)]
            case .title: return []
            case .any(let members): return leaves(members)
            }
        }
    }

    static func tokenPattern(_ tokenizer: any FTS5Tokenizer, _ text: String, _ kind: Kind) -> Pattern? {
        let tokenization: FTS5Tokenization = kind == .prefix ? [.query, .prefix] : .query
        let text = text.filter { $0 != StemAndWordTokenizer.exactMarker }
        let marked = kind == .exact ? String(StemAndWordTokenizer.exactMarker) + text : text
        let positions = tokenize(tokenizer, Array(marked.utf8), tokenization)
        guard !positions.isEmpty else { return nil }
        return .tokens(positions.map(\.tokens), lastIsPrefix: kind == .prefix)
    }

    /// The ranges of `line` that a pattern matches, in order, not overlapping.
    func matches(in line: String) -> [Range<String.Index>] {
        guard !patterns.isEmpty, !line.isEmpty else { return [] }
        // Greek is folded token by token (`matchesByPositions`); any other line is matched by
        // slot masks.
        if let slots, !TextFolding.hasGreek(line) { return matchesBySlots(in: line, slots) }
        return matchesByPositions(in: line)
    }

    /// `matches`, with the line's tokens compared where the tokenizer hands them over.
    func matchesBySlots(in line: String, _ slots: [Slot]) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        let utf8 = line.utf8
        let doc = slots.isEmpty ? [] : Self.slotMasks(wordsAndStems, Array(utf8), slots, stemming: stemming)
        var slot = 0
        for pattern in patterns {
            switch pattern {
            case .tokens(let query, _):
                defer { slot += query.count }
                guard doc.count >= query.count else { continue }
                for i in 0...(doc.count - query.count) where query.indices.allSatisfy({ doc[i + $0].mask & (1 << UInt64(slot + $0)) != 0 }) {
                    let from = utf8.index(utf8.startIndex, offsetBy: Int(doc[i].start))
                    let to = utf8.index(utf8.startIndex, offsetBy: Int(doc[i + query.count - 1].end))
                    found.append(from..<to)
                }
            case .cjk(let run, let prefix):
                found += Self.cjkMatches(run, prefix: prefix, in: line)
            }
        }
        return Self.merged(found)
    }

    /// `matches`, with the line's tokens kept by position (and Greek ones folded) first.
    func matchesByPositions(in line: String) -> [Range<String.Index>] {
        guard !patterns.isEmpty, !line.isEmpty else { return [] }
        var found: [Range<String.Index>] = []
        let greek = TextFolding.hasGreek(line)
        var positions: [Position]?
        for pattern in patterns {
            switch pattern {
            case .tokens(let query, let lastIsPrefix):
                if positions == nil {
                    positions = Self.tokenize(tokenizer, Array(line.utf8), .document)
                    if greek {
                        positions = positions!.map { p in
                            Position(tokens: p.tokens.map { Array(TextFolding.foldGreek(String(decoding: $0, as: UTF8.self)).utf8) },
                                     start: p.start, end: p.end)
                        }
                    }
                }
                let doc = positions!
                guard doc.count >= query.count else { continue }
                for i in 0...(doc.count - query.count) {
                    let hit = query.indices.allSatisfy { j in
                        let prefix = lastIsPrefix && j == query.count - 1
                        return doc[i + j].tokens.contains { token in
                            query[j].contains { prefix ? token.starts(with: $0) : token == $0 }
                        }
                    }
                    if hit {
                        let utf8 = line.utf8
                        let from = utf8.index(utf8.startIndex, offsetBy: doc[i].start)
                        let to = utf8.index(utf8.startIndex, offsetBy: doc[i + query.count - 1].end)
                        found.append(from..<to)
                    }
                }
            case .cjk(let run, let prefix):
                found += Self.cjkMatches(run, prefix: prefix, in: line)
            }
        }
        return Self.merged(found)
    }

    /// `found` in order, overlapping ranges joined.
    static func merged(_ found: [Range<String.Index>]) -> [Range<String.Index>] {
        let found = found.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<String.Index>] = []
        for r in found {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// Where the index's CJK lookup matches `run` in `line`: a phrase of the run's bigrams lies
    /// inside one CJK run of the line; a single character (`prefix`) matches a bigram starting with
    /// it, or a run of just that character.
    static func cjkMatches(_ query: [Unicode.Scalar], prefix: Bool, in line: String) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        let scalars = line.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex {
            guard CJKBigrams.isCJK(scalars[i]) else { i = scalars.index(after: i); continue }
            var indices: [String.Index] = []
            var j = i
            while j < scalars.endIndex, CJKBigrams.isCJK(scalars[j]) { indices.append(j); j = scalars.index(after: j) }
            let run = indices.map { scalars[$0] }
            if query.count == 1 {
                for k in run.indices where run[k] == query[0] && (run.count == 1 || k < run.count - 1 || !prefix) {
                    result.append(indices[k]..<(k + 1 < indices.count ? indices[k + 1] : j))
                }
            } else if run.count >= query.count {
                for k in 0...(run.count - query.count) where Array(run[k..<(k + query.count)]) == query {
                    let end = k + query.count
                    result.append(indices[k]..<(end < indices.count ? indices[end] : j))
                }
            }
            i = j
        }
        return result
    }

    /// One token position of a line: which slots its tokens (the token and those colocated with
    /// it) match, one bit each, and its bytes in the line.
    struct SlotPosition {
        var mask: UInt64
        var start: Int32
        var end: Int32
    }

    /// Runs the tokenizer over `bytes`, comparing each token with the slots where it is handed
    /// over, as `matches` compares `tokenize`'s positions: a slot's synonym equals the token, or
    /// for a prefix slot starts it.
    static func slotMasks(_ tokenizer: WordsAndStems, _ bytes: [UInt8], _ slots: [Slot], stemming: [[CChar]]?) -> [SlotPosition] {
        guard !bytes.isEmpty else { return [] }
        var state = SlotState(slots: slots)
        state.positions.reserveCapacity(bytes.count / 4)
        withUnsafeMutablePointer(to: &state) { out in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { text in
                    _ = tokenizer.tokenize(text.baseAddress, CInt(text.count), .document, flags: FTS5_TOKENIZE_DOCUMENT, context: out,
                                           stemming: stemming) {
                        context, flags, token, length, start, end in
                        let state = context!.assumingMemoryBound(to: SlotState.self)
                        var mask: UInt64 = 0
                        if let token, length > 0, state.pointee.mayMatch(UInt8(bitPattern: token[0])) {
                            let count = Int(length)
                            token.withMemoryRebound(to: UInt8.self, capacity: count) { token in
                                for (k, slot) in state.pointee.slots.enumerated() where slot.synonyms.contains(where: { synonym in
                                    (slot.prefix ? count >= synonym.count : count == synonym.count)
                                        && synonym.withUnsafeBufferPointer { $0.isEmpty || memcmp($0.baseAddress!, token, $0.count) == 0 }
                                }) {
                                    mask |= 1 << UInt64(k)
                                }
                            }
                        }
                        if flags & FTS5_TOKEN_COLOCATED != 0, !state.pointee.positions.isEmpty {
                            state.pointee.positions[state.pointee.positions.count - 1].mask |= mask
                        } else {
                            state.pointee.positions.append(SlotPosition(mask: mask, start: start, end: end))
                        }
                        return SQLITE_OK
                    }
                }
            }
        }
        return state.positions
    }

    /// What `slotMasks` carries through the tokenizer: the slots, the bytes their synonyms start
    /// with (a token starting with any other matches none of them, and costs no comparison), and
    /// the positions so far.
    struct SlotState {
        let slots: [Slot]
        var firstBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var positions: [SlotPosition] = []

        init(slots: [Slot]) {
            self.slots = slots
            for slot in slots {
                for synonym in slot.synonyms {
                    guard let first = synonym.first else { firstBytes = (~0, ~0, ~0, ~0); return }
                    let bit = UInt64(1) << UInt64(first & 63)
                    switch first >> 6 {
                    case 0: firstBytes.0 |= bit
                    case 1: firstBytes.1 |= bit
                    case 2: firstBytes.2 |= bit
                    default: firstBytes.3 |= bit
                    }
                }
            }
        }

        func mayMatch(_ first: UInt8) -> Bool {
            let bit = UInt64(1) << UInt64(first & 63)
            switch first >> 6 {
            case 0: return firstBytes.0 & bit != 0
            case 1: return firstBytes.1 & bit != 0
            case 2: return firstBytes.2 & bit != 0
            default: return firstBytes.3 & bit != 0
            }
        }
    }

    /// One token position: the token and those colocated with it, and its bytes in the text.
    struct Position {
        var tokens: [[UInt8]]
        var start: Int
        var end: Int
    }

    /// Runs the tokenizer over `bytes`, grouping colocated tokens by position.
    static func tokenize(_ tokenizer: any FTS5Tokenizer, _ bytes: [UInt8], _ tokenization: FTS5Tokenization) -> [Position] {
        var positions: [Position] = []
        guard !bytes.isEmpty else { return positions }
        withUnsafeMutablePointer(to: &positions) { out in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { text in
                    _ = tokenizer.tokenize(context: out, tokenization: tokenization, pText: text.baseAddress, nText: CInt(text.count)) {
                        context, flags, token, length, start, end in
                        let out = context!.assumingMemoryBound(to: [Position].self)
                        let bytes = token.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
                        if flags & FTS5_TOKEN_COLOCATED != 0, !out.pointee.isEmpty {
                            out.pointee[out.pointee.count - 1].tokens.append(bytes)
                        } else {
                            out.pointee.append(Position(tokens: [bytes], start: Int(start), end: Int(end)))
                        }
                        return SQLITE_OK
                    }
                }
            }
        }
        return positions
    }
}
