// The note merge with `PlainFrontMatterRules` (what `sheaf-merge-file` runs without a YAML
// parser) either gives exactly what Sheaf's own merge gives, byte for byte, or no answer.
import SheafCore
import Testing
import TestSupport
@testable import SheafSync
@testable import SheafText

@Suite struct PlainRulesMergeTests {
    @Test func aMergeThePlainRulesAnswerIsSheafsOwnMerge() throws {
        var answered = 0, unanswered = 0, overlapped = 0
        for seed in 0..<3000 {
            var rng = SeededRandom(seed: seed)
            let base = FuzzNote.random(&rng)
            var ours = base, theirs = base
            ours.edit(&rng, tag: "ours")
            theirs.edit(&rng, tag: "theirs")
            let added = seed % 10 == 0
            let b: [UInt8]? = added ? nil : base.bytes
            let full = try NoteMerge.merge(base: b, ours: ours.bytes, theirs: theirs.bytes)
            guard let plain = NoteMerge.merge(base: b, ours: ours.bytes, theirs: theirs.bytes, rules: PlainFrontMatterRules())
            else { unanswered += 1; continue }
            answered += 1
            if plain.remote != nil { overlapped += 1 }
            #expect(plain == full, "seed \(seed)")
        }
        // Both kinds occur, so the comparison is not vacuous.
        #expect(answered > 1000 && unanswered > 300 && overlapped > 50,
                "answered \(answered), unanswered \(unanswered), overlapped \(overlapped)")
    }

    /// Both sides added one key at different places: the lines merge cleanly into a block with the
    /// key twice, which is no valid front-matter; the plain rules must not take it (Sheaf's merge
    /// goes key by key, which they leave to a parser).
    @Test func aKeyBothSidesAddedAtDifferentPlacesIsNotTakenFromTheLines() throws {
        let base = Array("---\ntitle: T\na: 1\nb: 2\nc: 3\n---\nbody\n".utf8)
        let ours = Array("---\nstatus: x\ntitle: T\na: 1\nb: 2\nc: 3\n---\nbody\n".utf8)
        let theirs = Array("---\ntitle: T\na: 1\nb: 2\nc: 3\nstatus: y\n---\nbody\n".utf8)
        let full = try NoteMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(full.conflictingKeys == ["status"])
        #expect(NoteMerge.merge(base: base, ours: ours, theirs: theirs, rules: PlainFrontMatterRules()) == nil)
        let same = Array("---\ntitle: T\na: 1\nb: 2\nc: 3\nstatus: x\n---\nbody\n".utf8)
        #expect(NoteMerge.merge(base: base, ours: ours, theirs: same, rules: PlainFrontMatterRules()) == nil)
    }
}
