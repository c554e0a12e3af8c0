// Property tests: parse of render is identity, and an edit changes only the lines of its own key.
import PropertyBased
import Foundation
import Testing
import TestSupport
@testable import SheafCore

/// Random front-matter documents built from the styles people write.
enum RandomNote {
    static let words = ["travel", "food", "café", "ação", "тег", "日本", "a-b", "x_y", "2026", "Lisbon", "note"]

    static func make(_ rng: inout SeededRandom) -> (text: String, keys: [String]) {
        let eol = Bool.random(using: &rng) ? "\n" : "\r\n"
        var lines: [String] = []
        var keys: [String] = []
        for i in 0..<Int.random(in: 1...6, using: &rng) {
            let key = ["title", "tags", "aliases", "status", "k\(i)", "topics"].randomElement(using: &rng)!
            if keys.contains(key) { continue }
            keys.append(key)
            if Bool.random(using: &rng) { lines.append("# comment \(i)") }
            let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }
            switch Int.random(in: 0...4, using: &rng) {
            case 0: lines.append("\(key): \(words.randomElement(using: &rng)!)")
            case 1: lines.append("\(key): [\(items.joined(separator: ", "))]")
            case 2:
                lines.append("\(key):")
                lines += items.map { "  - \($0)" }
            case 3: lines.append("\(key): \"\(items.joined(separator: ", "))\"  # trailing")
            default:
                lines.append("\(key):")
                lines += items.map { "- \($0)" }
            }
            if Bool.random(using: &rng) { lines.append("") }
        }
        let body = ["", "Body line" + eol, "# Heading" + eol + eol + "text #tag" + eol].randomElement(using: &rng)!
        return ("---" + eol + lines.map { $0 + eol }.joined() + "---" + eol + body, keys)
    }
}

@Suite struct FrontMatterPropertyTests {
    @Test func renderOfParseIsIdentity() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            let (text, _) = RandomNote.make(&rng)
            #expect(NoteDocument(text: text).rendered == text)
            #expect((try? FrontMatterEditor(text: text))?.text == text)
        }
    }

    @Test func anyTextRoundTrips() async {
        await propertyCheck(count: 300, input: Gen.ascii.string(of: 0...80)) { text in
            #expect(NoteDocument(text: text).rendered == text)
            #expect(NoteDocument(text: "---\n" + text).rendered == "---\n" + text)
        }
    }

    @Test func anEditChangesOnlyItsOwnLines() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededRandom(seed: seed)
            let (text, keys) = RandomNote.make(&rng)
            guard var editor = try? FrontMatterEditor(text: text) else { return }
            let before = editor.frontMatter
            let key = (keys + ["fresh"]).randomElement(using: &rng)!
            let item = RandomNote.words.randomElement(using: &rng)! + "z"
            let op = Int.random(in: 0...2, using: &rng)
            do throws(FrontMatterEditRefusal) {
                switch op {
                case 0: try editor.addItems([item], to: key)
                case 1: try editor.set(key, to: item)
                default: try editor.remove(key)
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
                return
            }
            let after = editor.frontMatter
            // Every other key keeps its value and order.
            let otherBefore = before.entries.filter { $0.key != key }
            let otherAfter = after.entries.filter { $0.key != key }
            #expect(FrontMatter(entries: otherBefore) == FrontMatter(entries: otherAfter), "seed \(seed)")
            switch op {
            case 0: #expect(after.stringList(key).contains(item), "seed \(seed)")
            case 1: #expect(after[key] == .scalar(item), "seed \(seed)")
            default: #expect(after[key] == nil, "seed \(seed)")
            }
            // Lines outside the key's span are byte-identical: a common prefix and suffix cover them.
            let old = Lines.split(text).map(String.init)
            let new = Lines.split(editor.text).map(String.init)
            var prefix = 0
            while prefix < min(old.count, new.count) && old[prefix] == new[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < min(old.count, new.count) - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
            let changedOld = old[prefix..<(old.count - suffix)]
            let keyLines = changedOld.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("-") && !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            #expect(keyLines.allSatisfy { $0.hasPrefix(key + ":") }, "seed \(seed): changed \(Array(changedOld))")
            // The body is untouched.
            #expect(NoteDocument(text: editor.text).body == NoteDocument(text: text).body)
        }
    }
}
