import Foundation
import Testing
import TestSupport
@testable import SheafCore
#if canImport(Glibc)
import Glibc
@testable import SheafFiles
#endif

/// A line-union merge: every line of `current`, then Sheaf's lines it lacks.
func unionMerge(_ path: String, _ base: [UInt8]?, _ current: [UInt8], _ wanted: [UInt8]) -> [UInt8] {
    let have = Set(String(decoding: current, as: UTF8.self).split(separator: "\n"))
    let extra = String(decoding: wanted, as: UTF8.self).split(separator: "\n").filter { !have.contains($0) }
    return current + Array(extra.map { $0 + "\n" }.joined().utf8)
}

/// An editor's save by a temporary file renamed over the note (what most editors do).
func renameSave(_ text: String, to file: String) {
    let temp = file + ".editor-swp"
    try! text.write(toFile: temp, atomically: false, encoding: .utf8)
    rename(temp, file)
}

func readText(_ file: String) -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }

/// The lines of every file in `root` but hidden ones.
func linesOfAllFiles(_ root: String) -> Set<String> {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }) ?? []
    return Set(files.flatMap { readText(root + "/" + $0).split(separator: "\n").map(String.init) })
}

/// A folder holding one note `a.md`, and a writer with the line-union merge; removed when let go.
final class OneNoteFolder {
    let root: String
    let file: String
    let writer: VaultFileWriter
    let path: SafePath

    init(_ name: String, _ text: String) throws {
        root = TempDir.make(name)
        file = root + "/a.md"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        writer = VaultFileWriter(root: root, merge: unionMerge)
        path = try VaultPathGuard.check("a.md", in: root).get()
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// Regression (found in review): a write whose swap displaced a save it had not seen folds that
/// save into its next try, in memory only; when the file then kept changing until the writer gave
/// up, the save was gone (the displaced file had been unlinked). Now a displaced save goes back to
/// the note at once, so every save is in the note when the write gives up.
@Suite struct WriterGiveUpTests {
    @Test func aWriteThatGivesUpAfterItsSwapDisplacedASaveKeepsThatSave() throws {
        let root = TempDir.make("giveup")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "one\n".write(toFile: root + "/a.md", atomically: true, encoding: .utf8)
        let writer = VaultFileWriter(root: root, merge: unionMerge)
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
        #expect(error.description.contains("kept changing"))
        #expect(saves.count > 3)
        let note = Set(readText(root + "/a.md").split(separator: "\n").map(String.init))
        #expect(saves.filter { !note.contains($0) } == [])
    }

    /// Regression (CI, BusyEditorTests.tagsAddAndAppendNeverLoseAConcurrentSave lost save-4971):
    /// a save that landed between Sheaf's check and its swap was displaced, and while Sheaf made
    /// its change again on it the note held Sheaf's version without that save. The editor, which
    /// re-reads the note before each save (as an editor that reloads changed files does), read
    /// that version and saved on top of it: the save was gone. Now the displaced save goes back
    /// at once, before Sheaf makes its change again.
    @Test func anEditorThatReloadsWhileSheafRedoesItsChangeKeepsItsSave() throws {
        let folder = try OneNoteFolder("reload", "one\n")
        let (file, writer, path) = (folder.file, folder.writer, folder.path)
        writer.beforeSwap = { _ in
            writer.beforeSwap = nil
            renameSave(readText(file) + "save-1\n", to: file)
        }
        var reloaded: String?
        let state = try writer.read(path)
        try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8), redo: { current in
            if reloaded == nil { reloaded = readText(file) }  // the editor reloads while Sheaf works
            return unionMerge("a.md", nil, current ?? [], Array("sheaf\n".utf8))
        })
        try writer.finish()
        renameSave((reloaded ?? "") + "save-2\n", to: file)  // and saves on top of what it read
        let text = readText(file)
        #expect(text.contains("save-1"), "\(text)")
        #expect(text.contains("save-2"))
    }

