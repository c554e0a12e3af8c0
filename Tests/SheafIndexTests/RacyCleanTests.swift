import Foundation
import GRDB
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

/// Rows of notes modified within one clock tick of being read record inode 0, so the next scan
/// reads them again (BatchWriter.recordedInode); older notes record their inode, so a scan right
/// after a clone or a pull does not read every note again.
@Suite struct RacyCleanTests {
    @Test func onlyNotesModifiedWithinAClockTickOfTheScanAreReadAgain() throws {
        let root = TempDir.make("racy")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        for name in ["old", "coarse"] { try Data("# \(name)\n".utf8).write(to: URL(fileURLWithPath: root + "/\(name).md")) }
        let now = time(nil)
        var old = [timespec(tv_sec: now - 1, tv_nsec: 123_456_789), timespec(tv_sec: now - 1, tv_nsec: 123_456_789)]
        #expect(utimensat(AT_FDCWD, root + "/old.md", &old, 0) == 0)
        var coarse = [timespec(tv_sec: now + 1, tv_nsec: 0), timespec(tv_sec: now + 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, root + "/coarse.md", &coarse, 0) == 0)
        let vault = Vault(root: root)
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        let inodes = try index.pool.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT path, inode FROM notes").map { ($0[0] as String, $0[1] as Int64) })
        }
        #expect(inodes["old.md"] != 0)  // a second old on a fine clock: not read again (2 s for every file made the scan after a clone read every note again)
        #expect(inodes["coarse.md"] == 0)
    }
}
