// A synced front-matter block sized to make the merge quadratic: a list merge held a table of
// both lists' lengths (8,000 tags took half a gigabyte and minutes), and the key-by-key merge
// read the whole block again for each of 2,000 changed keys. Every pull that merged such a note
// hung; these merges finish, and nothing of either side is lost.
import Testing
@testable import SheafSync

@Suite struct HostileFrontMatterMergeTests {
    @Test func aListOfThousandsOfItemsBothSidesAddedToMergesInLinearTime() throws {
        let items = (0..<20_000).map { "  - tag\($0)\n" }.joined()
        let base = "---\ntags:\n\(items)---\nbody\n"
        let ours = "---\ntags:\n\(items)  - ours\n---\nbody\n"
        let theirs = "---\ntags:\n\(items)  - theirs\n---\nbody\n"
        let r = try merge(base, ours, theirs)
        #expect(r.remote == nil)
        #expect(r.note.hasSuffix("  - tag19999\n  - ours\n  - theirs\n---\nbody\n"))
        // Two unrelated lists of the same length: each side's items, no table of their product.
        let other = (0..<20_000).map { "  - other\($0)\n" }.joined()
        let replaced = try merge(base, "---\ntags:\n\(other)---\nbody\n", "---\ntags:\n\(items)  - theirs\n---\nbody\n")
        #expect(replaced.note.contains("  - other19999\n") && replaced.note.contains("  - theirs\n"))
    }

    @Test func aBlockOfThousandsOfChangedKeysIsAConflictThatLosesNothing() throws {
        func block(_ suffix: (Int) -> String) -> String {
            "---\n" + (0..<3_000).map { "k\($0): v\($0)\(suffix($0))\n" }.joined() + "---\nbody\n"
        }
        let base = block { _ in "" }, ours = block { $0 % 2 == 0 ? "o" : "" }, theirs = block { $0 % 2 == 1 ? "t" : "" }
        let r = try merge(base, ours, theirs)
        #expect(r.note == ours)
        let remote = try #require(r.remote)
        #expect(remote.contains("k1: v1t\n") && remote.contains("k2999: v2999t\n"))
        // A block of a few changed keys still merges key by key.
        let small = try merge("---\na: 1\nb: 2\n---\nx\n", "---\na: 10\nb: 2\n---\nx\n", "---\na: 1\nb: 20\n---\nx\n")
        #expect(small.remote == nil && small.note == "---\na: 10\nb: 20\n---\nx\n")
    }
}
