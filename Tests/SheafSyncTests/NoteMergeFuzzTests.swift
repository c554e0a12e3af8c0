// A seeded fuzz of the note merge: generated notes mixing front-matter (scalars, flow and block
// lists, nested maps, comments), CRLF and mixed line endings, a BOM, no final line break, `---`
// lines in the body and Unicode text; each merge is checked against every law of docs/merging.md
// (see `NoteMergeLaws`). Seeds 0..<count, so a failure names the seed that replays it.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafSync
@testable import SheafText

/// A generated note: front-matter entries, body lines and the byte shape it is written in.
struct FuzzNote {
    enum Entry: Equatable {
        case scalar(key: String, value: String, comment: String?)
        case flow(key: String, items: [String])
        case block(key: String, items: [String])
        case map(key: String, pairs: [(String, String)])
        case comment(String)

        static func == (a: Entry, b: Entry) -> Bool { a.lines == b.lines }

        var key: String? {
            switch self {
            case .scalar(let k, _, _), .flow(let k, _), .block(let k, _), .map(let k, _): return k
            case .comment: return nil
            }
        }

        var lines: [String] {
            switch self {
            case let .scalar(k, v, c): return ["\(k): \(v)" + (c.map { "  # \($0)" } ?? "")]
            case let .flow(k, items): return ["\(k): [\(items.joined(separator: ", "))]"]
            case let .block(k, items): return ["\(k):"] + items.map { "  - \($0)" }
            case let .map(k, pairs): return ["\(k):"] + pairs.map { "  \($0.0): \($0.1)" }
            case let .comment(text): return ["# \(text)"]
            }
        }
    }

    var hasFrontMatter: Bool
    var entries: [Entry]
    var body: [String]
    var bom: Bool
    var crlf: Bool
    /// Every other line break uses the other ending.
    var mixed: Bool
    var finalNewline: Bool

    var bytes: [UInt8] {
        var lines: [String] = []
        if hasFrontMatter { lines = ["---"] + entries.flatMap(\.lines) + ["---"] }
        lines += body
        var out = bom ? "\u{FEFF}" : ""
        for (i, line) in lines.enumerated() {
            out += line
            if i == lines.count - 1 && !finalNewline { break }
            out += crlf != (mixed && i % 2 == 1) ? "\r\n" : "\n"
        }
        return Array(out.utf8)
    }

    // MARK: Generation

    static let keys = ["title", "status", "tags", "aliases", "author", "meta", "rating", "café", "cafe\u{301}",
                       "日付", "links", "Tags", "\"quoted key\"", "modified", "due"]
    static let words = ["alpha", "beta", "gamma", "café", "cafe\u{301}", "naïve", "日本語", "тег", "Ελληνικά",
                        "emoji🎉", "ﬁ-ligature", "עברית", "zero\u{200B}width", "Straße", "STRASSE", "İstanbul"]
    static let scalars = ["plain words", "42", "3.14", "\"quoted: yes\"", "'single ''q'''", "true", "~", "",
                          "\"tab\\there\"", "[[Linked Note]]", "\"ünïcödé\"",
                          "2026-05-01", "2026-05-02T09:30:00Z", "2026-04-30 23:59"]

    static func word(_ rng: inout SeededRandom) -> String { words.randomElement(using: &rng)! }

    static func item(_ rng: inout SeededRandom, _ tag: String) -> String {
        switch Int.random(in: 0...3, using: &rng) {
        case 0: return word(&rng).lowercased().filter { !$0.isWhitespace }
        case 1: return "\(tag)\(Int.random(in: 0...9, using: &rng))"
        default: return "t\(Int.random(in: 0...5, using: &rng))"
        }
    }

