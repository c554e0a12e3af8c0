// `mv` finds the notes whose links it must mend through the index's link rows, brought up to
// date under its lock, and reads only those (VaultSession+Move); the walk still gives every
// file, and notes the index leaves out are read whole.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct KitMoveTests {
    static func vault() throws -> KitVault {
        let v = try KitVault()
        try v.write("# Lisbon\n", "Trips/Lisbon.md")
        try v.write("# Plan\nsee [[Lisbon]] and [map](Trips/Lisbon.md)\n", "Plan.md")
        try v.write("# Other\nnothing here\n", "Other.md")
        return v
    }

    /// A note written after the index was last brought up to date still has its link mended:
    /// the move updates the index under its own lock before reading the link rows.
    @Test func mvMendsTheLinksOfANoteTheIndexHasNotSeenYet() throws {
        let v = try Self.vault()
        let session = try v.session()
        let lisbon = try session.resolve("Lisbon")
        try v.write("# Late\n[[Trips/Lisbon]]\n", "Late.md")
        let report = try session.move(lisbon, to: "Places/")
        #expect(report.rewritten == ["Late.md", "Plan.md"])
        #expect(v.read("Late.md") == "# Late\n[[Places/Lisbon|Trips/Lisbon]]\n")  // the text shown stays
        #expect(v.read("Plan.md") == "# Plan\nsee [[Lisbon]] and [map](Places/Lisbon.md)\n")
        #expect(v.read("Other.md") == "# Other\nnothing here\n")
    }

    /// `mv` reads the link rows a move can concern by their target key; a target that ends in
    /// no file name (`Trips/Lisbon.md/.`, which reaches the note) has no such key and is found
    /// by an index of its own: its link is mended too.
    @Test func mvMendsALinkWhoseTargetEndsInNoFileName() throws {
        let v = try Self.vault()
        try v.write("# Dotted\n[[Trips/Lisbon.md/.]]\n", "Dotted.md")
        let session = try v.session()
        #expect(try session.backlinks(ofPath: "Trips/Lisbon.md").contains("Dotted.md"))
        let report = try session.move(try session.resolve("Lisbon"), to: "Places/")
        #expect(report.rewritten.contains("Dotted.md"))
        #expect(v.read("Dotted.md") != "# Dotted\n[[Trips/Lisbon.md/.]]\n")
        #expect(try v.session().backlinks(ofPath: "Places/Lisbon.md").contains("Dotted.md"))
    }

    /// Without an index that can be updated, every note is read, as before the index knew links.
    @Test func mvMendsLinksWhenTheIndexCannotBeUpdated() throws {
        let v = try Self.vault()
        let session = try v.session()
        let lisbon = try session.resolve("Lisbon")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: v.root + "/.sheaf/index.sqlite" + suffix) }
        try FileManager.default.createDirectory(atPath: v.root + "/.sheaf/index.sqlite", withIntermediateDirectories: false)
        let report = try session.move(lisbon, to: "Places/")
        #expect(report.rewritten == ["Plan.md"])
        #expect(v.read("Plan.md") == "# Plan\nsee [[Lisbon]] and [map](Places/Lisbon.md)\n")
    }

    /// A link that does not name the moved note but that the move would send to it: in
    /// Archive/Note.md, `[[Lisbon]]` reaches Archive/Old/Lisbon.md (the only Lisbon under
    /// Archive/) until Trips/Lisbon.md moves to Archive/, which is closer. It is mended to keep
    /// reaching Archive/Old/Lisbon.md.
    @Test func mvMendsALinkTheMoveWouldSendElsewhere() throws {
        let v = try Self.vault()
        try v.write("# Old Lisbon\n", "Archive/Old/Lisbon.md")
        try v.write("# Note\n[[Lisbon]]\n", "Archive/Note.md")
        let session = try v.session()
        let report = try session.move(try session.resolve("Trips/Lisbon"), to: "Archive/")
        #expect(report.rewritten == ["Archive/Note.md", "Plan.md"])
        let mended = try #require(v.read("Archive/Note.md"))
        #expect(mended != "# Note\n[[Lisbon]]\n" && mended.contains("Old/Lisbon"))
        #expect(v.read("Plan.md") == "# Plan\nsee [[Lisbon]] and [map](Archive/Lisbon.md)\n")
    }

    /// Regression (review of the index-backed mv): a note rewritten in place within one tick of
    /// the file system's clock after the index read it keeps size, mtime and inode, so its row
    /// kept the old links for good and mv left the new link broken. Rows of files that recent
    /// are recorded to be read again (BatchWriter.recordedInode). Here the file's clock keeps
    /// whole seconds (as FAT's does) and its mtime is put back by hand after the rewrite, as
    /// `touch -r` or `rsync -t --inplace` would: no timing in the test.
    @Test func mvMendsALinkWrittenInPlaceWithinOneClockTickOfTheIndex() throws {
        let v = try Self.vault()
        try v.write("# B\n[[Trips/Lisbom]]\n", "B.md")
        let second = timespec(tv_sec: time(nil) + 1, tv_nsec: 0)
        var coarse = [second, second]
        #expect(utimensat(AT_FDCWD, v.root + "/B.md", &coarse, 0) == 0)
        let session = try v.session()
        _ = try session.freshIndex()
        let path = v.root + "/B.md"
        var before = stat()
        #expect(stat(path, &before) == 0)
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0)
        _ = Array("# B\n[[Trips/Lisbon]]\n".utf8).withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let report = try v.session().move(try v.session().resolve("Lisbon"), to: "Places/")
        #expect(report.rewritten.contains("B.md"))
        #expect(v.read("B.md")?.contains("[[Places/Lisbon") == true)
    }
}
