// Sheaf's line merge (`Diff3`, pure Swift) held to the real `git merge-file`, spawned: seeded
// note-like texts (repeated lines, blank lines, list items, headings; CRLF, no final line break,
// empty files) edited on one or both sides (lines changed, added, removed, moved; the same edit on
// both sides; overlapping and not). Where git merges cleanly Sheaf must too, with git's bytes;
// where git finds overlaps so must Sheaf; the favouring merges (`--ours`, `--theirs`, `--union`)
// and the `diff3` regions must give git's bytes. Seeds 0..<count replay a failure;
// SHEAF_LONG_TESTS=1 runs more of them.
import Foundation
import Testing
import TestSupport
@testable import SheafSync
@testable import SheafText

/// `git merge-file` run on three texts in `folder`.
struct GitMergeFile {
    let folder: String

    /// git's output and exit status (the number of overlaps; 0 when clean).
    func run(_ base: [UInt8], _ ours: [UInt8], _ theirs: [UInt8], _ options: [String] = []) -> (bytes: [UInt8], status: Int32) {
        _ = FileManager.default.createFile(atPath: folder + "/base", contents: Data(base))
        _ = FileManager.default.createFile(atPath: folder + "/ours", contents: Data(ours))
        _ = FileManager.default.createFile(atPath: folder + "/theirs", contents: Data(theirs))
        let r = runProcess("/usr/bin/git", ["merge-file", "-p"] + options + ["ours", "base", "theirs"], in: folder)
        return (Array(r.output), r.status)
    }
}

/// A generator of three related texts shaped like notes.
struct NoteLikeTexts {
    static let vocabulary = ["", "", "- item", "- [ ] todo", "## Heading", "text", "Some words here.", "}",
                             "---", "title: x", "tags: [a, b]", "a", "b", "Another line of prose.", "  indented"]

    var rng: SeededRandom

    mutating func line() -> String {
        if Int.random(in: 0..<3, using: &rng) == 0 { return "line \(Int.random(in: 0..<40, using: &rng))" }
        return Self.vocabulary.randomElement(using: &rng)!
    }

    mutating func lines(_ count: Int) -> [String] { (0..<count).map { _ in line() } }

    /// Up to `edits` edits of `lines`.
    mutating func edit(_ lines: [String], edits: Int) -> [String] {
        var out = lines
        for _ in 0..<Int.random(in: 0...edits, using: &rng) {
            let at = Int.random(in: 0...out.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where at < out.count: out[at] = line()
            case 1: out.insert(contentsOf: self.lines(Int.random(in: 1...3, using: &rng)), at: at)
            case 2 where at < out.count: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...3, using: &rng)))
            case 3: out.append(contentsOf: self.lines(Int.random(in: 1...2, using: &rng)))
            case 4 where at < out.count:
                let moved = out.remove(at: at)
                out.insert(moved, at: Int.random(in: 0...out.count, using: &rng))
            default: out.insert(line(), at: at)
            }
        }
        return out
    }

    static func bytes(_ lines: [String], crlf: Bool, finalBreak: Bool) -> [UInt8] {
        guard !lines.isEmpty else { return [] }
        let end = crlf ? "\r\n" : "\n"
        return Array((lines.joined(separator: end) + (finalBreak ? end : "")).utf8)
    }

    /// Base, ours and theirs.
    mutating func next() -> (base: [UInt8], ours: [UInt8], theirs: [UInt8]) {
        let large = Int.random(in: 0..<20, using: &rng) == 0
        let size = large ? Int.random(in: 100...400, using: &rng) : Int.random(in: 0...20, using: &rng)
        let edits = large ? 40 : 4
        let base = lines(size)
        let ours = edit(base, edits: edits)
        var theirs = edit(base, edits: edits)
        if Int.random(in: 0..<5, using: &rng) == 0 { theirs = edit(ours, edits: 2) }  // the same edit and more
        let crlf = Int.random(in: 0..<6, using: &rng) == 0
        func finalBreak() -> Bool { Int.random(in: 0..<4, using: &rng) != 0 }
        return (Self.bytes(base, crlf: crlf, finalBreak: finalBreak()),
                Self.bytes(ours, crlf: crlf && Int.random(in: 0..<4, using: &rng) != 0, finalBreak: finalBreak()),
                Self.bytes(theirs, crlf: crlf, finalBreak: finalBreak()))
    }
}