    /// Regression (same change): a displaced save that already had Sheaf's change (the editor
    /// removed the same tag) made the redo answer "nothing to change", and the write ended with
    /// Sheaf's version in place: the save was gone.
    @Test func aDisplacedSaveThatAlreadyHasTheChangeStays() throws {
        let folder = try OneNoteFolder("already", "tag: x\nbody\n")
        let (file, writer, path) = (folder.file, folder.writer, folder.path)
        writer.beforeSwap = { _ in
            writer.beforeSwap = nil
            renameSave("body\nsave-1\n", to: file)  // the editor removed the tag too, and wrote
        }
        let state = try writer.read(path)
        let removeTag: VaultFileWriter.Redo = { current in
            let text = String(decoding: current ?? [], as: UTF8.self)
            return text.hasPrefix("tag: x\n") ? Array(text.dropFirst(7).utf8) : nil
        }
        try writer.replace(path, base: state, with: Array("body\n".utf8), redo: removeTag)
        try writer.finish()
        #expect(readText(file) == "body\nsave-1\n")
    }

    /// A save made in the instant between Sheaf's swap and its putting a displaced save back
    /// comes back to Sheaf instead of its own version: both saves end in the note.
    @Test func aSaveMadeWhileADisplacedSaveGoesBackIsMergedIn() throws {
        let folder = try OneNoteFolder("nested", "one\n")
        let (file, writer, path) = (folder.file, folder.writer, folder.path)
        writer.beforeSwap = { _ in
            writer.beforeSwap = nil
            renameSave(readText(file) + "save-1\n", to: file)
        }
        writer.afterSwap = { _ in
            writer.afterSwap = nil
            renameSave(readText(file) + "save-2\n", to: file)  // built on Sheaf's version
        }
        let state = try writer.read(path)
        #expect(try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8)) == .reconciled)
        try writer.finish()
        let text = readText(file)
        for line in ["one", "sheaf", "save-1", "save-2"] { #expect(text.contains(line), "\(text)") }
    }

    /// A save in Sheaf's hands only is kept beside the note whatever ends the write, not only a
    /// give-up: here the change cannot be made again on the saved version (as `tags` refuses a
    /// note whose front-matter an editor's save broke).
    @Test func aSaveHeldOnlyIsKeptWhenTheWriteFails() throws {
        let folder = try OneNoteFolder("nestedfail", "one\n")
        let (root, file, writer, path) = (folder.root, folder.file, folder.writer, folder.path)
        writer.beforeSwap = { _ in
            writer.beforeSwap = nil
            renameSave(readText(file) + "save-1\n", to: file)
        }
        writer.afterSwap = { _ in
            writer.afterSwap = nil
            renameSave(readText(file) + "save-2 broken\n", to: file)
        }
        let state = try writer.read(path)
        let refuseBroken: VaultFileWriter.Redo = { (current) throws(SheafError) in
            let text = String(decoding: current ?? [], as: UTF8.self)
            if text.contains("broken") { throw SheafError("will not change this note", path: "a.md") }
            return unionMerge("a.md", nil, current ?? [], Array("sheaf\n".utf8))
        }
        var failure: SheafError?
        do { try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8), redo: refuseBroken) } catch { failure = error }
        try writer.finish()
        #expect(failure?.hint?.contains("kept in") == true, "\(String(describing: failure))")
        let kept = linesOfAllFiles(root)
        for line in ["save-1", "save-2 broken"] { #expect(kept.contains(line), "\(kept)") }
    }

