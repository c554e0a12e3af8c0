// One test per merge rule of docs/merging.md, with plain strings.
import Foundation
import Testing
@testable import SheafSync
@testable import SheafText
import SheafCore

func merge(_ base: String?, _ ours: String, _ theirs: String, isNote: Bool = true) throws -> (note: String, remote: String?, keys: [String]) {
    let result = try NoteMerge.merge(base: base.map { Array($0.utf8) }, ours: Array(ours.utf8), theirs: Array(theirs.utf8), isNote: isNote)
    return (String(decoding: result.merged, as: UTF8.self), result.remote.map { String(decoding: $0, as: UTF8.self) }, result.conflictingKeys)
}

let markers = ["<<<<<<<", "=======", ">>>>>>>", "|||||||"]
func hasMarkers(_ text: String) -> Bool {
    text.split(separator: "\n").contains { line in markers.contains { line.hasPrefix($0) } }
}

@Suite struct NoteMergeTests {
    let base = """
        ---
        title: Lisbon
        tags: [travel, food]
        created: 2026-01-02T10:00:00+00:00
        ---
        # Lisbon

        Line one.
        Line two.
        Line three.
        Line four.
        Line five.

        """

    @Test func disjointBodyEditsMergeCleanly() throws {
        let ours = base.replacingOccurrences(of: "Line one.", with: "Line one, local.")
        let theirs = base.replacingOccurrences(of: "Line five.", with: "Line five, remote.")
        let r = try merge(base, ours, theirs)
        #expect(r.remote == nil)
        #expect(r.note.contains("Line one, local.") && r.note.contains("Line five, remote."))
    }

    @Test func overlappingBodyEditsKeepLocalInNoteAndRemoteInConflict() throws {
        let ours = base.replacingOccurrences(of: "Line three.", with: "Line three, local.")
        let theirs = base.replacingOccurrences(of: "Line three.", with: "Line three, remote.")
        let r = try merge(base, ours, theirs)
        let remote = try #require(r.remote)
        #expect(r.note == ours)
        #expect(remote == theirs)
        #expect(!hasMarkers(r.note) && !hasMarkers(remote))
    }

    @Test func overlapStillMergesTheOtherHunks() throws {
        let ours = base.replacingOccurrences(of: "Line three.", with: "Line three, local.")
            .replacingOccurrences(of: "Line one.", with: "Line one, local.")
        let theirs = base.replacingOccurrences(of: "Line three.", with: "Line three, remote.")
            .replacingOccurrences(of: "Line five.", with: "Line five, remote.")
        let r = try merge(base, ours, theirs)
        let remote = try #require(r.remote)
        for text in [r.note, remote] {
            #expect(text.contains("Line one, local.") && text.contains("Line five, remote."))
        }
        #expect(r.note.contains("Line three, local.") && !r.note.contains("Line three, remote."))
        #expect(remote.contains("Line three, remote.") && !remote.contains("Line three, local."))
    }

    @Test func tagsAddedOnBothSidesMergeAsSets() throws {
        let ours = base.replacingOccurrences(of: "tags: [travel, food]", with: "tags: [travel, food, porto]")
            .replacingOccurrences(of: "Line one.", with: "Line one, local.")
        let theirs = base.replacingOccurrences(of: "tags: [travel, food]", with: "tags: [travel, food, tram]")
        let r = try merge(base, ours, theirs)
        #expect(r.remote == nil)
        #expect(r.note.contains("tags: [travel, food, porto, tram]"))
        #expect(r.note.contains("Line one, local."))
    }

    @Test func blockListAdditionsAndRemovalsFromBothSides() throws {
        let b = "---\ntags:\n  - a\n  - b\n  - c\n---\nbody\n"
        let o = "---\ntags:\n  - b\n  - c\n  - local\n---\nbody\n"       // removed a, added local
        let t = "---\ntags:\n  - a\n  - b\n  - remote\n---\nbody\n"      // removed c, added remote
        let r = try merge(b, o, t)
        #expect(r.remote == nil)
        #expect(r.note == "---\ntags:\n  - b\n  - local\n  - remote\n---\nbody\n")
    }

