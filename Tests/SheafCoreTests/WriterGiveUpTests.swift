import Foundation
import Testing
import TestSupport
@testable import SheafCore
#if canImport(Glibc)
import Glibc
#endif

/// Regression (found in review): a write whose swap displaced a save it had not seen folds that
/// save into its next try, in memory only; when the file then kept changing until the writer gave
/// up, the save was gone (the displaced file had been unlinked). Now it is kept beside the note.
@Suite struct WriterGiveUpTests {
    @Test func aWriteThatGivesUpAfterItsSwapDisplacedASaveKeepsThatSave() throws {
        let root = TempDir.make("giveup")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "one\n".write(toFile: root + "/a.md", atomically: true, encoding: .utf8)
        // A line-union merge: every line of `current`, then Sheaf's lines it lacks.
        let writer = VaultFileWriter(root: root) { _, _, current, wanted in
            let have = Set(String(decoding: current, as: UTF8.self).split(separator: "\n"))
            let extra = String(decoding: wanted, as: UTF8.self).split(separator: "\n").filter { !have.contains($0) }
            return current + Array(extra.map { $0 + "\n" }.joined().utf8)
        }
        // An editor that appends a line just between Sheaf's check and its swap, every time.
        var saves: [String] = []
        writer.beforeSwap = { path in
            let line = "save-\(saves.count)"
            saves.append(line)
            let fd = open(root + "/" + path.path, O_WRONLY | O_APPEND)
            _ = (line + "\n").withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let path = try VaultPathGuard.check("a.md", in: root).get()
        let state = try writer.read(path)
        var failure: SheafError?
        do {
            try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8))
        } catch {
            failure = error
        }
        writer.beforeSwap = nil
        try? writer.finish()
        let error = try #require(failure)
        #expect(error.description.contains("kept"))
        let files = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }
        #expect(files.count == 2, "\(files)")
        let kept = Set(try files.flatMap { try String(contentsOfFile: root + "/" + $0, encoding: .utf8).split(separator: "\n").map(String.init) })
        #expect(saves.count > 3)
        #expect(saves.filter { !kept.contains($0) } == [])
    }
}

/// Regression (a lost save in the --if-match race test): a writer that opened the note before
/// Sheaf's swap (a shell's `>>`) and wrote after Sheaf's last look at the displaced file lost
/// that write. `finish()` now waits until nobody else holds the displaced file open.
@Suite struct LateAppendTests {
    @Test func anAppendThroughADescriptorOpenedBeforeTheSwapIsKept() throws {
        let root = TempDir.make("lateappend")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "one\n".write(toFile: root + "/a.md", atomically: true, encoding: .utf8)
        let writer = VaultFileWriter(root: root) { _, _, current, wanted in
            let have = Set(String(decoding: current, as: UTF8.self).split(separator: "\n"))
            let extra = String(decoding: wanted, as: UTF8.self).split(separator: "\n").filter { !have.contains($0) }
            return current + Array(extra.map { $0 + "\n" }.joined().utf8)
        }
        let path = try VaultPathGuard.check("a.md", in: root).get()
        let state = try writer.read(path)
        let editor = open(root + "/a.md", O_WRONLY | O_APPEND)  // opened before the swap
        #expect(editor >= 0)
        try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8))
        let late = Thread {
            usleep(300_000)
            _ = "late save\n".withCString { write(editor, $0, strlen($0)) }
            close(editor)
        }
        late.start()
        try writer.finish()
        let text = try String(contentsOfFile: root + "/a.md", encoding: .utf8)
        #expect(text.contains("late save"), "\(text)")
        #expect(text.contains("sheaf"))
    }
}
