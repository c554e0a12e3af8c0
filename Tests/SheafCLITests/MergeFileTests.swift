// `sheaf merge-file` next to `git merge-file`, and `sheaf install-merge-driver` under plain git.
import Foundation
import Testing
import TestSupport

@Suite struct MergeFileTests {
    /// Random line edits of a text without front-matter.
    static func edit(_ lines: [String], _ rng: inout SeededRandom, tag: String) -> [String] {
        var out = lines
        for n in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0...2, using: &rng) {
            case 0: out.insert("\(tag) inserted \(n)", at: Int.random(in: 0...out.count, using: &rng))
            case 1 where !out.isEmpty: out[Int.random(in: 0..<out.count, using: &rng)] = "\(tag) changed \(n)"
            default: if out.count > 1 { out.remove(at: Int.random(in: 0..<out.count, using: &rng)) }
            }
        }
        return out
    }

    @Test func agreesWithGitWheneverGitMergesCleanly() {
        let temp = TempDir()
        var rng = SeededRandom(seed: 20261121)
        var clean = 0
        for round in 0..<40 {
            let base = (0..<Int.random(in: 3...14, using: &rng)).map { "line \($0) of round \(round)" }
            let ours = Self.edit(base, &rng, tag: "ours"), theirs = Self.edit(base, &rng, tag: "theirs")
            for (name, lines) in [("base.md", base), ("ours.md", ours), ("theirs.md", theirs)] {
                CLI.write(lines.map { $0 + "\n" }.joined(), to: temp.path + "/" + name)
            }
            let git = runProcess("/usr/bin/git", ["merge-file", "-p", "ours.md", "base.md", "theirs.md"], in: temp.path)
            let sheaf = CLI.run(["merge-file", "base.md", "ours.md", "theirs.md"], in: temp.path)
            #expect(!hasConflictMarkers(sheaf.stdout))
            if git.status == 0 {
                clean += 1
                #expect(sheaf.status == 0)
                #expect(sheaf.stdout == git.stdout, "round \(round)")
            } else {
                #expect(sheaf.status == 1)
            }
        }
        #expect(clean > 10, "the sample has clean merges to compare")
    }

    @Test func appendsToOneYAMLListMergeCleanly() {
        let temp = TempDir()
        CLI.write("---\ntitle: Trip\ntags:\n  - travel\n---\nbody\n", to: temp.path + "/base.md")
        CLI.write("---\ntitle: Trip\ntags:\n  - travel\n  - lisbon\n---\nbody\n", to: temp.path + "/ours.md")
        CLI.write("---\ntitle: Trip\ntags:\n  - travel\n  - food\n---\nbody\n", to: temp.path + "/theirs.md")
        #expect(runProcess("/usr/bin/git", ["merge-file", "-p", "ours.md", "base.md", "theirs.md"], in: temp.path).status != 0,
            "git alone conflicts here")
        let sheaf = CLI.run(["merge-file", "base.md", "ours.md", "theirs.md", "-o", "out.md"], in: temp.path)
        #expect(sheaf.status == 0)
        #expect(CLI.read(temp.path + "/out.md") == "---\ntitle: Trip\ntags:\n  - travel\n  - lisbon\n  - food\n---\nbody\n")
        #expect(CLI.read(temp.path + "/ours.md").hasSuffix("  - lisbon\n---\nbody\n"), "inputs untouched")
    }

    @Test func overlapExitsOneAndWritesTheRemoteSide() {
        let temp = TempDir()
        CLI.write("a\nb\nc\n", to: temp.path + "/base.md")
        CLI.write("a\nb ours\nc\n", to: temp.path + "/ours.md")
        CLI.write("a\nb theirs\nc\n", to: temp.path + "/theirs.md")
        let sheaf = CLI.run(["merge-file", "base.md", "ours.md", "theirs.md", "--conflict-out", "remote.md"], in: temp.path)
        #expect(sheaf.status == 1)
        #expect(sheaf.stdout == "a\nb ours\nc\n")
        #expect(CLI.read(temp.path + "/remote.md").hasSuffix("---\na\nb theirs\nc\n"))
        #expect(CLI.read(temp.path + "/remote.md").contains("conflict-of: ours.md"))
    }

    @Test func plainGitMergeUsesTheInstalledDriver() {
        let r = Replicas(1, samples: false)
        #expect(CLI.run(["install-merge-driver"], in: r[0]).status == 0)
        r.git(0, ["checkout", "-q", "-b", "side"])
        r.write(0, "Start.md", "# Start\n\nfirst line, side\n")
        r.git(0, ["commit", "-qam", "side"])
        r.git(0, ["checkout", "-q", "main"])
        r.write(0, "Start.md", "# Start\n\nfirst line, main\n")
        r.git(0, ["commit", "-qam", "main"])
        let merge = r.git(0, ["merge", "side"])
        #expect(merge.status != 0, "git marks the path conflicted")
        let note = r.file(0, "Start.md")
        #expect(note == "# Start\n\nfirst line, main\n")
        #expect(!hasConflictMarkers(note))
        let conflicts = r.conflictFiles(0)
        #expect(conflicts.count == 1)
        #expect(conflicts.first.map { r.file(0, $0).contains("first line, side") } ?? false)
    }
}