    static func entry(_ rng: inout SeededRandom, key: String, tag: String) -> Entry {
        let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in item(&rng, tag) }
        switch Int.random(in: 0...5, using: &rng) {
        case 0: return .flow(key: key, items: items)
        case 1: return .block(key: key, items: items.isEmpty ? ["only"] : items)
        case 2: return .map(key: key, pairs: [("a", scalars.randomElement(using: &rng)!), ("b\(tag)", word(&rng))])
        case 3: return .scalar(key: key, value: "\(tag) \(word(&rng))", comment: Bool.random(using: &rng) ? word(&rng) : nil)
        default: return .scalar(key: key, value: scalars.randomElement(using: &rng)!, comment: nil)
        }
    }

    static func bodyLine(_ rng: inout SeededRandom, _ tag: String, _ n: Int) -> String {
        switch Int.random(in: 0...11, using: &rng) {
        case 0: return "---"
        case 1: return ""
        case 2: return "# \(tag) heading \(n) \(word(&rng))"
        case 3: return "- [[\(word(&rng))]] \(tag) \(n)"
        case 4: return "key: \(tag) \(n) not front-matter"
        default: return "\(tag) line \(n) \(word(&rng)) \(word(&rng))"
        }
    }

    static func random(_ rng: inout SeededRandom) -> FuzzNote {
        var note = FuzzNote(hasFrontMatter: Int.random(in: 0..<5, using: &rng) != 0, entries: [], body: [],
                            bom: Int.random(in: 0..<5, using: &rng) == 0, crlf: Int.random(in: 0..<3, using: &rng) == 0,
                            mixed: Int.random(in: 0..<8, using: &rng) == 0,
                            finalNewline: Int.random(in: 0..<4, using: &rng) != 0)
        var used = Set<String>()
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            if Int.random(in: 0..<6, using: &rng) == 0 { note.entries.append(.comment(word(&rng))); continue }
            let key = keys.randomElement(using: &rng)!
            if used.insert(key).inserted { note.entries.append(entry(&rng, key: key, tag: "b")) }
        }
        note.body = (0..<Int.random(in: 0...10, using: &rng)).map { bodyLine(&rng, "base", $0) }
        if Int.random(in: 0..<40, using: &rng) == 0 { note.body.insert("=======", at: note.body.count / 2) }
        return note
    }

    /// Up to four random edits; `tag` makes added text unique to one side.
    mutating func edit(_ rng: inout SeededRandom, tag: String) {
        for n in 0..<Int.random(in: 1...4, using: &rng) {
            let keyed = entries.indices.filter { entries[$0].key != nil }
            switch Int.random(in: 0...19, using: &rng) {
            case 0, 1: body.insert(Self.bodyLine(&rng, tag, n), at: Int.random(in: 0...body.count, using: &rng))
            case 2 where !body.isEmpty: body[Int.random(in: 0..<body.count, using: &rng)] = Self.bodyLine(&rng, tag, n)
            case 3 where !body.isEmpty: body.remove(at: Int.random(in: 0..<body.count, using: &rng))
            case 4: body = Int.random(in: 0..<3, using: &rng) == 0 ? [] : body + [Self.bodyLine(&rng, tag, n)]
            case 5 where !keyed.isEmpty, 6 where !keyed.isEmpty:
                let i = keyed.randomElement(using: &rng)!
                entries[i] = Self.entry(&rng, key: entries[i].key!, tag: tag)
            case 7:
                let key = Self.keys.randomElement(using: &rng)!
                if !entries.contains(where: { $0.key == key }) {
                    entries.insert(Self.entry(&rng, key: key, tag: tag), at: Int.random(in: 0...entries.count, using: &rng))
                }
            case 8 where !keyed.isEmpty: entries.remove(at: keyed.randomElement(using: &rng)!)
            case 9 where !keyed.isEmpty, 10 where !keyed.isEmpty:
                let i = keyed.randomElement(using: &rng)!
                switch entries[i] {
                case let .flow(k, items):
                    entries[i] = Bool.random(using: &rng) || items.isEmpty
                        ? .flow(key: k, items: items + [Self.item(&rng, tag)])
                        : .flow(key: k, items: items.filter { $0 != items.randomElement(using: &rng)! })
                case let .block(k, items):
                    var items = items
                    switch Int.random(in: 0..<4, using: &rng) {
                    case _ where items.count < 2, 0, 1:
                        items.insert(Self.item(&rng, tag), at: Int.random(in: 0...items.count, using: &rng))
                    case 2: items[Int.random(in: 0..<items.count, using: &rng)] = Self.item(&rng, tag)  // an edit
                    default: items.remove(at: Int.random(in: 0..<items.count, using: &rng))
                    }
                    entries[i] = .block(key: k, items: items)
                case let .map(k, pairs):
                    var pairs = pairs
                    if Bool.random(using: &rng) { pairs[0].1 = "\(tag) \(Self.word(&rng))" } else { pairs.append(("n\(tag)\(n)", Self.word(&rng))) }
                    entries[i] = .map(key: k, pairs: pairs)
                case let .scalar(k, _, c):
                    entries[i] = .scalar(key: k, value: "\(tag) value \(n)", comment: c)
                case .comment: break
                }
            case 11: entries.insert(.comment("\(tag) note \(n)"), at: Int.random(in: 0...entries.count, using: &rng))
            case 12 where Int.random(in: 0..<3, using: &rng) == 0: hasFrontMatter.toggle()
            case 13: finalNewline.toggle()
            case 14 where Int.random(in: 0..<2, using: &rng) == 0: bom.toggle()
            case 15 where Int.random(in: 0..<2, using: &rng) == 0: crlf.toggle()
            case 16 where Int.random(in: 0..<3, using: &rng) == 0: mixed.toggle()
            case 17 where Int.random(in: 0..<3, using: &rng) == 0:
                // Front-matter alone, the body cut.
                hasFrontMatter = true; body = []; finalNewline = Bool.random(using: &rng)
            default: body.append(Self.bodyLine(&rng, tag, n + 10))
            }
        }
        // A note without front-matter never starts with a `---` line (it would read as a block).
        if !hasFrontMatter, body.first == "---" { body[0] = "\(tag) first line" }
    }
}

