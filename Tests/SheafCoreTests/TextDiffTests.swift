// TextDiff: the merge's line diff as lines a reader sees, in order: every line of both texts
// once, kept, removed or added, and nothing but what differs marked.
import Testing
@testable import SheafCore

@Suite struct TextDiffTests {
    static func shown(_ old: String, _ new: String) -> [String] {
        TextDiff.lines(from: Array(old.utf8), to: Array(new.utf8)).map { line in
            let sign = switch line.kind { case .kept: " "; case .removed: "-"; case .added: "+" }
            return sign + String(decoding: line.bytes, as: UTF8.self)
        }
    }

    @Test func aChangedLineIsRemovedThenAddedAndTheRestKept() {
        #expect(Self.shown("a\nb\nc\n", "a\nB\nc\nd\n") == [" a", "-b", "+B", " c", "+d"])
        #expect(Self.shown("a\r\nb\r\n", "a\r\nb\r\n") == [" a", " b"])
        #expect(Self.shown("", "x\n") == ["+x"])
        #expect(Self.shown("x\ny\n", "") == ["-x", "-y"])
    }

    @Test func everyLineOfBothTextsAppearsOnceInOrder() {
        let old = (0..<40).map { "line \($0 % 7)" }.joined(separator: "\n") + "\n"
        let new = (0..<45).map { "line \(($0 * 3) % 11)" }.joined(separator: "\n") + "\n"
        let lines = TextDiff.lines(from: Array(old.utf8), to: Array(new.utf8))
        let before = lines.filter { $0.kind != .added }.map { String(decoding: $0.bytes, as: UTF8.self) }
        let after = lines.filter { $0.kind != .removed }.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(before.joined(separator: "\n") + "\n" == old)
        #expect(after.joined(separator: "\n") + "\n" == new)
    }
}
