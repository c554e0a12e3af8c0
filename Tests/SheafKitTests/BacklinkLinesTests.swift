// A page of backlinks shows the line holding each link, cut from the linking note's file when the
// page is made (the index keeps only where each link is written). The file may have changed since
// it was indexed (no watcher, or one that has not caught up): the page must show what the file
// says now, never bytes from where the link used to be.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct BacklinkLinesTests {
    /// Regression: the lines were stored in the index, so a note edited without the index knowing
    /// showed its old line; cut at stored offsets alone, they would be other bytes of the new text.
    @Test func aBacklinkOfANoteEditedWithoutTheIndexKnowingShowsItsLineAsTheFileHasItNow() throws {
        let v = try KitVault()
        try v.write("# Lisbon\n", "Lisbon.md")
        try v.write("Trains to [[Lisbon]] daily.\n", "Porto.md")
        try v.write("Ferry to [[Lisbon]].\n", "Faro.md")
        try v.write("Via [[Lisbon]] once.\n", "Braga.md")
        v.age()  // not racily clean: the index records each file's identity, and the page trusts it
        let session = try v.session()  // keeps the index it scanned: later edits are unknown to it
        #expect(try session.notePage(at: "Lisbon.md")?.backlinks.map(\.path) == ["Braga.md", "Faro.md", "Porto.md"])

        try v.write("# Porto, north\n\nA longer first paragraph before it all.\nBoats to [[Lisbon|the capital]] now.\n", "Porto.md")
        try v.write("Ferry to nowhere.\n", "Faro.md")
        unlink(v.root + "/Braga.md")
        let page = try #require(try session.notePage(at: "Lisbon.md"))
        #expect(page.backlinks == [Backlink(path: "Porto.md", title: "Porto, north", lines: ["Boats to [[Lisbon|the capital]] now."])])
    }

    /// The lines cut from a note as indexed are the lines a fresh parse of it gives: after a BOM,
    /// after front-matter (a property link shows its key), with CRLF line ends (no CR shown), in a note that is
    /// not UTF-8, in one whose front-matter does not parse, and of a long line only the part around
    /// the link.
    @Test func theLinesCutFromAnIndexedNoteAreTheLinesOfItsText() throws {
        let v = try KitVault()
        try v.write("# Lisbon\n", "Lisbon.md")
        let long = String(repeating: "far away, ", count: 12)  // 120 bytes
        try v.write("\u{FEFF}[[Lisbon]] first.\n", "A.md")
        try v.write("\u{FEFF}---\r\ncover: \"[[Lisbon]]\"\r\ntags: [x]\r\n---\r\nOn [[Lisbon]] here.\r\n", "B.md")
        TestFile.write(Array("Caf".utf8) + [0xE9] + Array(" to [[Lisbon]] then.\n".utf8), to: v.root + "/C.md")
        try v.write(long + "[[Lisbon]]" + long + "\n", "D.md")
        try v.write("---\nkey: [unclosed\n---\nSee [[Lisbon]] there.\n", "E.md")  // YAML read as body text
        v.age()
        let expected = [
            Backlink(path: "A.md", title: "A", lines: ["[[Lisbon]] first."]),
            Backlink(path: "B.md", title: "B", lines: ["cover: [[Lisbon]]", "On [[Lisbon]] here."]),
            Backlink(path: "C.md", title: "C", lines: ["Caf\u{FFFD} to [[Lisbon]] then."]),
            // 60 bytes before the target (`[[` and 58 of the text), 120 from it (`Lisbon]]` and 112).
            Backlink(path: "D.md", title: "D", lines: ["…" + long.suffix(58) + "[[Lisbon]]" + long.prefix(112) + "…"]),
            Backlink(path: "E.md", title: "E", lines: ["See [[Lisbon]] there."]),
        ]
        let indexed = try v.session()
        #expect(try indexed.notePage(at: "Lisbon.md")?.backlinks == expected)

        // The same notes made new files (other hashes, so parsed again on the page) give the same lines.
        for path in ["A.md", "B.md", "C.md", "D.md", "E.md"] {
            let bytes = try #require(FileManager.default.contents(atPath: v.root + "/" + path))
            TestFile.write([UInt8](bytes) + Array("\n".utf8), to: v.root + "/" + path)
        }
        #expect(try indexed.notePage(at: "Lisbon.md")?.backlinks == expected)
    }
}

extension KitVault {
    /// Every note's mtime an hour back, so an index made now records each file's identity (a
    /// file changed within a clock tick of being indexed records none: racily clean).
    func age() {
        let past = Date(timeIntervalSinceNow: -3600)
        for case let path as String in FileManager.default.enumerator(atPath: root)! where path.hasSuffix(".md") && !path.hasPrefix(".") {
            try? FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: root + "/" + path)
        }
    }
}