/// The laws of docs/merging.md ("The law") for one merge, each failure described in words.
enum NoteMergeLaws {
    static let markers = ["<<<<<<<", "=======", ">>>>>>>", "|||||||"]
    static let notePath = "Notes/Fuzz.md"

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Lines without their terminators (CR included), the BOM dropped.
    static func lines(_ s: String) -> [String] {
        var s = Substring(s)
        if s.unicodeScalars.first == "\u{FEFF}" { s = Substring(s.unicodeScalars.dropFirst()) }
        return Lines.split(s).map { line in
            var c = Lines.content(line)
            if c.utf8.last == UInt8(ascii: "\r") { c = c.dropLast() }
            return String(c)
        }
    }

    /// Parsed front-matter: nil when the block does not parse, empty when there is none.
    static func frontMatter(_ s: String) -> FrontMatter? {
        guard let block = NoteDocument(text: s).frontMatter else { return FrontMatter() }
        return try? FrontMatter(parsing: block)
    }

    /// "\n" or "\r\n" when every line break of `bytes` is that one, nil when mixed or none.
    static func uniformEnding(_ bytes: [UInt8]) -> String? {
        var lf = 0, crlf = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            if i > 0 && bytes[i - 1] == UInt8(ascii: "\r") { crlf += 1 } else { lf += 1 }
        }
        if lf > 0 && crlf == 0 { return "\n" }
        if crlf > 0 && lf == 0 { return "\r\n" }
        return nil
    }

    static func hasBOM(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xEF, 0xBB, 0xBF]) }

    /// What of a side's value `s` for `key` is missing from both the note and the conflict file:
    /// list items one by one, nested keys of a mapping one by one, any other value whole.
    static func lost(_ s: YAMLValue, base: YAMLValue?, other: YAMLValue?, note: YAMLValue?, conflict: YAMLValue?,
                     key: String) -> [String] {
        if s == base || (base != nil && other == nil) || note == s || conflict == s { return [] }
        if isList(s, key: key), base.map({ isList($0, key: key) }) ?? true {
            let before = Set(items(base, key: key))
            return items(s, key: key).filter { !before.contains($0) }
                .filter { !items(note, key: key).contains($0) && !items(conflict, key: key).contains($0) }
                .map { "item \($0.debugDescription) of \(key.debugDescription)" }
        }
        if case .map(let pairs) = s {
            func sub(_ v: YAMLValue?, _ k: String) -> YAMLValue? {
                if case .map(let p)? = v { return p.first { $0.0 == k }?.1 }
                return nil
            }
            return pairs.flatMap { k, v in
                lost(v, base: sub(base, k), other: sub(other, k), note: sub(note, k), conflict: sub(conflict, k), key: k)
                    .map { "\(key.debugDescription)." + $0 }
            }
        }
        return ["value of \(key.debugDescription)"]
    }

    static func isList(_ value: YAMLValue, key: String) -> Bool {
        if case .list = value { return true }
        if case .scalar = value { return ["tags", "aliases"].contains(key.lowercased()) }
        if case .null = value { return true }  // the merge reads null as an empty list
        return false
    }

    static func items(_ value: YAMLValue?, key: String) -> [String] {
        switch value {
        case .list(let values)?: return values.compactMap(\.text)
        case .scalar(let text)? where ["tags", "aliases"].contains(key.lowercased()): return FrontMatter.splitList(text)
        default: return []
        }
    }

    /// Every law for `merge(base, ours, theirs)`; an empty result means all hold.
    static func check(base: [UInt8]?, ours: [UInt8], theirs: [UInt8]) -> [String] {
        var failures: [String] = []
        func merge(_ b: [UInt8]?, _ o: [UInt8], _ t: [UInt8]) -> FileMerge? {
            do { return try NoteMerge.merge(base: b, ours: o, theirs: t, isNote: true) } catch {
                failures.append("merge threw \(error)"); return nil
            }
        }
        // Identities, byte for byte.
        if let b = base {
            if let r = merge(b, ours, b), r.merged != ours || r.remote != nil { failures.append("merge(b,x,b) != x") }
            if let r = merge(b, b, theirs), r.merged != theirs || r.remote != nil { failures.append("merge(b,b,y) != y") }
        }
        if let r = merge(base, ours, ours), r.merged != ours || r.remote != nil { failures.append("merge(b,x,x) != x") }

        guard let r = merge(base, ours, theirs) else { return failures }
        if let again = merge(base, ours, theirs), again != r { failures.append("not deterministic") }
        let note = text(r.merged)
        let conflict = r.remote.map { text(ConflictFile.content(remote: $0, notePath: notePath, isNote: true)) }
        let (b, o, t) = (text(base ?? []), text(ours), text(theirs))
        let inputs = [b, o, t]

        // No conflict marker unless an input holds that line.
        let inputLines = Set(inputs.flatMap(lines))
        for (name, out) in [("note", note), ("conflict file", conflict ?? "")] {
            for line in lines(out) where markers.contains(where: { line.hasPrefix($0) }) && !inputLines.contains(line) {
                failures.append("marker line \(line.debugDescription) in the \(name)")
            }
        }

        // BOM and line endings: the local side's in the note, the remote side's in the conflict
        // file (unless one side is unchanged: then the merge is the other side, byte for byte).
        if (base ?? []) != ours && (base ?? []) != theirs && ours != theirs, hasBOM(r.merged) != hasBOM(ours) { failures.append("note BOM \(hasBOM(r.merged)), local \(hasBOM(ours))") }
        if (base ?? []) != ours && (base ?? []) != theirs && ours != theirs, let e = uniformEnding(ours), let m = uniformEnding(r.merged) ?? (r.merged.contains(UInt8(ascii: "\n")) ? "mixed" : nil), m != e {
            failures.append("note line endings \(m.debugDescription), local \(e.debugDescription)")
        }
        if let remote = r.remote {
            let file = ConflictFile.content(remote: remote, notePath: notePath, isNote: true)
            if hasBOM(file) != hasBOM(theirs) { failures.append("conflict file BOM \(hasBOM(file)), remote \(hasBOM(theirs))") }
            // A remote version without any line break gives no ending to keep for the lines
            // the conflict file adds (ConflictFile.content sees only those bytes).
            if let e = uniformEnding(theirs), remote.contains(UInt8(ascii: "\n")),
               case let m = uniformEnding(file) ?? "mixed", m != e {
                failures.append("conflict file line endings \(m.debugDescription), remote \(e.debugDescription)")
            }
        }

        let fms = inputs.map(frontMatter)
        let allParse = fms.allSatisfy { $0 != nil }
        // Lines compare byte for byte (Swift's == equates "é" and "e\u{301}").
        let kept = Set((lines(note) + lines(conflict ?? "")).map { Array($0.utf8) })

        // Every line either side added (to the body, or anywhere when a block does not parse).
        func addedLines(_ side: String) -> [String] {
            let sideLines = allParse ? lines(NoteDocument(text: side).body) : lines(side)
            let baseLines = Set((allParse ? lines(NoteDocument(text: b).body) : lines(b)).map { Array($0.utf8) })
            return sideLines.filter { !baseLines.contains(Array($0.utf8)) }
        }
        for (name, side) in [("local", o), ("remote", t)] {
            for line in addedLines(side) where !kept.contains(Array(line.utf8)) { failures.append("lost \(name) line \(line.debugDescription)") }
        }

        // Nothing invented: every body line of the note is a line of an input (issue 13's rule
        // writes both sides' insertions, never a line of its own).
        let inputLineBytes = Set(inputLines.map { Array($0.utf8) })
        for line in lines(NoteDocument(text: note).body) where !inputLineBytes.contains(Array(line.utf8)) {
            failures.append("invented line \(line.debugDescription)")
        }

        guard allParse, let fb = fms[0], let fo = fms[1], let ft = fms[2] else { return failures }
        // Front-matter still parses, in the note and in the conflict file.
        guard let fn = frontMatter(note) else { failures.append("merged front-matter does not parse"); return failures }
        let fc = conflict.map(frontMatter) ?? FrontMatter()
        if conflict != nil && fc == nil { failures.append("conflict-file front-matter does not parse"); return failures }
        if NoteDocument(text: o).frontMatter != nil && NoteDocument(text: t).frontMatter != nil
            && NoteDocument(text: note).frontMatter == nil { failures.append("both sides have front-matter, the note none") }
        if let conflict {
            // The conflict file is the remote version with `conflict-of` and its own `id`.
            let remote = frontMatter(text(r.remote!)) ?? FrontMatter()
            for (k, v) in remote.entries where k != "id" && k != "conflict-of" && fc?[k] != v {
                failures.append("conflict file lost key \(k.debugDescription)")
            }
            if fc?["conflict-of"] != .scalar(notePath) { failures.append("conflict file lacks conflict-of") }
            if NoteDocument(text: conflict).body != NoteDocument(text: text(r.remote!)).body {
                failures.append("conflict file body differs from the remote side")
            }
        }
        // Every key or list item either side added or changed, unless the other side removed it.
        for (name, side, other) in [("local", fo, ft), ("remote", ft, fo)] {
            for (k, v) in side.entries {
                for path in lost(v, base: fb[k], other: other[k], note: fn[k], conflict: fc?[k], key: k) {
                    failures.append("lost \(name) \(path)")
                }
            }
        }
        return failures
    }
}

