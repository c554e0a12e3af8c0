// A name written in one Unicode form and asked for in the other (a Mac writes `café` decomposed,
// NFD; most keyboards elsewhere type it composed, NFC) is the same name to a reader, and to
// every part of Sheaf that compares Strings; the index's SQL keys compared bytes. Unlike
// KitPathTwinTests, no file here has a twin: each name has one file, spelled one way.
import Foundation
import GRDB
import SheafCore
import Testing
import TestSupport
@testable import SheafKit
@testable import SheafIndex

@Suite struct KitUnicodeFormTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    /// Regression: `backlinks Café` listed nothing for `[[Café]]` typed in NFD to `Café.md` in
    /// NFC, though `show` resolved that link to it (the link's target key was stored in NFD).
    @Test func backlinksFindALinkTypedInTheOtherUnicodeFormOfTheName() throws {
        let v = try KitVault()
        ByteName.write("# Café\n", name: Array((Self.nfc + ".md").utf8), in: v.root)
        ByteName.write("# Linker\nsee [[\(Self.nfd)]]\n", name: Array("linker.md".utf8), in: v.root)
        ByteName.write("# Other\nsee [[\(Self.nfc)]]\n", name: Array("other.md".utf8), in: v.root)
        let session = try v.session()
        #expect(try session.backlinks(ofPath: Self.nfc + ".md") == ["linker.md", "other.md"])
    }

    /// Regression: `search tag:café` (NFC) and `ls --tag café` missed the notes tagged `#café` in
    /// NFD, which `sheaf tags` counted under one tag with the NFC ones.
    @Test func aTagSearchFindsTheTagInEitherUnicodeForm() throws {
        let v = try KitVault()
        ByteName.write("# Inline\ntagged #\(Self.nfd) here\n", name: Array("inline.md".utf8), in: v.root)
        ByteName.write("---\ntags: [\(Self.nfd)/paris]\n---\nfm\n", name: Array("nested.md".utf8), in: v.root)
        ByteName.write("# Composed\n#\(Self.nfc)\n", name: Array("composed.md".utf8), in: v.root)
        let session = try v.session()
        for typed in [Self.nfc, Self.nfd, "CAF\u{C9}"] {
            let hits = try session.search("tag:\(typed)", limit: 10, snippets: false).hits.map(\.path).sorted()
            #expect(hits == ["composed.md", "inline.md", "nested.md"], "tag:\(typed.debugDescription)")
            let listed = try session.list(folder: nil, tag: typed, sort: .path, limit: nil).map(\.path)
            #expect(listed == ["composed.md", "inline.md", "nested.md"], "--tag \(typed.debugDescription)")
        }
    }

    /// Regression: `tag:été` missed `#été/paris` (`tag:ete` found `#ete/paris`): the nested-tag
    /// test cut the stored key at the query's length in bytes, and SQLite's substr() counts
    /// characters.
    @Test func aTagSearchFindsTheNestedTagsOfATagThatIsNotASCII() throws {
        let v = try KitVault()
        try v.write("# A\n#\u{E9}t\u{E9}/paris here\n", "a.md")
        try v.write("# B\n#\u{E9}t\u{E9} here\n", "b.md")
        try v.write("# C\n#\u{E9}t\u{E9}s/x here\n", "c.md")  // another tag that only starts alike
        let hits = try v.session().search("tag:\u{E9}t\u{E9}", limit: 10, snippets: false).hits.map(\.path).sorted()
        #expect(hits == ["a.md", "b.md"])
    }

    /// Regression: `has:attachment` matched a link to an image with SQLite's lower(), which folds
    /// ASCII only: `![[Été.png]]` did not count as an attachment of `été.png`.
    @Test func hasAttachmentCountsALinkInAnotherCaseOrFormOfTheImagesName() throws {
        let v = try KitVault()
        ByteName.write("not really an image", name: Array("\u{E9}t\u{E9}.png".utf8), in: v.root)
        ByteName.write("# Upper\n![[\u{C9}t\u{E9}.png]]\n", name: Array("upper.md".utf8), in: v.root)
        ByteName.write("# Decomposed\n![[e\u{301}te\u{301}.png]]\n", name: Array("decomposed.md".utf8), in: v.root)
        ByteName.write("# None\nno image\n", name: Array("none.md".utf8), in: v.root)
        let hits = try v.session().search("has:attachment", limit: 10, snippets: false).hits.map(\.path).sorted()
        #expect(hits == ["decomposed.md", "upper.md"])
    }

    /// `mv` and `rm` read only the link rows whose target key is the moved or removed file's:
    /// a link typed in the other Unicode form of its name has that key too, so it is mended by a
    /// move and named by a removal.
    @Test func mvAndRmFindALinkTypedInTheOtherUnicodeFormOfTheName() throws {
        let v = try KitVault()
        ByteName.write("# Café\n", name: Array((Self.nfc + ".md").utf8), in: v.root)
        ByteName.write("# Linker\nsee [[\(Self.nfd)]]\n", name: Array("linker.md".utf8), in: v.root)
        let session = try v.session()
        let report = try session.move(try session.resolve(Self.nfc), to: "Coffee")
        #expect(report.rewritten == ["linker.md"])
        #expect(v.read("linker.md") == "# Linker\nsee [[Coffee|\(Self.nfd)]]\n")
        try v.write("# Again\nsee [[COFFEE]]\n", "again.md")
        let removal = try v.session().remove(named: "Coffee")
        #expect(removal.linkedFrom == ["again.md", "linker.md"])
    }

    /// An index made before keys were composed holds NFD keys; its migration reads every file
    /// again, and the searches above then find them.
    @Test func anOlderIndexGetsItsKeysComposed() throws {
        let v = try KitVault()
        ByteName.write("# Inline\ntagged #\(Self.nfd) here, see [[\(Self.nfd)]]\n", name: Array("inline.md".utf8), in: v.root)
        ByteName.write("# Café\n", name: Array((Self.nfc + ".md").utf8), in: v.root)
        _ = try v.session().updateIndex(rebuild: false)
        // What an older Sheaf stored: lower-cased keys in the note's own form (NFD here).
        let db = try DatabaseQueue(path: v.root + "/.sheaf/index.sqlite")
        try db.write { db in
            try db.execute(sql: "UPDATE tags SET key = ?", arguments: [Self.nfd])
            try db.execute(sql: "UPDATE links SET target_key = ?", arguments: [Self.nfd])
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v12-canonical-keys'")
        }
        try db.close()
        let session = try v.session()
        #expect(try session.updateIndex(rebuild: false)?.rebuilt != nil)
        #expect(try session.search("tag:\(Self.nfc)", limit: 10, snippets: false).hits.map(\.path) == ["inline.md"])
        #expect(try session.backlinks(ofPath: Self.nfc + ".md") == ["inline.md"])
    }
}
