// Each link row keeps the line it is written on, so a page of backlinks shows the lines without
// reading the linking notes; an index made before the lines were stored is rebuilt.
import Foundation
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

@Suite struct LinkLineTests {
    @Test func eachLinkIsStoredWithTheLineAReaderSeesItOn() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        TestFile.write("---\ncover: \"[[Lisbon]]\"\n---\n  Trains to [[Lisbon]] daily.  \n\n| a | [[Lisbon#Food]] |\n", to: root + "/Porto.md")
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let rows = try index.linkLines(toKey: "lisbon")
        #expect(rows.map(\.line) == ["cover: [[Lisbon]]", "Trains to [[Lisbon]] daily.", "| a | [[Lisbon#Food]] |"])
        #expect(rows.allSatisfy { $0.link.notePath == "Porto.md" && $0.noteTitle == "Porto" })

        TestFile.write("Boats to [[Lisbon]] now.\n", to: root + "/Porto.md")
        _ = try index.apply(VaultChangeSet(changed: ["Porto.md"]), vault: vault, walker: VaultWalker(vault: vault), reread: true)
        #expect(try index.linkLines(toKey: "lisbon").map(\.line) == ["Boats to [[Lisbon]] now."])
    }

    /// Regression: a paragraph written as one line was stored whole with each of its links, and
    /// the index grew from 1.22x to 1.49x the notes' bytes at 10k. A long line keeps the part
    /// around its link, cut between characters.
    @Test func aLongLineKeepsThePartAroundItsLinkNotTheWholeParagraph() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = String(repeating: "Ça va très bien, ", count: 30), after = String(repeating: " naïve café au lait", count: 30)
        TestFile.write(before + "see [[Lisbon]] then" + after + "\n", to: root + "/Porto.md")
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let line = try #require(try index.linkLines(toKey: "lisbon").first?.line)
        #expect(line.contains("see [[Lisbon]] then"), "\(line)")
        #expect(line.hasPrefix("…") && line.hasSuffix("…"), "\(line)")
        #expect(line.utf8.count < 200, "\(line.utf8.count)")
        #expect(!line.unicodeScalars.contains("\u{FFFD}"), "cut between characters: \(line)")
    }

    @Test func anIndexFromBeforeLinkLinesIsRebuiltWithThem() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        TestFile.write("Trains to [[Lisbon]] daily.\n", to: root + "/Porto.md")
        try OldIndex.make(in: root, upTo: "v6-readable-titles")
        let index = try NoteIndex(vault: vault)
        #expect(index.rebuildReason == .schemaChanged)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(try index.linkLines(toKey: "lisbon").map(\.line) == ["Trains to [[Lisbon]] daily."])
    }
}
