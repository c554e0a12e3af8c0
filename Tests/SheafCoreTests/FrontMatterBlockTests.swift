// The front-matter block is found line by line up to its closing line (a search cuts each hit's
// snippet from its body); it must be what splitting the whole text into lines found.
import SheafCore
import Testing

@Suite struct FrontMatterBlockTests {
    /// The block and body as found by splitting the whole text (`Lines.split`) first.
    static func bySplitting(_ text: Substring) -> (FrontMatterBlock, Substring)? {
        guard text.hasPrefix("---") else { return nil }
        let all = Lines.split(text)
        guard let first = all.first, Lines.content(first).trimmingTrailingBlanks == "---",
              !Lines.terminator(first).isEmpty else { return nil }
        for i in 1..<all.count {
            let content = Lines.content(all[i]).trimmingTrailingBlanks
            if content == "---" || content == "..." {
                let block = FrontMatterBlock(opening: String(first), lines: all[1..<i].map(String.init), closing: String(all[i]))
                return (block, text[all[i].endIndex...])
            }
        }
        return nil
    }

    @Test func theBlockFoundLineByLineIsTheOneSplittingFound() {
        let pieces = ["---", "...", "----", "\n", "\r\n", "\r", " ", "\t", "title: x", "a: é", "# H", "", "-- -", "\u{301}"]
        var texts = ["", "---", "---\n", "---\n---", "---\n---\n", "--- \t\r\n...\r\nbody", "---\nx\n...", "---\r\n\r\n---\n\u{301}b"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            texts.append("---" + (0..<Int.random(in: 0...14, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in texts {
            let found = FrontMatterBlock.take(from: text[...]), expected = Self.bySplitting(text[...])
            #expect(found?.0 == expected?.0, "\(text.debugDescription)")
            #expect(found.map { Array($0.1.utf8) } == expected.map { Array($0.1.utf8) }, "\(text.debugDescription)")
        }
    }
}
