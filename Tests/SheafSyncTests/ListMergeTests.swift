// Issue 13, rule 3: front-matter lists merge as multisets in order. Each test is named after the
// defect it pins: an item both sides edited differently was kept twice without a conflict; the
// removal of one of two equal entries was lost; the remote side's additions went to the end.
import Foundation
import Testing
@testable import SheafSync

@Suite struct ListMergeTests {
    static func note(_ fm: String) -> String { "---\ntitle: Reading\n\(fm)---\nbody\n" }

    @Test func anItemBothSidesEditedDifferentlyIsAConflict() throws {
        let base = Self.note("books:\n  - Dune\n  - Emma\n  - Ulysses\n")
        let ours = Self.note("books:\n  - Dune\n  - Emma (Austen)\n  - Ulysses\n")
        let theirs = Self.note("books:\n  - Dune\n  - Emma, 1815\n  - Ulysses\n")
        let r = try merge(base, ours, theirs)
        #expect(r.keys == ["books"])
        #expect(r.note == ours)
        #expect(try #require(r.remote).contains("  - Emma, 1815\n"))
        // The same edit on both sides is no conflict, and edits of different items merge.
        #expect(try merge(base, ours, ours).remote == nil)
        let other = Self.note("books:\n  - Dune (Herbert)\n  - Emma\n  - Ulysses\n")
        let both = try merge(base, ours, other)
        #expect(both.remote == nil && both.note == Self.note("books:\n  - Dune (Herbert)\n  - Emma (Austen)\n  - Ulysses\n"))
    }

    @Test func removingOneOfTwoEqualEntriesIsKept() throws {
        let base = Self.note("reread: [Dune, Emma, Dune]\n")
        let ours = Self.note("reread: [Dune, Emma, Dune, Ulysses]\n")
        let theirs = Self.note("reread: [Dune, Emma]\n")
        let r = try merge(base, ours, theirs)
        #expect(r.remote == nil)
        #expect(r.note == Self.note("reread: [Dune, Emma, Ulysses]\n"))
        let flipped = try merge(base, theirs, ours)
        #expect(flipped.remote == nil && flipped.note == Self.note("reread: [Dune, Emma, Ulysses]\n"))
    }

    @Test func theRemoteSidesAdditionsGoAfterTheirPredecessor() throws {
        // A flow list is one YAML line, so both edits overlap there and the list merge decides.
        let base = Self.note("steps: [plan, write, ship]\n")
        let ours = Self.note("steps: [plan, write, ship, celebrate]\n")
        let r = try merge(base, ours, Self.note("steps: [plan, write, review, ship]\n"))
        #expect(r.remote == nil)
        #expect(r.note == Self.note("steps: [plan, write, review, ship, celebrate]\n"))
        // At the start, and behind the local side's own additions at the same place.
        let first = try merge(base, ours, Self.note("steps: [idea, plan, write, ship]\n"))
        #expect(first.note == Self.note("steps: [idea, plan, write, ship, celebrate]\n"))
        let sameEnd = try merge(base, ours, Self.note("steps: [plan, write, ship, rest]\n"))
        #expect(sameEnd.note == Self.note("steps: [plan, write, ship, celebrate, rest]\n"))
        // A block list whose lines both sides changed next to each other.
        let block = try merge(Self.note("steps:\n  - plan\n  - ship\n"), Self.note("steps:\n  - plan\n  - ship\n  - rest\n"),
                              Self.note("steps:\n  - plan\n  - review\n  - ship\n  - party\n"))
        #expect(block.remote == nil)
        #expect(block.note == Self.note("steps:\n  - plan\n  - review\n  - ship\n  - rest\n  - party\n"))
    }

    @Test func tagsKeepTheirCaseInsensitiveSetRules() throws {
        let base = Self.note("tags: [travel, food]\n")
        let r = try merge(base, Self.note("tags: [travel, food, Lisbon]\n"), Self.note("tags: [Travel, food, lisbon, wine]\n"))
        #expect(r.remote == nil)
        #expect(r.note == Self.note("tags: [travel, food, Lisbon, wine]\n"))
    }

    @Test func aBlockListWithCommentsBetweenItemsIsNotRewritten() throws {
        let base = Self.note("steps:\n  - plan\n  # the hard part\n  - ship\n")
        let ours = Self.note("steps:\n  - plan\n  # the hard part\n  - ship\n  - rest\n")
        let theirs = Self.note("steps:\n  - plan\n  - review\n  # the hard part\n  - ship\n")
        let r = try merge(base, ours, theirs)
        // The YAML lines merge cleanly here, so the comment survives and nothing conflicts.
        #expect(r.remote == nil && r.note.contains("# the hard part") && r.note.contains("- review") && r.note.contains("- rest"))
    }
}
