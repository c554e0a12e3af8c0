import Foundation
import Testing
@testable import SheafCore

@Suite struct NoteTests {
    func note(_ text: String, path: String = "Folder/File name.md") -> Note {
        Note(path: path, bytes: Array(text.utf8))
    }

    @Test func titleComesFromFrontMatterThenHeadingThenFileName() {
        #expect(note("---\ntitle: FM\n---\n# H\n").title == "FM")
        #expect(note("intro\n# H\n").title == "H")
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
        #expect(n.modified == Date(timeIntervalSince1970: 1773532800))
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
        #expect(NoteDate.parse("2026-03-14") == Date(timeIntervalSince1970: 1773446400))
        #expect(NoteDate.parse("2026-03-14 09:30") == Date(timeIntervalSince1970: 1773480600))
        #expect(NoteDate.parse("2026-03-14T09:30:00Z") == Date(timeIntervalSince1970: 1773480600))
        #expect(NoteDate.parse("2026-03-14T09:30:00.5-02:00") == Date(timeIntervalSince1970: 1773487800.5))
        #expect(NoteDate.parse("March 14") == nil)
        #expect(NoteDate.parse("2026-13-01") == nil)
    }

    @Test func aNoteOverTheSizeLimitIsReadOnlyAsFarAsItsHead() throws {
        let file = NSTemporaryDirectory() + "sheaf-note-\(UUID().uuidString).md"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let text = "---\ntitle: Big one\n---\n" + String(repeating: "a line of text\n", count: 10_000)
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let size = text.utf8.count
        guard case .whole(let whole)? = NoteBytes.read(file, limit: size) else { Issue.record("not read whole"); return }
        #expect(whole.count == size)
        guard case .head(let head, let total)? = NoteBytes.read(file, limit: size - 1) else { Issue.record("no head"); return }
        #expect(total == size)
        #expect(head.count <= NoteBytes.headLimit && head.count > NoteBytes.headLimit - 20 && head.last == UInt8(ascii: "\n"))
        let note = Note(path: "F/Big.md", read: .head(head, size: total))
        #expect(note.title == "Big one" && note.body.isEmpty && note.warnings == [.tooLarge(bytes: size)] && !note.isEditable)
        #expect(NoteBytes.read(file + ".missing") == nil)
    }
}
