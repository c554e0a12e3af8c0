// Reading a note file in bounded memory (`NoteBytes.read`): whole within the limit, only its head
// beyond it.
import Foundation
import SheafCore
import SheafFiles
import TestSupport
import Testing

@Suite struct NoteBytesReadTests {
    @Test func aNoteOverTheSizeLimitIsReadOnlyAsFarAsItsHead() throws {
        let temp = TempDir("note")
        let file = temp.path + "/big.md"
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