@Suite struct LineMergeAgreesWithGitTests {
    static let count = ProcessInfo.processInfo.environment["SHEAF_LONG_TESTS"] == "1" ? 5000 : 150

    /// git's `diff3` output rebuilt from Sheaf's regions (default labels of the files).
    static func diff3Text(_ regions: [Diff3.Region]) -> [UInt8] {
        func withBreak(_ bytes: [UInt8]) -> [UInt8] { bytes.isEmpty || bytes.last == 10 ? bytes : bytes + [10] }
        var out: [UInt8] = []
        for region in regions {
            switch region {
            case .settled(let bytes): out += bytes
            case let .overlap(base, ours, theirs):
                out += Array("<<<<<<< ours\n".utf8) + withBreak(ours) + Array("||||||| base\n".utf8) + withBreak(base)
                    + Array("=======\n".utf8) + withBreak(theirs) + Array(">>>>>>> theirs\n".utf8)
            }
        }
        return out
    }

    @Test func cleanMergesAreGitsAndOverlapsAreGitsToo() throws {
        let folder = TempDir.make("git-agree")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let git = GitMergeFile(folder: folder)
        var cleanByGit = 0
        for seed in 0..<Self.count {
            var texts = NoteLikeTexts(rng: SeededRandom(seed: seed))
            let (b, o, t) = texts.next()
            let theirs = git.run(b, o, t)
            try #require(theirs.status >= 0 && theirs.status < 128, "git failed on seed \(seed)")
            let ours = Diff3.merge(base: b, ours: o, theirs: t, favor: .none)
            #expect(ours.clean == (theirs.status == 0), "seed \(seed): clean \(ours.clean), git \(theirs.status)")
            if theirs.status == 0 {
                cleanByGit += 1
                #expect(ours.bytes == theirs.bytes, "seed \(seed): clean merges differ")
            }
            for (favor, option) in [(MergeFavor.ours, "--ours"), (.theirs, "--theirs"), (.union, "--union")] {
                let mine = Diff3.mergeAsGitMergeFile(base: b, ours: o, theirs: t, favor: favor)
                #expect(mine.bytes == git.run(b, o, t, [option]).bytes, "seed \(seed): \(option) differs")
            }
            if !(b + o + t).contains(13) {
                let regions = Diff3.regions(base: b, ours: o, theirs: t)
                #expect(Self.diff3Text(regions) == git.run(b, o, t, ["--diff3"]).bytes, "seed \(seed): diff3 differs")
            }
        }
        // The generator must give both kinds, or the test proves little.
        #expect(cleanByGit > Self.count / 5 && cleanByGit < Self.count * 4 / 5, "clean: \(cleanByGit) of \(Self.count)")
    }

    @Test func theSameChangeOnBothSidesIsTakenOnce() {
        let r = Diff3.merge(base: Array("a\nb\nc\n".utf8), ours: Array("a\nB\nc\n".utf8), theirs: Array("a\nB\nc\nd\n".utf8),
                            favor: .none)
        #expect(r.clean && r.bytes == Array("a\nB\nc\nd\n".utf8))
    }

    @Test func overlapsDifferingInFewLinesAreCutToThoseLines() {
        // Both replaced b with three lines that differ only in the middle one: the merge is not
        // clean, and favouring theirs changes only that line.
        let base = Array("a\nb\nz\n".utf8)
        let ours = Array("a\n1\n2\n3\nz\n".utf8), theirs = Array("a\n1\nX\n3\nz\n".utf8)
        #expect(!Diff3.merge(base: base, ours: ours, theirs: theirs, favor: .none).clean)
        #expect(Diff3.merge(base: base, ours: ours, theirs: theirs, favor: .theirs).bytes == theirs)
        #expect(Diff3.merge(base: base, ours: ours, theirs: theirs, favor: .union).bytes == Array("a\n1\n2\nX\n3\nz\n".utf8))
    }
}