    @Test func tagsCompareWithoutCaseOrHash() throws {
        let b = "---\ntags: [a]\n---\n"
        let o = "---\ntags: [a, Porto]\n---\n"
        let t = "---\ntags: [a, porto, x]\n---\n"
        let r = try merge(b, o, t)
        #expect(r.note == "---\ntags: [a, Porto, x]\n---\n")
    }

    @Test func keyChangedOnOneSideTakesThatSideVerbatim() throws {
        let ours = base.replacingOccurrences(of: "title: Lisbon", with: "title: 'Lisboa'   # renamed")
        let theirs = base.replacingOccurrences(of: "Line two.", with: "Line two, remote.")
            .replacingOccurrences(of: "tags: [travel, food]", with: "tags: [travel, food, x]")
        let r = try merge(base, ours, theirs)
        #expect(r.remote == nil)
        #expect(r.note.contains("title: 'Lisboa'   # renamed") && r.note.contains("Line two, remote."))
    }

    @Test func sameKeyChangedDifferentlyIsAConflict() throws {
        let ours = base.replacingOccurrences(of: "title: Lisbon", with: "title: Lisboa")
        let theirs = base.replacingOccurrences(of: "title: Lisbon", with: "title: Lisbon city")
        let r = try merge(base, ours, theirs)
        #expect(r.keys == ["title"])
        #expect(r.note == ours)
        #expect(try #require(r.remote) == theirs)
    }

    @Test func keyConflictWithOtherKeysMergedOnBothSides() throws {
        // Adjacent lines change on both sides, so the line merge overlaps and the keys decide.
        let b = "---\ntitle: A\nstatus: draft\ntags: [x]\n---\nbody\n"
        let o = "---\ntitle: B\nstatus: done\ntags: [x, l]\n---\nbody\n"
        let t = "---\ntitle: C\nstatus: draft\ntags: [x, r]\n---\nbody\n"
        let r = try merge(b, o, t)
        #expect(r.keys == ["title"])
        #expect(r.note == "---\ntitle: B\nstatus: done\ntags: [x, l, r]\n---\nbody\n")
        #expect(r.remote == "---\ntitle: C\nstatus: done\ntags: [x, r, l]\n---\nbody\n")
    }

    @Test func modifiedTakesTheLaterTime() throws {
        let b = "---\ntitle: A\nmodified: 2026-01-01T10:00:00+00:00\n---\nbody\n"
        let o = "---\ntitle: A2\nmodified: 2026-01-03T10:00:00+00:00\n---\nbody\n"
        let t = "---\ntitle: A\nmodified: 2026-01-05T10:00:00+01:00\n---\nbody\n"
        let r = try merge(b, o, t)
        #expect(r.remote == nil)
        #expect(r.note == "---\ntitle: A2\nmodified: 2026-01-05T10:00:00+01:00\n---\nbody\n")
    }

    @Test func keyAddedByTheOtherSideLandsInItsPlace() throws {
        let b = "---\ntitle: A\ntags: [x]\n---\nbody\n"
        let o = "---\ntitle: B\ntags: [x]\n---\nbody\n"
        let t = "---\ntitle: C\nstatus: done\ntags: [x]\n---\nbody\n"
        let r = try merge(b, o, t)
        #expect(r.note == "---\ntitle: B\nstatus: done\ntags: [x]\n---\nbody\n")
        #expect(r.keys == ["title"])
    }

    @Test func keyRemovedByTheOtherSideIsRemoved() throws {
        let b = "---\ntitle: A\nstatus: draft\n---\nbody\n"
        let o = "---\ntitle: A\nstatus: draft\n---\nbody, local\n"
        let t = "---\ntitle: A\n---\nbody\n"
        let r = try merge(b, o, t)
        #expect(r.note == "---\ntitle: A\n---\nbody, local\n")
    }

