import SheafCore
import Testing

@Suite struct VaultChangeSetTests {
    @Test func eachPathIsInOneKindOnly() {
        var set = VaultChangeSet()
        set.add("a.md")
        set.change("a.md")  // still an addition
        set.remove("b.md")
        set.add("b.md")     // removed, then a file again: changed
        #expect(set.added == [PathKey("a.md")])
        #expect(set.changed == [PathKey("b.md")])
        #expect(set.removed.isEmpty)
        set.remove("a.md")  // added, then removed: nothing happened
        #expect(set.added.isEmpty)
        #expect(set.count == 1)
    }

    @Test func renamesChainAndADeletedRenameRemovesTheOriginal() {
        var set = VaultChangeSet()
        set.rename(from: "a.md", to: "b.md")
        set.rename(from: "b.md", to: "c.md")
        #expect(set.renamed == [.init(from: PathKey("a.md"), to: PathKey("c.md"))])
        set.change("c.md")  // a renamed file edited stays one rename
        #expect(set.changed.isEmpty)
        set.remove("c.md")
        #expect(set.renamed.isEmpty)
        #expect(set.removed == [PathKey("a.md")])
        #expect(set.gone == [PathKey("a.md")])
    }

    @Test func nfcAndNfdTwinsAreTwoPaths() {
        let nfc = "caf\u{E9}.md", nfd = "cafe\u{301}.md"
        let set = VaultChangeSet(added: [nfc], changed: [nfd])
        #expect(set.added.count == 1 && set.changed.count == 1)
        #expect(set.written.count == 2)
    }

    @Test func followedByComposesTwoPulls() {
        let first = VaultChangeSet(added: ["new.md"], changed: ["x.md"], renamed: [("old.md", "mid.md")])
        let second = VaultChangeSet(changed: ["new.md"], removed: ["x.md"], renamed: [("mid.md", "last.md")])
        let both = first.followed(by: second)
        #expect(both.added == [PathKey("new.md")])
        #expect(both.changed.isEmpty)
        #expect(both.removed == [PathKey("x.md")])
        #expect(both.renamed == [.init(from: PathKey("old.md"), to: PathKey("last.md"))])
        #expect(both.paths.map(\.path) == ["last.md", "new.md", "old.md", "x.md"])
    }

    @Test func filterSplitsARenameWhoseEndIsLeftOut() {
        let set = VaultChangeSet(added: [".obsidian/a.md", "b.md"], renamed: [("c.md", ".hidden/c.md")])
        let kept = set.filter { !$0.path.hasPrefix(".") }
        #expect(kept.added == [PathKey("b.md")])
        #expect(kept.removed == [PathKey("c.md")])
        #expect(kept.renamed.isEmpty)
    }
}
