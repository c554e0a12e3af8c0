// Issue 13, rule 2: front-matter dates. A timestamp one side removed and the other bumped stays
// removed; a value both sides changed that is a date on all three sides takes the later date.
import Foundation
import Testing
@testable import SheafSync

@Suite struct FrontMatterDateTests {
    static func note(_ fm: String) -> String { "---\ntitle: T\n\(fm)---\nbody\n" }

    @Test func removingATimestampBeatsABumpOnEitherSide() throws {
        let base = Self.note("modified: 2026-05-01T10:00:00Z\n")
        let bumped = Self.note("modified: 2026-05-02T08:00:00Z\n")
        let removed = Self.note("")
        for (o, t) in [(bumped, removed), (removed, bumped)] {
            let r = try merge(base, o, t)
            #expect(r.remote == nil && r.note == removed)
        }
    }

    @Test func removingADateMovedEarlierIsStillAConflict() throws {
        let base = Self.note("due: 2026-05-10\n")
        let r = try merge(base, Self.note(""), Self.note("due: 2026-05-03\n"))
        #expect(r.keys == ["due"] && r.remote != nil)
    }

    @Test func aDateBothChangedTakesTheLaterOne() throws {
        let base = Self.note("reviewed: 2026-04-01\n")
        let early = Self.note("reviewed: 2026-04-20\n")
        let late = Self.note("reviewed: 2026-05-02T09:30+02:00\n")
        for (o, t) in [(early, late), (late, early)] {
            let r = try merge(base, o, t)
            #expect(r.remote == nil && r.note == late)
        }
    }

    @Test func aValueThatIsNotADateOnEverySideIsAConflict() throws {
        let base = Self.note("reviewed: never\n")
        let r = try merge(base, Self.note("reviewed: 2026-04-20\n"), Self.note("reviewed: 2026-05-02\n"))
        #expect(r.keys == ["reviewed"])
        let words = try merge(Self.note("reviewed: 2026-04-01\n"), Self.note("reviewed: 2026-04-20 at noon\n"),
                              Self.note("reviewed: 2026-05-02\n"))
        #expect(words.keys == ["reviewed"])
    }
}
