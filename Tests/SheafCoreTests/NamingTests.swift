import Foundation
import Testing
@testable import SheafCore

@Suite struct NamingTests {
    /// isNote works on the UTF-8 bytes now (the walk asks it for every file); it must still
    /// take `.md` and `.markdown` in any case, after a non-empty name, and nothing else.
    @Test func isNoteOnBytes() {
        let notes = ["a.md", "A.MD", "x.Markdown", "dir/b.md", "é.md", "日本.MD", "a/b.c.md", "a.b/c.md", ".x/y.md"]
        let others = ["", "md", ".md", "dir/.md", "dir.md/x", "x.mdx", "x.", "x.m", "a.md/", "x.markdownx", "x.mD\u{301}"]
        for path in notes { #expect(VaultPath.isNote(path), "\(path)") }
        for path in others { #expect(!VaultPath.isNote(path), "\(path)") }
    }

    @Test func fileNamesDropForbiddenCharactersAndAreNFC() {
        #expect(NoteFileName.stem(for: "Lisbon: tram 28 / day?") == "Lisbon tram 28 day")
        #expect(NoteFileName.stem(for: "Cafe\u{301}") == "Caf\u{E9}")
        #expect(NoteFileName.stem(for: "Cafe\u{301}").unicodeScalars.count == 4)
        // Regression: a `/` (or `:`) with a combining mark after it is one Character that is not
        // `/`: it stayed in the stem, and `new "a/\u{301}b"` made a note in a folder `a`.
        #expect(NoteFileName.stem(for: "a/\u{301}b") == "a b")
        #expect(NoteFileName.stem(for: "x:\u{302}y\"\u{301}z") == "x y z")
        #expect(NoteFileName.stem(for: "...") == "Untitled")
        #expect(NoteFileName.stem(for: ".hidden") == "hidden")
        #expect(NoteFileName.stem(for: String(repeating: "é", count: 100)).utf8.count <= 117)
    }

    @Test func clashGetsANumber() {
        let taken: Set = ["A/Idea.md", "A/Idea 2.md"]
        #expect(NoteFileName.freePath(for: "Idea", in: "A") { taken.contains($0) } == "A/Idea 3.md")
    }

    let notes = [
        NoteHandle(path: "Inbox/Ideas.md", title: "Ideas", id: "aaaa1111-x", aliases: []),
        NoteHandle(path: "Projects/Ideas.md", title: "Ideas", id: "aaaa2222-y", aliases: []),
        NoteHandle(path: "Trips/Lisbon.md", title: "Lisbon trip", id: "bbbb3333", aliases: ["Lisboa"]),
    ]

    @Test func lookupByPathTitleNameAliasAndId() throws {
        #expect(try NoteLookup.find("Trips/Lisbon.md", in: notes, workingFolder: "").path == "Trips/Lisbon.md")
        #expect(try NoteLookup.find("Lisbon", in: notes, workingFolder: "Trips").path == "Trips/Lisbon.md")
        #expect(try NoteLookup.find("lisbon trip", in: notes, workingFolder: nil).path == "Trips/Lisbon.md")
        #expect(try NoteLookup.find("Lisboa", in: notes, workingFolder: nil).path == "Trips/Lisbon.md")
        #expect(try NoteLookup.find("bbbb", in: notes, workingFolder: nil).path == "Trips/Lisbon.md")
        #expect(try NoteLookup.find("Projects/Ideas", in: notes, workingFolder: nil).path == "Projects/Ideas.md")
    }

    @Test func ambiguityListsTheCandidates() {
        do {
            _ = try NoteLookup.find("Ideas", in: notes, workingFolder: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.what == "more than one note matches")
            #expect(error.details.contains { $0.hasPrefix("Inbox/Ideas.md") })
            #expect(error.details.contains { $0.hasPrefix("Projects/Ideas.md") })
        }
        #expect(throws: SheafError.self) { try NoteLookup.find("aaaa", in: notes, workingFolder: nil) }
    }

    @Test func relativePaths() {
        #expect(VaultPath.relative(from: "A/B", to: "A/C/x.md") == "../C/x.md")
        #expect(VaultPath.relative(from: "", to: "A/x.md") == "A/x.md")
        #expect(VaultPath.relative(from: "A", to: "x.md") == "../x.md")
        #expect(VaultPath.normalize("A/../../x") == nil)
    }
}