    @Test func commentsSurviveWhenTheYAMLLinesMergeCleanly() throws {
        let b = "---\n# about\ntitle: A\n\nstatus: draft\n---\nbody\n"
        let o = "---\n# about this\ntitle: A\n\nstatus: draft\n---\nbody\n"
        let t = "---\n# about\ntitle: A\n\nstatus: done  # finally\n---\nbody\n"
        let r = try merge(b, o, t)
        #expect(r.note == "---\n# about this\ntitle: A\n\nstatus: done  # finally\n---\nbody\n")
    }

    @Test func frontMatterAddedOnOneSide() throws {
        let b = "# Title\n\ntext\n"
        let o = "# Title\n\ntext\nmore local\n"
        let t = "---\ntags: [x]\n---\n# Title\n\ntext\n"
        let r = try merge(b, o, t)
        #expect(r.note == "---\ntags: [x]\n---\n# Title\n\ntext\nmore local\n")
    }

    @Test func addAddMergesAgainstWhatBothStartWith() throws {
        // Both sides inserted after the shared front-matter: both kept, the local side first.
        let r = try merge(nil, "---\ntitle: A\n---\nlocal text\n", "---\ntitle: A\n---\nremote text\n")
        #expect(r.note == "---\ntitle: A\n---\nlocal text\nremote text\n")
        #expect(r.remote == nil)
        // A changed line is still a conflict.
        let c = try merge(nil, "---\ntitle: A\n---\nsame\nlocal\n", "---\ntitle: B\n---\nsame\nremote\n")
        #expect(c.remote != nil && c.keys == ["title"])
    }

    @Test func identicalAddAddIsClean() throws {
        let r = try merge(nil, "same\n", "same\n")
        #expect(r.remote == nil && r.note == "same\n")
    }

    @Test func brokenYAMLFallsBackToLines() throws {
        let b = "---\ntitle: [unclosed\n---\na\nb\nc\n"
        let o = "---\ntitle: [unclosed\n---\na local\nb\nc\n"
        let t = "---\ntitle: [unclosed\n---\na\nb\nc remote\n"
        let r = try merge(b, o, t)
        #expect(r.remote == nil)
        #expect(r.note == "---\ntitle: [unclosed\n---\na local\nb\nc remote\n")
    }

    @Test func binaryChangedOnBothSidesKeepsLocal() throws {
        let b: [UInt8] = [0x89, 0x50, 0, 1], o: [UInt8] = [0x89, 0x50, 0, 2], t: [UInt8] = [0x89, 0x50, 0, 3]
        let r = try NoteMerge.merge(base: b, ours: o, theirs: t, isNote: false)
        #expect(r.merged == o && r.remote == t)
    }

    @Test func crlfNotesStayCRLF() throws {
        let b = "---\r\ntitle: A\r\ntags: [x]\r\n---\r\none\r\ntwo\r\nthree\r\n"
        let o = "---\r\ntitle: B\r\ntags: [x, l]\r\n---\r\none local\r\ntwo\r\nthree\r\n"
        let t = "---\r\ntitle: A\r\ntags: [x, r]\r\n---\r\none\r\ntwo\r\nthree remote\r\n"
        let r = try merge(b, o, t)
        #expect(r.note == "---\r\ntitle: B\r\ntags: [x, l, r]\r\n---\r\none local\r\ntwo\r\nthree remote\r\n")
    }

    @Test func plainTextFilesMergeByLines() throws {
        let r = try merge("a\nb\nc\n", "a1\nb\nc\n", "a\nb\nc1\n", isNote: false)
        #expect(r.note == "a1\nb\nc1\n" && r.remote == nil)
    }

