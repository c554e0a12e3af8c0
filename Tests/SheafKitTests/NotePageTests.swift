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

/// A server's sessions share one index (`SharedIndex`): its connections and the paths and
/// resolver derived from them, kept until the index changes. A change by any writer must reach
/// the next page: no stale backlink, no page for a path the index no longer holds.
@Suite struct SharedIndexTests {
    func session(_ v: KitVault, _ shared: SharedIndex) throws -> VaultSession {
        VaultSession(vault: try v.session().vault, workingDirectory: v.root, sharing: shared)
    }

    @Test func aSharedIndexShowsEveryChangeTheIndexTookSinceTheLastPage() throws {
        let v = try KitVault()
        try v.write("Lisbon\n", "Lisbon.md")
        let shared = SharedIndex(vault: try v.session().vault)
        #expect(try session(v, shared).notePage(at: "Lisbon.md")?.backlinks == [])
        #expect(try session(v, shared).notePage(at: "Porto.md") == nil)

        try v.write("Trains to [[Lisbon]] daily.\n", "Porto.md")
        #expect(try session(v, shared).notePage(at: "Lisbon.md")?.backlinks
                == [Backlink(path: "Porto.md", title: "Porto", lines: ["Trains to [[Lisbon]] daily."])])
        #expect(try session(v, shared).indexedPaths().contains("Porto.md"))

        try v.write("Boats to [[Lisbon]] now.\n", "Porto.md")
        #expect(try session(v, shared).notePage(at: "Lisbon.md")?.backlinks.map(\.lines) == [["Boats to [[Lisbon]] now."]])

        try FileManager.default.moveItem(atPath: v.root + "/Porto.md", toPath: v.root + "/Faro.md")
        let moved = try session(v, shared)
        #expect(try moved.notePage(at: "Porto.md") == nil)
        #expect(!(try moved.indexedPaths().contains("Porto.md")))
        #expect(try moved.notePage(at: "Lisbon.md")?.backlinks.map(\.path) == ["Faro.md"])

        try FileManager.default.removeItem(atPath: v.root + "/Faro.md")
        #expect(try session(v, shared).notePage(at: "Lisbon.md")?.backlinks == [])
    }

    @Test func aSharedIndexReadsAnIndexFileMadeAnewAfterItOpenedTheOldOne() throws {
        let v = try KitVault()
        try v.write("Lisbon\n", "Lisbon.md")
        let shared = SharedIndex(vault: try v.session().vault)
        #expect(try session(v, shared).notePage(at: "Lisbon.md") != nil)
        for suffix in ["", "-wal", "-shm"] { unlink(v.root + "/.sheaf/index.sqlite" + suffix) }
        try v.write("To [[Lisbon]]\n", "Porto.md")
        let page = try session(v, shared).notePage(at: "Lisbon.md")
        #expect(page?.backlinks.map(\.path) == ["Porto.md"])
        #expect(try session(v, shared).notePage(at: "Porto.md") != nil)
    }
}
