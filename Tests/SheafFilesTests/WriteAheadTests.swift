import Foundation
import Testing
import TestSupport
@testable import SheafCore
@testable import SheafFiles

/// Files written ahead (VaultFileWriter.prepare) for a later replace: used only for exactly the
/// bytes and mode asked, and never left behind as temporary files.
@Suite struct WriteAheadTests {
    func writer(_ root: String) -> VaultFileWriter {
        VaultFileWriter(root: root) { _, _, current, _ in current }
    }

    func hidden(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".sheaf-tmp") }
    }

    @Test func aPreparedFileIsSwappedInAndNoTemporaryFileStays() throws {
        let root = TempDir.make("ahead")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "old\n".write(toFile: root + "/a.md", atomically: true, encoding: .utf8)
        let w = writer(root)
        let path = try VaultPathGuard.check("a.md", in: root).get()
        let state = try w.read(path)
        let prepared = try w.prepare(path, Array("new\n".utf8), mode: mode_t(state.identity!.mode))
        #expect(hidden(root).count == 1)
        #expect(try w.replace(path, base: state, with: Array("new\n".utf8), prepared: prepared) == .written)
        try w.finish()
        #expect(try String(contentsOfFile: root + "/a.md", encoding: .utf8) == "new\n")
        #expect(hidden(root).isEmpty)
    }

    @Test func aPreparationForOtherBytesIsNotUsedAndIsDeleted() throws {
        let root = TempDir.make("ahead")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "old\n".write(toFile: root + "/a.md", atomically: true, encoding: .utf8)
        let w = writer(root)
        let path = try VaultPathGuard.check("a.md", in: root).get()
        let state = try w.read(path)
        do {
            let stale = try w.prepare(path, Array("stale\n".utf8), mode: mode_t(state.identity!.mode))
            #expect(try w.replace(path, base: state, with: Array("wanted\n".utf8), prepared: stale) == .written)
        }
        try w.finish()
        #expect(try String(contentsOfFile: root + "/a.md", encoding: .utf8) == "wanted\n")
        #expect(hidden(root).isEmpty)
        // One never handed to a replace is deleted when let go.
        do { _ = try w.prepare(try VaultPathGuard.check("b.md", in: root).get(), Array("x".utf8), mode: 0o644) }
        #expect(hidden(root).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root + "/b.md"))
    }
}