    /// Fuzz find: one side emptied a list to YAML null (`~`), the other added an item; the
    /// merge wrote `aliases: ~ z`, a list whose first item is `~`.
    @Test func listEmptiedToNullOnOneSideTakesTheOtherSidesAdditionsWithoutATilde() throws {
        let r = try merge("---\naliases: x\n---\n", "---\naliases: ~\n---\n", "---\naliases: x z\n---\n")
        #expect(r.remote == nil)
        #expect(r.note == "---\naliases: [z]\n---\n")
    }

    /// Fuzz find: a key the local side removed and the remote side changed was a conflict
    /// (the other way round it was), but the conflict was dropped because only keys still in the
    /// local note were listed, so the remote change vanished without a conflict file.
    @Test func keyRemovedLocallyAndChangedRemotelyIsAConflictLikeTheOtherWayRound() throws {
        let b = "---\ntitle: A\nstatus: x\n---\nbody\n"
        let removed = "---\ntitle: A\n---\nbody\n", changed = "---\ntitle: A\nstatus: y\n---\nbody\n"
        let r = try merge(b, removed, changed)
        #expect(r.note == removed && r.remote == changed && r.keys == ["status"])
        let mirrored = try merge(b, changed, removed)
        #expect(mirrored.note == changed && mirrored.remote == removed && mirrored.keys == ["status"])
    }

    /// Fuzz find: when the merged note has no front-matter (one side removed it) and the merged
    /// body starts with a `---` line followed later by another, the note read back as a broken
    /// front-matter block and those body lines were no longer body.
    @Test func bodyStartingWithDashesStaysBodyWhenTheFrontMatterIsRemoved() throws {
        let b = "---\ntitle: A\n---\nintro\nword\n---\nend\n"
        let o = "intro\nword\n---\nend\n"
        let t = "---\ntitle: A\n---\n---\nword\n---\nend\n"
        let r = try merge(b, o, t)
        #expect(r.remote == nil)
        let doc = NoteDocument(text: r.note)
        #expect(doc.body == "---\nword\n---\nend\n")
        #expect(doc.frontMatter.map { (try? FrontMatter(parsing: $0))?.entries.isEmpty == true } == true)
    }

    /// Hostile find: Swift's `==` equates canonically equivalent text ("é" and "e\u{301}"), but
    /// YAML keys and the bytes of a note do not; keys that differ only so were taken for one
    /// key, and a change of normalisation alone for no change: the remote edit was lost, exit 0.
    @Test func keysThatDifferOnlyInUnicodeNormalizationAreTwoKeys() throws {
        let b = "---\ncafé: 1\ncafe\u{301}: 2\n---\nbody\n"
        let r = try merge(b, "---\ncafé: 3\ncafe\u{301}: 2\n---\nbody\n", "---\ncafé: 1\ncafe\u{301}: 4\n---\nbody\n")
        #expect(r.remote == nil)
        #expect(Array(r.note.utf8) == Array("---\ncafé: 3\ncafe\u{301}: 4\n---\nbody\n".utf8))
    }

    @Test func aChangeOfUnicodeNormalizationAloneIsAChange() throws {
        let b = "---\ntitle: café\nstatus: a\n---\nbody\n"
        let r = try merge(b, "---\ntitle: café\nstatus: b\n---\nbody\n", "---\ntitle: cafe\u{301}\nstatus: a\n---\nbody\n")
        #expect(r.remote == nil)
        #expect(Array(r.note.utf8) == Array("---\ntitle: cafe\u{301}\nstatus: b\n---\nbody\n".utf8))
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let ours = base.replacingOccurrences(of: "Line three.", with: "L3 local").replacingOccurrences(of: "title: Lisbon", with: "title: X")
        let theirs = base.replacingOccurrences(of: "Line three.", with: "L3 remote").replacingOccurrences(of: "title: Lisbon", with: "title: Y")
        let first = try merge(base, ours, theirs)
        for _ in 0..<5 {
            let again = try merge(base, ours, theirs)
            #expect(again.note == first.note && again.remote == first.remote)
        }
    }
}

