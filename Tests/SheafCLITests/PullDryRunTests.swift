// Issue 13, item 4: `sheaf pull --dry-run [--json]` fetches and prints what a pull would do to
// each path, and changes nothing: no commit, no file, the branch where it was.
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct PullDryRunTests {
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func outcomes(_ json: [String: Any]) -> [String] {
        let paths = ((json["pull"] as? [String: Any])?["paths"] as? [[String: Any]]) ?? []
        return paths.map { "\($0["kind"] as? String ?? "?") \($0["path"] as? String ?? "?")" }.sorted()
    }

    @Test func aDryRunShowsEachPathsOutcomeAndChangesNothing() {
        let r = Replicas(2, samples: false)
        r.write(0, "Other.md", "# Other\n\nkept\n")
        r.write(0, "Gone.md", "# Gone\n")
        r.syncAll()
        // The remote side: an overlapping edit, a new note, a deleted one, an edit of another.
        r.edit(0, "Start.md") { $0.replacingOccurrences(of: "first line", with: "first line, remote") }
        r.write(0, "New.md", "# New\n")
        try? FileManager.default.removeItem(atPath: r[0] + "/Gone.md")
        r.edit(0, "Other.md") { $0 + "remote line\n" }
        #expect(r.sync(0).status == 0)
        // The local side, committed, and one change left uncommitted.
        r.edit(1, "Start.md") { $0.replacingOccurrences(of: "first line", with: "first line, local") }
        r.edit(1, "Other.md") { "local line\n" + $0 }
        #expect(CLI.run(["commit"], in: r[1]).status == 0)
        r.write(1, "Draft.md", "# Draft\n")

        let head = r.git(1, ["rev-parse", "HEAD"]).stdout
        let status = r.git(1, ["status", "--porcelain"]).stdout
        let files = r.tracked(1)
        let preview = CLI.run(["pull", "--dry-run", "--json"], in: r[1])
        #expect(preview.status == 0, "\(preview.stderr)")
        let json = Self.object(preview.stdout)
        #expect(json["dryRun"] as? Bool == true)
        #expect((json["pull"] as? [String: Any])?["result"] as? String == "merged")
        #expect(Self.outcomes(json) == ["added New.md", "conflict Start.md", "deleted Gone.md", "merged Other.md"])
        #expect(json["uncommitted"] as? [String] == ["Draft.md"])
        // Nothing changed: same commit, same status, same files, no conflict file.
        #expect(r.git(1, ["rev-parse", "HEAD"]).stdout == head)
        #expect(r.git(1, ["status", "--porcelain"]).stdout == status)
        #expect(r.tracked(1) == files)

        let text = CLI.run(["pull", "--dry-run"], in: r[1])
        #expect(text.status == 0 && text.stdout.contains("conflict") && text.stdout.contains("dry run"))
        #expect(text.stderr.contains("Draft.md"))

        // The pull itself does what the preview said.
        try? FileManager.default.removeItem(atPath: r[1] + "/Draft.md")
        let pulled = CLI.run(["pull", "--json"], in: r[1])
        #expect(pulled.status == 1)
        #expect(Self.outcomes(Self.object(pulled.stdout)) == Self.outcomes(json))
    }

    /// Issue 23, item 4: with an uncommitted edit overlapping a remote one, the preview said
    /// "would fast-forward 2 paths"; the pull (which commits first) then wrote a conflict file and
    /// exited 1. The preview merges the uncommitted work as the pull will.
    @Test func aDryRunIncludesUncommittedWorkAsThePullWill() {
        let r = Replicas(2, samples: false)
        r.edit(0, "Start.md") { $0.replacingOccurrences(of: "first line", with: "first line, remote") }
        r.write(0, "New.md", "# New\n")
        #expect(r.sync(0).status == 0)
        r.edit(1, "Start.md") { $0.replacingOccurrences(of: "first line", with: "first line, uncommitted") }
        let head = r.git(1, ["rev-parse", "HEAD"]).stdout
        let status = r.git(1, ["status", "--porcelain"]).stdout
        let index = CLI.read(r[1] + "/.git/index")

        let preview = CLI.run(["pull", "--dry-run", "--json"], in: r[1])
        #expect(preview.status == 0, "\(preview.stderr)")
        let json = Self.object(preview.stdout)
        #expect((json["pull"] as? [String: Any])?["result"] as? String == "merged")
        #expect(Self.outcomes(json) == ["added New.md", "conflict Start.md"])
        #expect(json["uncommitted"] as? [String] == ["Start.md"])
        let text = CLI.run(["pull", "--dry-run"], in: r[1])
        #expect(text.stdout.contains("a pull would merge 2 paths"), "\(text.stdout)")
        #expect(text.stderr.contains("this preview includes it"), "\(text.stderr)")
        // Nothing changed, not even git's index.
        #expect(r.git(1, ["rev-parse", "HEAD"]).stdout == head)
        #expect(r.git(1, ["status", "--porcelain"]).stdout == status)
        #expect(CLI.read(r[1] + "/.git/index") == index)
        #expect(r.conflictFiles(1).isEmpty)

        let pulled = CLI.run(["pull", "--json"], in: r[1])
        #expect(pulled.status == 1)
        #expect(Self.outcomes(Self.object(pulled.stdout)) == Self.outcomes(json))
    }

    /// The preview's commit of uncommitted work meets the names an unlucky vault holds: NFD, 250
    /// bytes, not UTF-8 (left out with a warning, as the commit leaves it out). Nothing changes.
    @Test func aDryRunWithUncommittedOddNamesChangesNothing() throws {
        let r = Replicas(2, samples: false)
        r.write(0, "New.md", "# New\n")
        #expect(r.sync(0).status == 0)
        r.write(1, "Cafe\u{301}.md", "# NFD\n")
        r.write(1, String(repeating: "n", count: 247) + ".md", "# long\n")
        ByteName.write("# Latin-1 name\n", name: Array("caf".utf8) + [0xE9] + Array(".md".utf8), in: r[1])
        let status = r.git(1, ["status", "--porcelain"]).stdout
        let preview = CLI.run(["pull", "--dry-run", "--json"], in: r[1])
        #expect(preview.status == 0, "\(preview.stderr)")
        let uncommitted = Self.object(preview.stdout)["uncommitted"] as? [String] ?? []
        #expect(uncommitted.contains("Cafe\u{301}.md") && uncommitted.contains(String(repeating: "n", count: 247) + ".md"), "\(uncommitted)")
        #expect(r.git(1, ["status", "--porcelain"]).stdout == status)
        #expect(CLI.run(["pull"], in: r[1]).status == 0)
    }

    @Test func aDryRunOfAFastForwardAndOfNothingNew() {
        let r = Replicas(2, samples: false)
        r.write(0, "New.md", "# New\n")
        #expect(r.sync(0).status == 0)
        let head = r.git(1, ["rev-parse", "HEAD"]).stdout
        let preview = Self.object(CLI.run(["pull", "--dry-run", "--json"], in: r[1]).stdout)
        #expect((preview["pull"] as? [String: Any])?["result"] as? String == "fast-forward")
        #expect(Self.outcomes(preview) == ["added New.md"])
        #expect(r.git(1, ["rev-parse", "HEAD"]).stdout == head)
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/New.md"))
        #expect(r.sync(1).status == 0)
        let again = CLI.run(["pull", "--dry-run"], in: r[1])
        #expect(again.status == 0 && again.stdout.contains("already up to date"))
    }

    static func refused(_ json: [String: Any]) -> [String] {
        (((json["pull"] as? [String: Any])?["refused"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }.sorted()
    }

    /// The preview listed what the pull refuses (`..`, `.git/config`, `.sheaf/...`, a symlink out
    /// of the vault, a 300-byte name) as "added", and a gitlink without a word: it now runs the
    /// pull's tree safety, on a fast-forward and on a merge, and says what the pull says.
    @Test func aDryRunRefusesWhatThePullRefuses() {
        let r = Replicas(2, samples: false)
        let long = String(repeating: "x", count: 300) + ".md"
        let rounds: [(entries: [(path: String, content: String)], links: [(path: String, target: String)], refused: [String])] = [
            ([("..", "x"), (".git/config", "[core]\n"), (".sheaf/config.toml", "device = \"evil\"\n"), (long, "long"), ("Fine.md", "# Fine\n")],
             [("leak.md", "../../../etc/passwd")], ["..", ".git/config", ".sheaf/config.toml", "leak.md", long]),
            ([("a/../../b.md", "x"), (".GIT/hooks/post-merge", "#!/bin/sh\n"), ("Fine 2.md", "# Fine 2\n")],
             [("out.md", "/etc/passwd")], [".GIT/hooks/post-merge", "a/../../b.md", "out.md"]),
        ]
        for (round, planted) in rounds.enumerated() {
            if round == 1 {
                r.write(1, "Local.md", "# Local\n")
                #expect(CLI.run(["commit"], in: r[1]).status == 0)
            }
            plantCommit(in: r.bare, planted.entries, symlinks: planted.links, gitlinks: round == 0 ? ["vendor/lib"] : [])
            let head = r.git(1, ["rev-parse", "HEAD"]).stdout
            let preview = CLI.run(["pull", "--dry-run", "--json"], in: r[1])
            #expect(preview.status == 0, "\(preview.stderr)")
            let json = Self.object(preview.stdout)
            #expect((json["pull"] as? [String: Any])?["result"] as? String == (round == 0 ? "fast-forward" : "merged"))
            #expect(Self.refused(json) == planted.refused.sorted(), "round \(round)")
            #expect(!Self.outcomes(json).contains { line in planted.refused.contains { line.hasSuffix(" " + $0) } }, "\(Self.outcomes(json))")
            #expect((json["pull"] as? [String: Any])?["submodules"] as? [String] == (round == 0 ? ["vendor/lib"] : []))
            let text = CLI.run(["pull", "--dry-run"], in: r[1])
            #expect(text.stderr.contains("unsafe path from the remote: \(planted.refused[0])"), "\(text.stderr)")
            #expect(!text.stdout.contains(planted.refused[0]), "\(text.stdout)")
            #expect(r.git(1, ["rev-parse", "HEAD"]).stdout == head)

            let pulled = Self.object(CLI.run(["sync", "--json"], in: r[1]).stdout)
            #expect(Self.refused(pulled) == Self.refused(json), "round \(round)")
            #expect(Self.outcomes(pulled) == Self.outcomes(json), "round \(round)")
        }
    }
}
