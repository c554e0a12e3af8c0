// What a language server asks Kit (VaultLinkMap, NoteOutline, LinkProblem): completion candidates
// with the link Obsidian would write, a note's headings and block ids with their lines, and the
// checks `doctor` runs, on text that may never have been saved.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct KitLinkMapTests {
    static func vault() throws -> KitVault {
        let v = try KitVault()
        try v.write("---\naliases: [Lisboa]\n---\n# Lisbon\n## Food\ntext ^menu\n## Pastéis & coffee!\n", "Trips/Lisbon.md")
        try v.write("# Ideas\n", "Inbox/Ideas.md")
        try v.write("# Ideas too\n", "Projects/Ideas.md")
        try v.write("# Plan\n", "Plan.md")
        try v.write("img", "Media/photo.png")
        return v
    }

    @Test func completionOffersTitlesFileNamesAndAliasesWithTheShortestLink() throws {
        let v = try Self.vault()
        let map = try v.session().linkMap()
        let lisbon = map.candidates("lis", from: "Plan.md")
        #expect(lisbon.first?.path == "Trips/Lisbon.md")
        #expect(lisbon.first?.linkText == "Lisbon")  // the bare name reaches it: no folder written
        let alias = map.candidates("lisboa", from: "Plan.md")
        #expect(alias.first?.linkText == "Lisbon|Lisboa")
        // Two notes named Ideas: from the root the bare name reaches the shorter path, so the
        // other is written as its vault path.
        let ideas = Dictionary(uniqueKeysWithValues: map.candidates("ideas", from: "Plan.md").map { ($0.path, $0.linkText) })
        #expect(ideas["Inbox/Ideas.md"] == "Ideas")
        #expect(ideas["Projects/Ideas.md"] == "Projects/Ideas")
        // From inside Projects, the bare name is Projects' own.
        let fromProjects = Dictionary(uniqueKeysWithValues: map.candidates("ideas", from: "Projects/Plan.md").map { ($0.path, $0.linkText) })
        #expect(fromProjects["Projects/Ideas.md"] == "Ideas")
        #expect(map.candidates("photo", from: "Plan.md").first?.linkText == "photo.png")
        #expect(map.candidates("zzzz", from: "Plan.md").isEmpty)
    }

    @Test func outlineGivesHeadingsAndBlocksWithTheirLinesInTheFile() throws {
        let text = "---\ntitle: T\n---\n# One\ntext ^b1\n\n## Two ##\n[[X#Two]]\n"
        let outline = NoteOutline(text: text, path: "T.md")
        #expect(outline.headings == [.init(text: "One", level: 1, line: 3), .init(text: "Two", level: 2, line: 6)])
        #expect(outline.blockIDs == [.init(id: "b1", line: 4)])
        let link = try #require(outline.links.first)
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[link.spanBytes], as: UTF8.self) == "X#Two")
        #expect(outline.line(ofFragment: "two") == 6)
        #expect(outline.line(ofFragment: "^B1") == 4)
    }

    @Test func problemsOfAnUnsavedBufferAreDoctorsFindingsAndAmbiguousNames() throws {
        let v = try Self.vault()
        let map = try v.session().linkMap()
        let text = "# Draft\n[[Lisbon#Food]] [[Lisbon#pastéis coffee]] [[Lisbon#Nightlife]] [[Lisbon#^menu]] [[Lisbon#^nope]]\n[[Nowhere]] [[Ideas]] [[#Draft]] [[#Missing]]\n%% [[Hidden]] %%\n"
        let problems = map.problems(in: NoteOutline(text: text, path: "Draft.md"))
        let bytes = Array(text.utf8)
        let found = problems.map { (String(decoding: bytes[$0.link.spanBytes], as: UTF8.self), $0.problem.kind) }
        #expect(found.map(\.0) == ["Lisbon#Nightlife", "Lisbon#^nope", "Nowhere", "Ideas", "#Missing"])
        #expect(found.map(\.1) == [.brokenHeading, .brokenBlock, .brokenLink, .ambiguousLink, .brokenHeading])
        #expect(problems[3].problem.candidates == ["Inbox/Ideas.md", "Projects/Ideas.md"])
    }

    /// `doctor` answers through the same check: the buffer's findings are what it reports saved.
    @Test func doctorReportsTheLinkProblemsAnEditorIsShown() throws {
        let v = try Self.vault()
        try v.write("# Draft\n[[Lisbon#Nightlife]] [[Nowhere]] [[Ideas]]\n", "Draft.md")
        let findings = try v.session().doctor().filter { $0.path == "Draft.md" }
        #expect(findings.map(\.kind) == [.brokenHeading, .brokenLink])
        #expect(findings.map(\.line) == [2, 2])
    }

    @Test func backlinksFromTheMapAreTheIndexsBacklinks() throws {
        let v = try Self.vault()
        try v.write("# A\n[[Lisbon]] and [x](Trips/Lisbon.md)\n", "A.md")
        try v.write("# B\n[[Trips/Lisbon#Food]]\n", "B.md")
        let session = try v.session()
        let map = try session.linkMap()
        #expect(map.linkingNotes(to: "Trips/Lisbon.md") == ["A.md", "B.md"])
        #expect(try session.backlinks(ofPath: "Trips/Lisbon.md") == map.linkingNotes(to: "Trips/Lisbon.md"))
    }

    @Test func referencesGiveEachLinkingLineAndWhereTheLinkIsOnIt() throws {
        let v = try Self.vault()
        try v.write("---\nup: \"[[Lisbon]]\"\n---\n# A\nCafé — [[Lisbon#food]] and [[Lisbon]]\n", "A.md")
        let map = try v.session().linkMap()
        let all = map.references(to: "Trips/Lisbon.md")
        #expect(all.map(\.line) == [1, 4, 4])
        let body = all[1]
        let text = Array(body.lineText.utf8)
        #expect(String(decoding: text[body.columns], as: UTF8.self) == "Lisbon#food")
        #expect(map.references(to: "Trips/Lisbon.md", heading: "Food").map(\.line) == [4])
    }

    @Test func previewGivesATitleAndFirstLinesOrAFilesSize() throws {
        let v = try Self.vault()
        let map = try v.session().linkMap()
        let note = try #require(map.preview(of: "Trips/Lisbon.md", count: 2))
        #expect(note.title == "Lisbon" && note.lines == ["# Lisbon", "## Food"])
        #expect(map.preview(of: "Media/photo.png") == FilePreview(path: "Media/photo.png", title: "photo.png", lines: [], size: 3))
        #expect(map.preview(of: "Gone.md") == nil)
    }

    @Test func tagsAreCountedAcrossNotesMostUsedFirst() throws {
        let v = try Self.vault()
        try v.write("# A\n#trip #food\n", "A.md")
        try v.write("---\ntags: [Trip]\n---\n# B\n", "B.md")
        try v.write("# C\n#trip\n", "C.md")
        let tags = try v.session().linkMap().tags
        #expect(tags.map(\.tag) == ["trip", "food"] && tags.map(\.count) == [3, 1])
    }

    /// The plan an editor applies is what `mv` writes: every text after the plan equals the file after `mv`.
    @Test func movePlanIsWhatMvWritesAndWritesNothing() throws {
        let v = try Self.vault()
        try v.write("# A\n[[Lisbon]] and [[Lisbon#Food]] and [m](Trips/Lisbon.md)\n", "A.md")
        try v.write("---\nup: \"[[Trips/Lisbon]]\"\n---\n# B\n", "B.md")
        try v.write("# C\nnothing\n", "C.md")
        let session = try v.session()
        let plan = try session.movePlan("Trips/Lisbon.md", to: "Lisboa", texts: [PathKey("C.md"): "# C\nunsaved [[Lisbon]]\n"])
        #expect(plan.from == "Trips/Lisbon.md" && plan.to == "Trips/Lisboa.md")
        #expect(plan.edits.map(\.path) == ["A.md", "B.md", "C.md"])
        #expect(plan.edits[2].after == "# C\nunsaved [[Lisboa|Lisbon]]\n")  // the buffer's text, edited
        #expect(v.read("C.md") == "# C\nnothing\n" && v.read("Trips/Lisbon.md") != nil)  // nothing written
        _ = try session.move(try session.resolve("Trips/Lisbon.md"), to: "Lisboa")
        for edit in plan.edits where edit.path != "C.md" { #expect(v.read(edit.path) == edit.after) }
    }

    @Test func linkFixesSpellTheFilesCaseAndPlaceANewNoteWhereTheLinkReachesIt() throws {
        let v = try Self.vault()
        let map = try v.session().linkMap()
        #expect(map.spelling(of: "lisbon", reaching: "Trips/Lisbon.md", from: "Plan.md") == "Lisbon")
        #expect(map.spelling(of: "trips/lisbon", reaching: "Trips/Lisbon.md", from: "Plan.md") == "Trips/Lisbon")
        #expect(map.spelling(of: "Lisbon", reaching: "Trips/Lisbon.md", from: "Plan.md") == nil)
        #expect(map.newNotePath(for: "Porto", from: "Trips/Plan.md") == "Porto.md")
        #expect(map.newNotePath(for: "Trips/Porto", from: "Plan.md") == "Trips/Porto.md")
        #expect(map.newNotePath(for: "../Porto", from: "Trips/Day/Plan.md") == "Trips/Porto.md")
        #expect(map.newNotePath(for: "photo.jpg", from: "Plan.md") == nil)
        #expect(map.newNotePath(for: "../../Out", from: "Plan.md") == nil)
    }

    @Test func tagReferencesAreTheInlineTagsOfTheNotesThatCarryThem() throws {
        let v = try Self.vault()
        try v.write("---\ntags: [trip]\n---\n# A\nCafé #Trip and #trip/sub\n```\n#trip in code\n```\n#trip\n", "A.md")
        try v.write("# B\nno tags\n", "B.md")
        let found = try v.session().linkMap().tagReferences("trip")
        #expect(found.map(\.line) == [4, 8])
        let first = Array(found[0].lineText.utf8)
        #expect(String(decoding: first[found[0].columns], as: UTF8.self) == "Trip")
    }
}
