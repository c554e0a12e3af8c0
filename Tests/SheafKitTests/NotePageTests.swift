// What Kit gives a web view for one note: the body's links with the bytes they span and the file
// each reaches (as the index resolves it), property links by key, and the notes linking here
// with the lines that hold their links; only a path the index holds as a note has a page.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct NotePageTests {
    @Test func aNotePageHoldsEachLinkWithItsSpanAndTargetAndTheBacklinkLines() throws {
        let v = try KitVault()
        let body = "See [[Porto|north]], ![[photo.png]], [food](Food.md#Tarts) and [[Nowhere]].\n%% [[Hidden]] %%\n"
        try v.write("---\ncover: \"[[photo.png]]\"\n---\n" + body, "Trips/Lisbon.md")
        try v.write("Back to [[Lisbon]] from the north.\nAnd again: [[Trips/Lisbon|L]]\n", "Trips/Porto.md")
        try v.write("x\n", "Food.md")
        TestFile.write([0x89, 0x50], to: v.root + "/Media/photo.png")
        let page = try #require(try v.session().notePage(at: "Trips/Lisbon.md"))
        let bytes = Array(body.utf8)
        let spans = page.links.map { String(decoding: bytes[$0.span], as: UTF8.self) }
        #expect(spans == ["[[Porto|north]]", "![[photo.png]]", "Food.md", "[[Nowhere]]"])
        #expect(page.links.map(\.resolved) == ["Trips/Porto.md", "Media/photo.png", "Food.md", nil])
        #expect(page.propertyLinks.map(\.key) == ["cover"] && page.propertyLinks.map(\.resolved) == ["Media/photo.png"])
        #expect(page.backlinks == [Backlink(path: "Trips/Porto.md", title: "Porto",
                                            lines: ["Back to [[Lisbon]] from the north.", "And again: [[Trips/Lisbon|L]]"])])
    }

    @Test func onlyAPathTheIndexHoldsAsANoteHasAPage() throws {
        let v = try KitVault()
        try v.write("x\n", "Lisbon.md")
        TestFile.write("y\n", to: v.root + "/.sheaf/notes.md")
        let session = try v.session()
        #expect(try session.notePage(at: "Lisbon.md") != nil)
        for path in ["lisbon.md", "Lisbon", ".sheaf/notes.md", "../Lisbon.md", "./Lisbon.md", ".git/HEAD", ""] {
            #expect(try session.notePage(at: path) == nil, "\(path)")
        }
    }
}

@Suite struct LinkTargetsCacheTests {
    @Test func aCachedResolverIsMadeAgainWhenThePathsChange() {
        let cache = LinkTargetsCache()
        #expect(cache.targets(for: ["A.md"]).resolve("B", from: "A.md") == nil)
        #expect(cache.targets(for: ["A.md", "Notes/B.md"]).resolve("B", from: "A.md") == "Notes/B.md")
        #expect(cache.targets(for: ["A.md", "Notes/B.md"]).resolve("B", from: "A.md") == "Notes/B.md")
        #expect(cache.targets(for: ["A.md"]).resolve("B", from: "A.md") == nil)
    }
}
