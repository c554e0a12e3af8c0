// The clone's writer (FreshFolderWriter) never takes the place of what it finds: a file that is
// there, a symlink where a folder is wanted, a path the guard refuses. The careful writer then
// decides, as for a pull. And what a crash leaves of its writes is told apart from a save.
import Foundation
import SheafCore
@testable import SheafFiles
import TestSupport
import Testing

@Suite struct FreshFolderWriterTests {
    @Test func aFileOrASymlinkInTheWayIsNeverOverwrittenOrFollowed() throws {
        let temp = TempDir()
        let root = temp.path + "/vault"
        let outside = temp.path + "/outside"
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        #expect(FreshFolderWriter.holdsNoFiles(root))
        let writer = FreshFolderWriter(root: root)
        #expect(try writer.create("A/B/new.md", Array("# New\n".utf8), mode: 0o644))
        #expect(!FreshFolderWriter.holdsNoFiles(root))
        TestFile.write("# Mine\n", to: root + "/A/mine.md")
        #expect(try !writer.create("A/mine.md", Array("# Theirs\n".utf8), mode: 0o644))
        #expect(String(decoding: FileManager.default.contents(atPath: root + "/A/mine.md") ?? Data(), as: UTF8.self) == "# Mine\n")
        try FileManager.default.createSymbolicLink(atPath: root + "/Linked", withDestinationPath: outside)
        #expect(try !writer.create("Linked/x.md", Array("x".utf8), mode: 0o644))
        try FileManager.default.createSymbolicLink(atPath: root + "/link.md", withDestinationPath: outside + "/target.md")
        #expect(try !writer.create("link.md", Array("x".utf8), mode: 0o644))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        for refused in ["../x.md", ".git/config", ".sheaf/config.toml", "A/../../x.md", "../\u{301}x.md"] {
            #expect(try !writer.create(refused, Array("x".utf8), mode: 0o644), "\(refused)")
        }
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/x.md") && !FileManager.default.fileExists(atPath: root + "/.git/config"))
        try writer.sync()
        #expect(String(decoding: FileManager.default.contents(atPath: root + "/A/B/new.md") ?? Data(), as: UTF8.self) == "# New\n")
    }

    @Test func whatACrashLeavesOfAWriteIsToldApartFromASave() {
        let wanted = Array("# Note\n\nline\n".utf8)
        #expect(FreshFolderWriter.isTornCopy([], of: wanted))
        #expect(FreshFolderWriter.isTornCopy(Array(wanted.prefix(4)), of: wanted))
        #expect(FreshFolderWriter.isTornCopy(Array(wanted.prefix(4)) + [0, 0, 0], of: wanted))
        #expect(FreshFolderWriter.isTornCopy(wanted, of: wanted))
        #expect(!FreshFolderWriter.isTornCopy(wanted + Array("more\n".utf8), of: wanted))
        #expect(!FreshFolderWriter.isTornCopy(Array("# Other\n".utf8), of: wanted))
    }
}
