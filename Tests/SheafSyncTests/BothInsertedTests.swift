// Issue 13, rule 1: where both sides only inserted lines at the same place, both insertions are
// kept, the local side's first, lines both added identically at the edges once, blank separators
// kept; a daily note both devices made from the same template merges against that template.
import Foundation
import Testing
@testable import SheafSync
@testable import SheafText

@Suite struct BothInsertedTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var base: String?
        var ours: String
        var theirs: String
        var note: String
        var description: String { name }
    }

    static let journal = "---\ntitle: Journal\n---\n# Journal\n\n## 2026-05-01\n- slept well\n"

    static let cases: [Case] = [
        Case(name: "two devices append to the journal",
             base: journal,
             ours: journal + "- phone: bought milk\n",
             theirs: journal + "- laptop: fixed the sink\n",
             note: journal + "- phone: bought milk\n- laptop: fixed the sink\n"),
        Case(name: "two entries with a blank separator each keep their separators",
             base: journal,
             ours: journal + "\n## 2026-05-02\n- local day\n",
             theirs: journal + "\n## 2026-05-02\n- remote day\n",
             note: journal + "\n## 2026-05-02\n- local day\n- remote day\n"),
        Case(name: "two CHANGELOG sections keep the blank line between them",
             base: "# Changelog\n\n## 1.0\n- first\n",
             ours: "# Changelog\n\n## 1.2\n- local fix\n\n## 1.0\n- first\n",
             theirs: "# Changelog\n\n## 1.1\n- remote fix\n\n## 1.0\n- first\n",
             note: "# Changelog\n\n## 1.2\n- local fix\n\n## 1.1\n- remote fix\n\n## 1.0\n- first\n"),
        Case(name: "two list items added at the end",
             base: "Shopping:\n- eggs\n",
             ours: "Shopping:\n- eggs\n- milk\n",
             theirs: "Shopping:\n- eggs\n- bread\n",
             note: "Shopping:\n- eggs\n- milk\n- bread\n"),
        Case(name: "a footer both added identically is written once",
             base: "intro\n",
             ours: "intro\n- local\n\n-- signed\n",
             theirs: "intro\n- remote\n\n-- signed\n",
             note: "intro\n- local\n\n- remote\n\n-- signed\n"),
        Case(name: "two lines inserted at the same place mid-note",
             base: "a\nb\n",
             ours: "a\nlocal\nb\n",
             theirs: "a\nremote\nb\n",
             note: "a\nlocal\nremote\nb\n"),
        Case(name: "the same daily note made from a template on both devices",
             base: nil,
             ours: "---\ndate: 2026-05-02\ntags: [daily]\n---\n# 2026-05-02\n\n## Log\n- 08:00 local run\n",
             theirs: "---\ndate: 2026-05-02\ntags: [daily]\n---\n# 2026-05-02\n\n## Log\n- 09:30 remote call\n",
             note: "---\ndate: 2026-05-02\ntags: [daily]\n---\n# 2026-05-02\n\n## Log\n- 08:00 local run\n- 09:30 remote call\n"),
        Case(name: "a daily note whose front-matter differs still merges its body against the template",
             base: nil,
             ours: "---\ncreated: 2026-05-02T08:00\n---\n# Today\n- local\n",
             theirs: "---\ntags: [daily]\n---\n# Today\n- remote\n",
             note: "---\ntags: [daily]\ncreated: 2026-05-02T08:00\n---\n# Today\n- local\n- remote\n"),
        Case(name: "a plain text file appended on both sides",
             base: "log\n",
             ours: "log\nlocal\n",
             theirs: "log\nremote\n",
             note: "log\nlocal\nremote\n"),
    ]

    @Test(arguments: cases) func bothInsertionsAreKeptLocalFirst(_ c: Case) throws {
        let isNote = !c.name.contains("plain text")
        let r = try merge(c.base, c.ours, c.theirs, isNote: isNote)
        #expect(r.remote == nil, "\(c.name): a conflict")
        #expect(r.note == c.note, "\(c.name)")
    }

    @Test func aChangedAncestorLineNextToTheInsertionIsStillAConflict() throws {
        let base = "# Journal\n- one\n"
        let r = try merge(base, "# Journal\n- one, edited\n- local\n", "# Journal\n- one\n- remote\n")
        let remote = try #require(r.remote)
        #expect(r.note == "# Journal\n- one, edited\n- local\n")
        #expect(remote == "# Journal\n- one\n- remote\n")
    }

    @Test func anInsertionAndARealOverlapInOneNote() throws {
        let base = "a\nb\nc\nd\ne\nf\n"
        let ours = "a\nlocal insert\nb\nc\nd local\ne\nf\n"
        let theirs = "a\nremote insert\nb\nc\nd remote\ne\nf\n"
        let r = try merge(base, ours, theirs)
        let remote = try #require(r.remote)
        #expect(r.note == "a\nlocal insert\nremote insert\nb\nc\nd local\ne\nf\n")
        #expect(remote == "a\nlocal insert\nremote insert\nb\nc\nd remote\ne\nf\n")
    }

    @Test func theHunksAreDiff3NotZealous() throws {
        // zdiff3 would move the shared blank line out of the overlap; diff3 keeps it inside.
        let regions = Diff3.regions(base: Array("x\n".utf8), ours: Array("x\n\nA\n".utf8), theirs: Array("x\n\nB\n".utf8))
        #expect(regions == [.settled(Array("x\n".utf8)),
                            .overlap(base: [], ours: Array("\nA\n".utf8), theirs: Array("\nB\n".utf8))])
    }

    @Test func markerLikeLinesInTheInputsDoNotConfuseTheRegions() throws {
        let marker = String(repeating: "<", count: 9)
        let regions = Diff3.regions(base: Array("x\n".utf8), ours: Array("x\n\(marker)\n".utf8),
                                    theirs: Array("x\n=======\n".utf8))
        #expect(regions == [.settled(Array("x\n".utf8)),
                            .overlap(base: [], ours: Array("\(marker)\n".utf8), theirs: Array("=======\n".utf8))])
        let r = try merge("x\n", "x\n\(marker)\n", "x\n=======\n")
        #expect(r.note == "x\n\(marker)\n=======\n" && r.remote == nil)
    }

    @Test func missingFinalLineBreaksAreNotInvented() throws {
        let r = try merge("a\n", "a\nlocal", "a\nremote")
        #expect(r.note == "a\nlocal\nremote" && r.remote == nil)
        let s = try merge("a\n", "a\nlocal\n", "a\nremote")
        #expect(s.note == "a\nlocal\nremote" && s.remote == nil)
        // A blank line the remote side appended after a local last line without a break.
        let t = try merge("", "local", "\n")
        #expect(t.note == "local\n\n" && t.remote == nil)
    }
}