    /// When that happens on every try until the writer gives up, the saves that were in hand
    /// only are kept beside the note.
    @Test func aWriteThatGivesUpKeepsTheSavesItHeldOnly() throws {
        let folder = try OneNoteFolder("nestedgiveup", "one\n")
        let (root, file, writer, path) = (folder.root, folder.file, folder.writer, folder.path)
        var saves: [String] = []
        func save() {
            let line = "save-\(saves.count)"
            saves.append(line)
            renameSave(readText(file) + line + "\n", to: file)
        }
        writer.beforeSwap = { _ in save() }
        writer.afterSwap = { _ in save() }
        let state = try writer.read(path)
        #expect(throws: SheafError.self) { try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8)) }
        writer.beforeSwap = nil
        writer.afterSwap = nil
        try writer.finish()
        #expect(saves.count > 3)
        let kept = linesOfAllFiles(root)
        #expect(saves.filter { !kept.contains($0) } == [])
        let files = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }
        #expect(files.count > 1, "\(files)")
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
        let writer = VaultFileWriter(root: root, merge: unionMerge)
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

/// Regressions from a hostile review of the write path (each lost a save before).
@Suite struct WriterReviewTests {
    /// An editor's in-place save of the same size within one tick of the file system's clock
    /// (a checkbox ticked) left size, inode and mtime as Sheaf read them: the swap took it for
    /// the version Sheaf read, and the save was gone. The displaced bytes are compared now.
    @Test func aSameSizeSaveInPlaceWithinOneClockTickIsNotOverwritten() throws {
        let folder = try OneNoteFolder("sametick", "- [ ] milk\n")
        let (file, writer, path) = (folder.file, folder.writer, folder.path)
        let state = try writer.read(path)
        writer.beforeSwap = { _ in
            writer.beforeSwap = nil
            var info = stat()
            stat(file, &info)
            let fd = open(file, O_WRONLY)
            _ = "- [x] milk\n".withCString { pwrite(fd, $0, strlen($0), 0) }
            var times = [info.st_atim, info.st_mtim]  // the same tick as the version Sheaf read
            futimens(fd, &times)
            close(fd)
        }
        try writer.replace(path, base: state, with: Array("- [ ] milk\nsheaf\n".utf8), redo: { current in
            unionMerge("a.md", nil, current ?? [], Array("sheaf\n".utf8))
        })
        try writer.finish()
        #expect(readText(file) == "- [x] milk\nsheaf\n")
    }

    /// A command that threw before `finish()` left its displaced files unchecked: a late write
    /// into one (an appender that opened the note before the swap) was dropped with the writer.
    @Test func aLateAppendIsKeptWhenTheCommandEndsWithoutFinish() throws {
        let folder = try OneNoteFolder("nofinish", "one\n")
        let (file, path) = (folder.file, folder.path)
        let editor = open(file, O_WRONLY | O_APPEND)  // opened before the swap
        do {
            let writer = VaultFileWriter(root: folder.root, merge: unionMerge)
            let state = try writer.read(path)
            try writer.replace(path, base: state, with: Array("one\nsheaf\n".utf8))
            _ = "late save\n".withCString { write(editor, $0, strlen($0)) }
            close(editor)
            // no finish(): the command failed further on, and the writer goes
        }
        let text = readText(file)
        #expect(text.contains("late save"), "\(text)")
        #expect(text.contains("sheaf"))
    }
}

/// A save in Sheaf's hands only is merged into the file, and a merge keeps one side where both
/// changed the same front-matter key: whatever the merge dropped of it is kept beside the note.
@Suite struct WriterOwedMergeTests {
    @Test func aSaveHeldOnlyThatTheMergeCouldNotKeepWholeIsKeptBesideTheNote() throws {
        let root = TempDir.make("owedmerge")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = root + "/a.md"
        try "---\nstatus: draft\n---\none\n".write(toFile: file, atomically: true, encoding: .utf8)
        // The note merge's rule for a key both sides changed: the file's value stays.
        let writer = VaultFileWriter(root: root) { _, _, current, _ in current }
        writer.beforeSwap = { _ in
            writer.beforeSwap = nil
            renameSave("---\nstatus: review\n---\none\n", to: file)
        }
        writer.afterSwap = { _ in
            writer.afterSwap = nil
            renameSave("---\nstatus: done\n---\none\nsheaf\nsave-2\n", to: file)  // built on Sheaf's version
        }
        let path = try VaultPathGuard.check("a.md", in: root).get()
        let state = try writer.read(path)
        try writer.replace(path, base: state, with: Array("---\nstatus: draft\n---\none\nsheaf\n".utf8))
        try writer.finish()
        let kept = linesOfAllFiles(root)
        for line in ["status: review", "status: done", "save-2"] { #expect(kept.contains(line), "\(kept)") }
    }
}
