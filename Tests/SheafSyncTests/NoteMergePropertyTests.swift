// Property tests for the note merge: the identities of a three-way merge, and the law of
// docs/merging.md that every line or tag either side added survives in the note or in its conflict
// file.
import Foundation
import PropertyBased
import SheafCore
import Testing
import TestSupport
@testable import SheafSync
@testable import SheafText

/// A note as parts, so edits are easy to make and the result easy to render.
struct NoteParts {
    var title: String
    var tags: [String]
    var flowTags: Bool
    var extra: [(String, String)]
    var body: [String]

    var text: String {
        var fm = ["title: \(title)"]
        if flowTags { fm.append("tags: [\(tags.joined(separator: ", "))]") }
        else { fm.append("tags:"); fm += tags.map { "  - \($0)" } }
        fm += extra.map { "\($0.0): \($0.1)" }
        return "---\n" + fm.map { $0 + "\n" }.joined() + "---\n" + body.map { $0 + "\n" }.joined()
    }

    static func random(_ rng: inout SeededRandom) -> NoteParts {
        let words = ["alpha", "beta", "gamma", "delta", "café", "тег", "日本語"]
        return NoteParts(
            title: "Note \(Int.random(in: 1...99, using: &rng))",
            tags: Array(["t1", "t2", "t3", "t4"].shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng))),
            flowTags: Bool.random(using: &rng),
            extra: Bool.random(using: &rng) ? [("status", "draft")] : [],
            body: (0..<Int.random(in: 1...12, using: &rng)).map { "\(words.randomElement(using: &rng)!) line \($0)" })
    }

    /// A random edit; `side` makes added text unique to that side.
    mutating func edit(_ rng: inout SeededRandom, side: String) {
        for n in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0...6, using: &rng) {
            case 0: body.insert("\(side) added \(n)", at: Int.random(in: 0...body.count, using: &rng))
            case 1 where !body.isEmpty: body[Int.random(in: 0..<body.count, using: &rng)] = "\(side) changed \(n)"
            case 2 where body.count > 1: body.remove(at: Int.random(in: 0..<body.count, using: &rng))
            case 3: tags.append("\(side)tag\(n)")
            case 4 where !tags.isEmpty: tags.remove(at: Int.random(in: 0..<tags.count, using: &rng))
            case 5: title = "\(side) title \(n)"
            default: extra = [("status", "\(side)-\(n)")]
            }
        }
    }
}

@Suite struct NoteMergePropertyTests {
    static let count = 300

    @Test func oneSidedMergesGiveThatSide() async {
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            let b = NoteParts.random(&rng)
            var x = b; x.edit(&rng, side: "x")
            let r1 = try? merge(b.text, x.text, b.text)
            let r2 = try? merge(b.text, b.text, x.text)
            let r3 = try? merge(b.text, x.text, x.text)
            #expect(r1?.note == x.text && r1?.remote == nil)
            #expect(r2?.note == x.text && r2?.remote == nil)
            #expect(r3?.note == x.text && r3?.remote == nil)
        }
    }

    @Test func everyAddedLineAndTagSurvives() async {
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            let b = NoteParts.random(&rng)
            var x = b; x.edit(&rng, side: "ours")
            var y = b; y.edit(&rng, side: "theirs")
            guard let r = try? merge(b.text, x.text, y.text) else { Issue.record("merge threw"); return }
            let kept = r.note + (r.remote ?? "")
            #expect(!hasMarkers(r.note) && !hasMarkers(r.remote ?? ""))
            for side in [x, y] {
                for line in side.body where !b.body.contains(line) {
                    #expect(kept.contains(line + "\n"), "lost body line \(line)")
                }
                for tag in side.tags where !b.tags.contains(tag) {
                    #expect(kept.contains(tag), "lost tag \(tag)")
                }
                if side.title != b.title { #expect(kept.contains("title: \(side.title)\n")) }
            }
            // Both results are valid notes.
            for text in [r.note, r.remote].compactMap({ $0 }) {
                let doc = NoteDocument(text: text)
                #expect(doc.frontMatter.map { (try? FrontMatter(parsing: $0)) != nil } ?? true)
            }
            // Deterministic.
            let again = try? merge(b.text, x.text, y.text)
            #expect(again?.note == r.note && again?.remote == r.remote)
        }
    }

    /// Issue 13: two devices append to the same note (each its own lines, maybe under the same
    /// new heading): the merge is clean, every line is there once, the local lines first.
    @Test func bothAppendingKeepsEveryLineOnceLocalFirst() async {
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            let b = NoteParts.random(&rng)
            let shared = Bool.random(using: &rng) ? ["", "## 2026-05-02"] : (Bool.random(using: &rng) ? [""] : [])
            let xs = (0..<Int.random(in: 1...4, using: &rng)).map { "- ours entry \($0)" }
            let ys = (0..<Int.random(in: 1...4, using: &rng)).map { "- theirs entry \($0)" }
            var x = b, y = b, expected = b
            x.body += shared + xs
            y.body += shared + ys
            // A blank line alone is a separator each side keeps; a heading both wrote is written once.
            expected.body += shared.count == 1 ? shared + xs + shared + ys : shared + xs + ys
            guard let r = try? merge(b.text, x.text, y.text) else { Issue.record("merge threw"); return }
            #expect(r.remote == nil)
            #expect(r.note == expected.text)
        }
    }

    /// Wherever git's own merge of two texts is clean, Sheaf's answer is git's.
    @Test func gitsCleanMergesAreKept() async {
        let folder = TempDir.make("git-clean")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let git = GitMergeFile(folder: folder)
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            let b = NoteParts.random(&rng)
            var x = b; x.edit(&rng, side: "ours")
            var y = b; y.edit(&rng, side: "theirs")
            let (bb, xb, yb) = (Array(b.text.utf8), Array(x.text.utf8), Array(y.text.utf8))
            let merged = git.run(bb, xb, yb)
            guard merged.status == 0 else { return }
            let r = try? NoteMerge.merge(base: bb, ours: xb, theirs: yb, isNote: false)
            #expect(r?.merged == merged.bytes && r?.remote == nil)
        }
    }

    @Test func disjointEditsNeverConflict() async {
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            var b = NoteParts.random(&rng)
            b.body = (0..<10).map { "line \($0)" }
            var x = b, y = b
            x.body[1] = "ours edit"
            x.tags.append("ourstag")
            y.body[8] = "theirs edit"
            y.tags.append("theirstag")
            if Bool.random(using: &rng) { y.title = "theirs title" }
            guard let r = try? merge(b.text, x.text, y.text) else { Issue.record("merge threw"); return }
            #expect(r.remote == nil)
            #expect(r.note.contains("ours edit") && r.note.contains("theirs edit"))
            #expect(r.note.contains("ourstag") && r.note.contains("theirstag"))
        }
    }
}
