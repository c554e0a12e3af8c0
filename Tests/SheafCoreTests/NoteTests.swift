import Foundation
import Testing
import Yams
import TestSupport
@testable import SheafCore

@Suite struct NoteTests {
    func note(_ text: String, path: String = "Folder/File name.md") -> Note {
        Note(path: path, bytes: Array(text.utf8))
    }

    @Test func titleComesFromFrontMatterThenHeadingThenFileName() {
        #expect(note("---\ntitle: FM\n---\n# H\n").title == "FM")
        #expect(note("# H\nintro\n").title == "H")
        // An H1 below body text (a footer) is no title (issue 23, item 8).
        #expect(note("intro\n# H\n").title == "File name")
        #expect(note("no heading\n").title == "File name")
    }

    @Test func tagsFromListStringAndBody() {
        #expect(note("---\ntags: [a, B]\n---\ntext #c #b\n").tags == ["a", "B", "c"])
        #expect(note("---\ntags: a, b\n---\n").tags == ["a", "b"])
        #expect(note("---\ntags:\n  - \"#x\"\n---\n").tags == ["x"])
    }

    @Test func datesAndId() {
        let n = note("---\nid: 1234abcd\ncreated: 2026-03-14T09:30:00+01:00\nupdated: 2026-03-15\n---\n")
        #expect(n.id == "1234abcd")
        #expect(n.created == Date(timeIntervalSince1970: 1773477000))
        #expect(n.modified == NoteDate.parse("2026-03-15", timeZone: NoteDate.localZone))
    }

    @Test func brokenYAMLIsReadAsTextWithAWarning() {
        let n = note("---\ntags: [unclosed\ntitle: x\n---\nbody #tag\n")
        #expect(n.warnings.count == 1)
        #expect(n.title == "File name")
        #expect(n.body.contains("unclosed"))
        #expect(n.tags == ["tag"])
        #expect(!n.isEditable)
    }

    @Test func nonUTF8BytesAreReadWithAWarning() {
        var bytes = Array("# Café\n".utf8)
        bytes.insert(0xFF, at: 3)
        let n = Note(path: "x.md", bytes: bytes)
        #expect(n.warnings == [.notUTF8])
        #expect(n.title == "C\u{FFFD}afé")
        #expect(!n.isEditable)
    }

    @Test func binaryFileNamedMdIsIndexedByNameOnly() {
        let n = Note(path: "img.md", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 0, 1, 2])
        #expect(n.warnings == [.binary])
        #expect(n.title == "img")
        #expect(n.body.isEmpty)
    }

    @Test func oversizedNoteIsReadByPathOnly() {
        let n = Note(path: "big.md", bytes: [UInt8](repeating: 0x61, count: Note.sizeLimit + 1))
        #expect(n.warnings == [.tooLarge(bytes: Note.sizeLimit + 1)])
    }

    @Test func datesInTheFormsPeopleWrite() {
        let utc = TimeZone(identifier: "UTC")!
        #expect(NoteDate.parse("2026-03-14", timeZone: utc) == Date(timeIntervalSince1970: 1773446400))
        #expect(NoteDate.parse("2026-03-14 09:30", timeZone: utc) == Date(timeIntervalSince1970: 1773480600))
        #expect(NoteDate.parse("2026-03-14T09:30:00Z") == Date(timeIntervalSince1970: 1773480600))
        #expect(NoteDate.parse("2026-03-14T09:30:00.5-02:00") == Date(timeIntervalSince1970: 1773487800.5))
        #expect(NoteDate.parse("March 14") == nil)
        #expect(NoteDate.parse("2026-13-01") == nil)
    }

    /// Issue 14: `created: 2026-03-14 09:30` was read as 09:30 UTC; Obsidian and zk read it as the
    /// user's wall clock. An explicit offset or `Z` still wins.
    @Test func timesWithoutAnOffsetAreLocalTimeNotUTC() {
        let lisbon = TimeZone(identifier: "Europe/Lisbon")!   // UTC+1 in summer, UTC+0 in winter
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(NoteDate.parse("2026-07-01 09:30", timeZone: lisbon) == Date(timeIntervalSince1970: 1782898200 - 3600))
        #expect(NoteDate.parse("2026-01-15T09:30", timeZone: lisbon) == Date(timeIntervalSince1970: 1768469400))
        #expect(NoteDate.parse("2026-03-14", timeZone: tokyo) == Date(timeIntervalSince1970: 1773446400 - 9 * 3600))
        #expect(NoteDate.parse("2026-03-14T09:30:00Z", timeZone: tokyo) == Date(timeIntervalSince1970: 1773480600))
        #expect(NoteDate.parse("2026-03-14T09:30:00+01:00", timeZone: tokyo) == Date(timeIntervalSince1970: 1773477000))
        // Around a daylight-saving change: the hour before and after 2026-03-29 01:00 UTC in Lisbon.
        #expect(NoteDate.parse("2026-03-29 00:30", timeZone: lisbon) == Date(timeIntervalSince1970: 1774744200))
        #expect(NoteDate.parse("2026-03-29 03:30", timeZone: lisbon) == Date(timeIntervalSince1970: 1774744200 + 2 * 3600))
    }

    /// Issue 14: `tags add NOTE 0x10 .inf 2024-01-01` wrote them plain, and YAML reads 16, infinity
    /// and a date back. Whatever would not read back as the same string is quoted.
    @Test func tagsThatYAMLWouldReadAsNumbersOrDatesAreQuoted() throws {
        var editor = try FrontMatterEditor(text: "---\ntitle: T\n---\nbody\n")
        let words = ["0x10", ".inf", "2024-01-01", "1e3", "0o17", "yes", "null", "12:30", "plain", "c++"]
        _ = try editor.addItems(words, to: "tags")
        let yaml = editor.text.components(separatedBy: "---\n")[1]
        let loaded = try #require(try Yams.load(yaml: yaml) as? [String: Any])
        let items = try #require(loaded["tags"] as? [Any])
        #expect(items.count == words.count)
        for (item, word) in zip(items, words) {
            #expect(item as? String == word, "\(word) reads back as \(item)")
        }
        #expect(editor.text.contains("- plain\n"))
    }

    @Test func tagsObsidianWouldNotAcceptAreRefused() throws {
        for bad in ["two words", "a,b", "x#y", "1984", "#123", "tab\there"] {
            #expect(throws: SheafError.self) { try TagName.cleaned([bad]) }
        }
        #expect(try TagName.cleaned(["#travel", "travel/portugal", "2024-01-01", "0x10", "", "#"]) == ["travel", "travel/portugal", "2024-01-01", "0x10"])
    }
}
