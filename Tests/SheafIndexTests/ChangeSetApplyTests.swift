import Foundation
import GRDB
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

/// `NoteIndex.apply`: the index updated per path from a change set, without a walk.
@Suite struct ChangeSetApplyTests {
    func makeVault() -> (Vault, String) {
        let root = TempDir.make("apply")
        try! FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        return (Vault(root: root), root)
    }

    func write(_ text: String, _ path: String) { TestFile.write(text, to: path) }

    /// The vault's index after a first scan of what the test wrote.
    func scannedIndex(_ vault: Vault) throws -> NoteIndex {
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        return index
    }

    func paths(_ index: NoteIndex) throws -> [String] {
        try index.pool.read { db in try String.fetchAll(db, sql: "SELECT path FROM notes ORDER BY path") }
    }

    @Test func theScannerReportsItsChangeSet() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# A\nalpha\n", root + "/a.md")
        write("# B\nbeta\n", root + "/b.md")
        write("png", root + "/pic.png")
        let index = try NoteIndex(vault: vault)
        var r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.changes == VaultChangeSet(added: ["a.md", "b.md", "pic.png"]))
        write("# A\nalpha two\n", root + "/a.md")
        try FileManager.default.moveItem(atPath: root + "/b.md", toPath: root + "/c.md")
        try FileManager.default.removeItem(atPath: root + "/pic.png")
        write("# D\n", root + "/d.md")
        r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.changes == VaultChangeSet(added: ["d.md"], changed: ["a.md"], removed: ["pic.png"], renamed: [("b.md", "c.md")]))
        r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.changes.isEmpty)
    }

    @Test func applyTouchesOnlyTheNamedPaths() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# A\nalpha\n", root + "/a.md")
        write("# B\nbeta\n", root + "/b.md")
        write("# U\nunnamed\n", root + "/u.md")
        let index = try scannedIndex(vault)
        // Changes on disk: some named in the change set, one (u.md) not.
        write("# A\nalpha gamma\n", root + "/a.md")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: root + "/b.md", toPath: root + "/sub/b2.md")
        write("# N\nnew\n", root + "/n.md")
        write("jpg", root + "/img.jpg")
        write("# U\nunnamed edited\n", root + "/u.md")
        let set = VaultChangeSet(added: ["n.md", "img.jpg"], changed: ["a.md"], renamed: [("b.md", "sub/b2.md")])
        let r = try index.apply(set, vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.changes == set)
        #expect((r.added, r.changed, r.renamed, r.removed) == (1, 1, 1, 0))
        #expect(try paths(index) == ["a.md", "n.md", "sub/b2.md", "u.md"])
        #expect(try index.search(SearchQuery.parse("gamma"), vault: vault).map(\.path) == ["a.md"])
        // u.md was not named: its row is as it was (the next scan finds it).
        #expect(try index.search(SearchQuery.parse("edited"), vault: vault).isEmpty)
        #expect(try index.attachments().map(\.path) == ["img.jpg"])
        let rescan = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(rescan.changes == VaultChangeSet(changed: ["u.md"]))
    }

    @Test func whatIsOnDiskDecidesNotTheChangeSet() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# K\nkept\n", root + "/kept.md")
        write("# G\ngone\n", root + "/gone.md")
        let index = try scannedIndex(vault)
        try FileManager.default.removeItem(atPath: root + "/gone.md")
        write("# H\nhidden\n", root + "/.obsidian/h.md")
        // kept.md "removed" but still there (an edit kept over a delete); ghost.md "added" but
        // absent; a dot-folder's note is never indexed, as the walk would not list it.
        let set = VaultChangeSet(added: ["ghost.md", ".obsidian/h.md"], changed: ["gone.md"], removed: ["kept.md"])
        let r = try index.apply(set, vault: vault, walker: VaultWalker(vault: vault))
        #expect(try paths(index) == ["kept.md"])
        #expect(r.changes == VaultChangeSet(removed: ["gone.md"]))
        #expect(try index.scan(vault: vault, walker: VaultWalker(vault: vault)).changes.isEmpty)
    }

    @Test func applyOnAMissingIndexBuildsItWhole() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# A\n", root + "/a.md")
        write("# B\n", root + "/b.md")
        let index = try NoteIndex(vault: vault)
        let r = try index.apply(VaultChangeSet(added: ["a.md"]), vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.rebuilt == .missing)
        #expect(try paths(index) == ["a.md", "b.md"])
    }

    /// A pull's per-path update asked git's ignore rules about each path but not the walk's
    /// `excludes` (Obsidian's excluded files): a pulled note under an excluded folder was indexed,
    /// where a scan leaves it out, until the next rebuild.
    @Test func applyLeavesOutWhatTheWalksExcludesLeaveOut() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# A\n", root + "/a.md")
        write("# T\nexcluded words\n", root + "/Templates/t.md")
        write("# D\nexcluded words\n", root + "/Deep/Templates/d.md")
        write("# S\nexcluded words\n", root + "/Notes/scratch.tmp.md")
        write("png", root + "/Templates/pic.png")
        var walker = VaultWalker(vault: vault)
        let filters = ObsidianIgnoreFilters(["Templates/", "/scratch\\.tmp/"])
        walker.excludes = { filters.excludes($0, isFolder: $1) }
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: walker)
        let scanned = try paths(index)
        #expect(scanned == ["Deep/Templates/d.md", "a.md"])
        let r = try index.apply(VaultChangeSet(added: ["Templates/t.md", "Deep/Templates/d.md", "Notes/scratch.tmp.md", "Templates/pic.png"]),
                                vault: vault, walker: walker)
        #expect(try paths(index) == scanned, "the per-path update leaves out what the walk leaves out")
        #expect(r.added == 0)
        #expect(try index.search(SearchQuery.parse("excluded"), vault: vault).map(\.path) == ["Deep/Templates/d.md"])
    }

    /// A note whose bytes stay but whose mtime moves (`touch`, a copy with a new date) had only
    /// its identity updated: its dates, taken from the mtime when the front matter has none,
    /// kept the old time, where a rebuild gives the new one.
    @Test func aTouchedNoteTakesItsNewMtimeAsARebuildDoes() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("# Plain\nno dates\n", root + "/plain.md")
        write("---\ncreated: 2020-01-02\n---\n# Dated\n", root + "/dated.md")
        let index = try scannedIndex(vault)
        func dates() throws -> [[Double]] {
            try index.pool.read { db in try Row.fetchAll(db, sql: "SELECT created, modified FROM notes ORDER BY path").map { [$0[0], $0[1]] } }
        }
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        for name in ["plain.md", "dated.md"] { #expect(utimensat(AT_FDCWD, root + "/" + name, &times, 0) == 0) }
        let r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.changes.isEmpty, "the same bytes: no change")
        let scanned = try dates()
        #expect(scanned[1] == [1_600_000_000, 1_600_000_000])
        #expect(scanned[0][0] != 1_600_000_000, "the front matter's date stays")
        let rebuilt = try NoteIndex(vault: vault, rebuild: true)
        _ = try rebuilt.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(try rebuilt.pool.read { db in try Row.fetchAll(db, sql: "SELECT created, modified FROM notes ORDER BY path").map { [$0[0], $0[1]] as [Double] } } == scanned)
    }
}