@Suite struct NoteMergeFuzzTests {
    /// 2,000 by default (a few seconds); `SHEAF_LONG_TESTS=1` runs 50,000.
    static let count = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1" ? 50_000 : 2_000

    static func inputs(seed: Int) -> (base: [UInt8]?, ours: [UInt8], theirs: [UInt8]) {
        var rng = SeededRandom(seed: seed)
        let b = FuzzNote.random(&rng)
        var x = b, y = b
        x.edit(&rng, tag: "ours")
        y.edit(&rng, tag: "theirs")
        let addAdd = Int.random(in: 0..<25, using: &rng) == 0
        return (addAdd ? nil : b.bytes, x.bytes, y.bytes)
    }

    @Test func generatedMergesKeepEveryLawOfSync() {
        var failed = 0
        for seed in 0..<Self.count {
            let (b, o, t) = Self.inputs(seed: seed)
            let failures = NoteMergeLaws.check(base: b, ours: o, theirs: t)
            if !failures.isEmpty {
                failed += 1
                if failed <= 20 { Issue.record("seed \(seed): \(failures.joined(separator: "; "))") }
                if failed == 1 {
                    let shown = [b ?? [], o, t].map { String(decoding: $0, as: UTF8.self).debugDescription }
                    Issue.record("seed \(seed) inputs: base \(shown[0]), local \(shown[1]), remote \(shown[2])")
                }
            }
        }
        #expect(failed == 0, "\(failed) of \(Self.count) merges broke a law")
    }
}

