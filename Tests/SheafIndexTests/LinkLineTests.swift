// Each link row keeps where the link is written (a byte offset in the note's text), from which a
// page of backlinks cuts the line; an index made before the offsets were stored is rebuilt.
import Foundation
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

@Suite struct LinkLineTests {
    /// The lines cut at the stored offsets from the note's file as it was indexed.
    func lines(_ index: NoteIndex, root: String, path: String = "Lisbon.md") throws -> [String] {
        try index.linkPlaces(concerning: [path]).map { row in
            let text = String(decoding: try #require(FileManager.default.contents(atPath: root + "/" + row.link.notePath)), as: UTF8.self)
            return Note.linkLines(at: [Note.Place(offset: row.offset, kind: row.link.kind, target: row.link.target)], inText: text)[0]
        }
    }

    @Test func eachLinkIsStoredWithWhereItIsWrittenInTheNotesText() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        TestFile.write("---\ncover: \"[[Lisbon]]\"\n---\n  Trains to [[Lisbon]] daily.  \n\n| a | [[Lisbon#Food]] |\n", to: root + "/Porto.md")
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let rows = try index.linkPlaces(concerning: ["Lisbon.md"])
        #expect(try lines(index, root: root) == ["cover: [[Lisbon]]", "Trains to [[Lisbon]] daily.", "| a | [[Lisbon#Food]] |"])
        #expect(rows.allSatisfy { $0.link.notePath == "Porto.md" && $0.noteTitle == "Porto" })
        #expect(rows.map(\.offset) == [14, 42, 69])

        TestFile.write("Boats to [[Lisbon]] now.\n", to: root + "/Porto.md")
        _ = try index.apply(VaultChangeSet(changed: ["Porto.md"]), vault: vault, walker: VaultWalker(vault: vault), reread: true)
        #expect(try lines(index, root: root) == ["Boats to [[Lisbon]] now."])
        #expect(try index.linkPlaces(concerning: ["Lisbon.md"]).map(\.noteHash) == [GitBlobID.of(Array("Boats to [[Lisbon]] now.\n".utf8))])
    }

    /// Regression: a paragraph written as one line was stored whole with each of its links, and
    /// the index grew from 1.22x to 1.49x the notes' bytes at 10k. A long line shows the part
    /// around its link, cut between characters.
    @Test func aLongLineKeepsThePartAroundItsLinkNotTheWholeParagraph() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = String(repeating: "Ça va très bien, ", count: 30), after = String(repeating: " naïve café au lait", count: 30)
        TestFile.write(before + "see [[Lisbon]] then" + after + "\n", to: root + "/Porto.md")
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let line = try #require(try lines(index, root: root).first)
        #expect(line.contains("see [[Lisbon]] then"), "\(line)")
        #expect(line.hasPrefix("…") && line.hasSuffix("…"), "\(line)")
        #expect(line.utf8.count < 200, "\(line.utf8.count)")
        #expect(!line.unicodeScalars.contains("\u{FFFD}"), "cut between characters: \(line)")
    }

    @Test func anIndexFromBeforeLinkOffsetsIsRebuiltWithThem() throws {
        let (vault, root) = ScannerTests().makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        TestFile.write("Trains to [[Lisbon]] daily.\n", to: root + "/Porto.md")
        try OldIndex.make(in: root, upTo: "v7-link-lines")
        let index = try NoteIndex(vault: vault)
        #expect(index.rebuildReason == .schemaChanged)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(try lines(index, root: root) == ["Trains to [[Lisbon]] daily."])
    }
}