@Suite struct ConflictFileTests {
    let time = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 ...

    @Test func nameCarriesRemoteTimeAndDevice() {
        let path = ConflictFile.path(for: "Trips/Lisbon.md", time: time, device: "old laptop", taken: { _ in false })
        #expect(path == "Trips/Lisbon.conflict-20261118-110640-old-laptop.md")
        #expect(ConflictName.isConflict(path))
    }

    @Test func aClashAddsANumber() {
        let first = ConflictFile.path(for: "a.md", time: time, device: "d", taken: { _ in false })
        let second = ConflictFile.path(for: "a.md", time: time, device: "d", taken: { $0 == first })
        #expect(second == "a.conflict-20261118-110640-d-2.md")
        #expect(ConflictName.isConflict(second))
    }

    @Test func contentGetsConflictOfAndAStableID() throws {
        let remote = Array("---\nid: 1234\ntitle: A\n---\nbody\n".utf8)
        let a = ConflictFile.content(remote: remote, notePath: "Trips/Lisbon.md", isNote: true)
        let b = ConflictFile.content(remote: remote, notePath: "Trips/Lisbon.md", isNote: true)
        #expect(a == b)
        let text = String(decoding: a, as: UTF8.self)
        #expect(text.contains("conflict-of: Trips/Lisbon.md\n"))
        #expect(!text.contains("id: 1234"))
        #expect(text.range(of: #"id: [0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"#, options: .regularExpression) != nil)
    }

    @Test func aNoteWithoutFrontMatterGetsABlock() {
        let text = String(decoding: ConflictFile.content(remote: Array("just text\n".utf8), notePath: "n.md", isNote: true), as: UTF8.self)
        #expect(text.hasPrefix("---\nconflict-of: n.md\nid: "))
        #expect(text.hasSuffix("---\njust text\n"))
    }
}

@Suite struct WritePathMergeTests {
    /// Found by the busy-editor test: the editor's save and Sheaf's folded-in version both
    /// appended at the end; the overlap kept only one side, and an editor's line was lost.
    @Test func theWritePathMergeKeepsBothSidesOfAnOverlap() throws {
        let base = Array("---\ntags: [a]\n---\nbody\n".utf8)
        let current = Array("---\ntags: [a]\n---\nbody\nsave-396\n".utf8)
        let wanted = Array("---\ntags: [a, b]\n---\nbody\nsave-395\n".utf8)
        // Both sides only appended: since issue 13 the plain merge keeps both too.
        let plain = try NoteMerge.merge(base: base, ours: current, theirs: wanted)
        #expect(plain.isClean)
        #expect(String(decoding: plain.merged, as: UTF8.self) == "---\ntags: [a, b]\n---\nbody\nsave-396\nsave-395\n")
        let kept = try NoteMerge.merge(base: base, ours: current, theirs: wanted, keepBoth: true)
        #expect(String(decoding: kept.merged, as: UTF8.self) == "---\ntags: [a, b]\n---\nbody\nsave-396\nsave-395\n")
        let text = try NoteMerge.merge(base: Array("x\n".utf8), ours: Array("x\n1\n".utf8), theirs: Array("x\n2\n".utf8),
                                       isNote: false, keepBoth: true)
        #expect(String(decoding: text.merged, as: UTF8.self) == "x\n1\n2\n")
        // A real overlap (both changed the same line): the write path still keeps both.
        let changed = try NoteMerge.merge(base: Array("x\ny\n".utf8), ours: Array("x\n1\n".utf8),
                                          theirs: Array("x\n2\n".utf8), isNote: false, keepBoth: true)
        #expect(String(decoding: changed.merged, as: UTF8.self) == "x\n1\n2\n")
    }
}
