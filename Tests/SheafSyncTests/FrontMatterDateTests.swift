// Issue 13, rule 2: front-matter dates. A change time (`modified`, `updated`, `lastmod` and their
// usual spellings) one side removed and the other bumped stays removed, and of two changes the
// later wins; any other date both sides changed is a conflict like any other key.
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

    @Test func aChangeTimeBothMovedTakesTheLaterOneInEverySpelling() throws {
        for key in ["modified", "Updated", "lastmod", "last_modified", "lastModified", "date modified", "updated-at"] {
            let base = Self.note("\(key): 2026-04-01\n")
            let early = Self.note("\(key): 2026-04-20\n")
            let late = Self.note("\(key): 2026-05-02T09:30+02:00\n")
            for (o, t) in [(early, late), (late, early)] {
                let r = try merge(base, o, t)
                #expect(r.remote == nil && r.note == late, "\(key)")
            }
        }
    }

    /// Later-wins held for any key whose three values were dates: a publish `date:` both sides
    /// changed, with the body in conflict too, lost the earlier side's value from both the note
    /// and the conflict file.
    @Test func aPublishDateBothChangedKeepsEachSidesValueWhenTheBodyAlsoConflicts() throws {
        func note(_ date: String, _ body: String) -> String { "---\ntitle: T\ndate: \(date)\n---\n\(body)\n" }
        let base = note("2026-01-01", "draft")
        for (local, remote) in [("2026-03-01", "2026-02-01"), ("2026-02-01", "2026-03-01")] {
            let r = try merge(base, note(local, "local text"), note(remote, "remote text"))
            #expect(r.note == note(local, "local text"), "local \(local)")
            #expect(r.remote?.contains("date: \(remote)\n") == true, "remote \(remote): \(r.remote ?? "none")")
            #expect(r.remote?.contains("remote text") == true)
            #expect(r.keys == ["date"])
        }
        // Without a body conflict the key alone is the conflict.
        let keyOnly = try merge(base, note("2026-02-01", "draft"), note("2026-03-01", "draft"))
        #expect(keyOnly.keys == ["date"] && keyOnly.note == note("2026-02-01", "draft"))
    }

    /// The removal-wins rule is for change times only: a due date removed here and moved later
    /// there was silently dropped.
    @Test func aDateThatIsNoChangeTimeRemovedHereAndMovedThereIsAConflict() throws {
        let base = Self.note("due: 2026-05-10\n")
        for (o, t) in [(Self.note(""), Self.note("due: 2026-05-17\n")), (Self.note("due: 2026-05-17\n"), Self.note(""))] {
            let r = try merge(base, o, t)
            #expect(r.keys == ["due"] && r.remote != nil)
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
