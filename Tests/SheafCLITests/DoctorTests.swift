// `sheaf doctor` on a vault built to hold one of each problem, and on a healthy one.
import Foundation
import TestSupport
import Testing

@Suite struct DoctorTests {
    struct Report: Decodable {
        struct Finding: Decodable, Hashable { let kind: String; let path: String; let line: Int?; let fix: String; let commit: String? }
        let findings: [Finding]
    }

    static let git = "git -c user.name=t -c user.email=t@t"

    @Test func doctorFindsEveryKindOfProblemAndSaysHowToFixIt() throws {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        CLI.write("---\ncover: \"[[gone.jpg]]\"\n---\n# Home\nSee [[Missing]], [[Note#Nope]], [[Note#Real heading]],\n[[Note#^abc]] and [[Note#^zzz]].\n",
                  to: vault + "/Home.md")
        CLI.write("# Note\n## Real heading\nA paragraph ^abc\nBack to [[Home]].\n", to: vault + "/Note.md")
        CLI.write("Nothing links here.\n", to: vault + "/Lonely.md")
        CLI.write("png", to: vault + "/A/pic.png")
        CLI.write("# a\n[[Case]]\n", to: vault + "/A/case.md")
        CLI.write("# b\n[[Home]]\n", to: vault + "/A/Case.md")
        CLI.write("[[Home]]\n", to: vault + "/What?.md")
        CLI.write("[[Home]]\n", to: vault + "/Drafts./x.md")
        CLI.write("{}", to: vault + "/.obsidian/workspace.json")
        #expect(CLI.run(["init"], in: vault).status == 0)
        #expect(CLI.sh("git add -f .obsidian/workspace.json && \(Self.git) commit -qm ws", in: vault).status == 0)
        CLI.write(CLI.read(vault + "/.gitignore") + ".obsidian/workspace.json\n", to: vault + "/.gitignore")
        CLI.write("[[Home]]\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n", to: vault + "/Conf.md")
        #expect(CLI.sh("git add -A && \(Self.git) commit -qm conflict", in: vault).status == 0)
        let commit = CLI.sh("git rev-parse HEAD", in: vault).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let r = CLI.run(["doctor", "--json"], in: vault)
        #expect(r.status == 1, "\(r.stderr)")
        let findings = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8)).findings
        func has(_ kind: String, _ path: String, line: Int? = nil) -> Bool {
            findings.contains { $0.kind == kind && $0.path == path && (line == nil || $0.line == line) }
        }
        #expect(has("broken-link", "Home.md", line: 2))  // the property's cover
        #expect(has("broken-link", "Home.md", line: 5))
        #expect(has("broken-heading", "Home.md", line: 5))
        #expect(has("broken-block", "Home.md", line: 6))
        #expect(findings.filter { $0.kind.hasPrefix("broken") }.count == 4)  // the real heading and block are fine
        #expect(has("orphan-note", "Lonely.md"))
        #expect(!has("orphan-note", "Home.md") && !has("orphan-note", "Note.md"))
        #expect(has("orphan-attachment", "A/pic.png"))
        #expect(has("case-clash", "A/case.md") && has("case-clash", "A/Case.md"))
        #expect(has("unportable-name", "What?.md") && has("unportable-name", "Drafts./x.md"))
        #expect(has("conflict-markers", "Conf.md", line: 2))
        #expect(findings.first { $0.kind == "conflict-markers" }?.commit == commit)
        #expect(has("tracked-but-ignored", ".obsidian/workspace.json"))
        #expect(findings.allSatisfy { !$0.fix.isEmpty })

        let text = CLI.run(["doctor"], in: vault)
        #expect(text.status == 1)
        #expect(text.stdout.contains("Home.md:5  broken-link") && text.stdout.contains("  fix: "))
        // doctor only reads.
        #expect(CLI.sh("git status --porcelain", in: vault).stdout == "")
    }

    @Test func doctorOnAHealthyVaultSaysSoAndExitsZero() {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        CLI.write("# A\n## Part\nSee [[B#Section]] and ![[pic.png]]. ^here\n", to: vault + "/A.md")
        CLI.write("# B\n## Section\nBack to [[A#Part]] and [[A#^here]].\n", to: vault + "/B.md")
        CLI.write("png", to: vault + "/pic.png")
        #expect(CLI.run(["init"], in: vault).status == 0)
        let r = CLI.run(["doctor"], in: vault)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "no problems found\n")
    }

    @Test func doctorUntracksOnlyTheIgnoredFilesNamedAndTouchesNoNote() {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        CLI.write("# A\n[[B]] and [[Missing]]\n", to: vault + "/A.md")
        CLI.write("# B\n[[A]]\n", to: vault + "/B.md")
        CLI.write("{}", to: vault + "/.obsidian/workspace.json")
        CLI.write("{}", to: vault + "/.obsidian/graph.json")
        #expect(CLI.run(["init"], in: vault).status == 0)
        #expect(CLI.sh("git add -f .obsidian && \(Self.git) commit -qm ws", in: vault).status == 0)
        CLI.write(CLI.read(vault + "/.gitignore") + ".obsidian/\n", to: vault + "/.gitignore")
        #expect(CLI.sh("git add .gitignore && \(Self.git) commit -qm ignore", in: vault).status == 0)
        let notes = CLI.snapshot(vault)

        let fixed = CLI.run(["doctor", "--fix"], in: vault)
        #expect(fixed.status == 1)
        #expect(CLI.sh("git ls-files .obsidian", in: vault).stdout == ".obsidian/graph.json\n.obsidian/workspace.json\n")
        #expect(fixed.stdout.contains("sheaf doctor --untrack .obsidian/workspace.json"), "\(fixed.stdout)")
        let unknown = CLI.run(["doctor", "--untrack", "A.md"], in: vault)
        #expect(unknown.status == 2 && unknown.stderr.contains("not a file git tracks although .gitignore ignores it"))

        let r = CLI.run(["doctor", "--untrack", ".obsidian/workspace.json"], in: vault)
        #expect(r.status == 1)  // the broken link and graph.json are still there
        #expect(r.stdout.contains("fixed (commit to record it)"))
        #expect(CLI.sh("git ls-files .obsidian", in: vault).stdout == ".obsidian/graph.json\n")
        #expect(FileManager.default.fileExists(atPath: vault + "/.obsidian/workspace.json"))
        #expect(CLI.snapshot(vault) == notes)
        #expect(CLI.run(["doctor", "--untrack", "./.obsidian/"], in: vault).status == 1)
        #expect(CLI.sh("git ls-files .obsidian", in: vault).stdout == "")
        let again = CLI.run(["doctor", "--json"], in: vault).stdout
        #expect(!again.contains("tracked-but-ignored") && again.contains("broken-link"))
    }

    /// A `.gitignore` that arrived by sync (`Daily/`) made `doctor --fix` untrack the daily notes;
    /// the next sync committed their removal and the other devices deleted them from disk.
    @Test func anIgnoreRuleFromASyncNeverMakesDoctorFixDeleteNotesOnOtherDevices() throws {
        let r = Replicas(2, samples: false)
        for day in ["01", "02"] { r.write(0, "Daily/2026-05-\(day).md", "# 2026-05-\(day)\n") }
        r.syncAll()
        r.write(0, ".gitignore", CLI.read(r[0] + "/.gitignore") + "Daily/\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)

        let doctor = CLI.run(["doctor", "--fix", "--json"], in: r[1])
        #expect(doctor.status == 1)
        let findings = try JSONDecoder().decode(Report.self, from: Data(doctor.stdout.utf8)).findings
        #expect(findings.filter { $0.kind == "tracked-but-ignored" }.map(\.path).sorted() == ["Daily/2026-05-01.md", "Daily/2026-05-02.md"])
        r.edit(1, "Start.md") { $0 + "more\n" }
        #expect(r.sync(1).status == 0)
        #expect(r.sync(0).status == 0)
        let remote = Replicas.git(["ls-tree", "-r", "--name-only", "main"], in: r.bare).stdout
        #expect(remote.contains("Daily/2026-05-01.md") && remote.contains("Daily/2026-05-02.md"), "\(remote)")
        #expect(r.file(0, "Daily/2026-05-01.md") == "# 2026-05-01\n" && r.file(1, "Daily/2026-05-02.md") == "# 2026-05-02\n")
    }

    /// A write killed between its two exchanges leaves the newest save under a hidden temporary
    /// name (VaultFileWriter): the scan keeps such files in `.sheaf/interrupted/`, doctor shows
    /// them there, and both leave those of a Sheaf writing now.
    @Test func doctorShowsTheTemporaryFilesOfAKilledWrite() throws {
        let temp = TempDir()
        let vault = temp.path + "/vault"
        CLI.write("# Home\n", to: vault + "/Home.md")
        #expect(CLI.run(["init"], in: vault).status == 0)
        let gone = Spawn.start("/bin/true", [], in: vault, environment: [:])!
        _ = Spawn.wait(gone)  // a process that has ended: its pid names no writer
        CLI.write("# Home\nsaved just then\n", to: vault + "/Trips/.sheaf-tmp-\(gone)-12345")
        CLI.write("in flight\n", to: vault + "/.sheaf-tmp-\(getpid())-6789")  // this process is alive
        let r = CLI.run(["doctor", "--json"], in: vault)
        let findings = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8)).findings.filter { $0.kind == "interrupted-write" }
        #expect(findings.count == 1 && findings.allSatisfy { $0.path.hasPrefix(".sheaf/interrupted/") && $0.path.hasSuffix("/Trips/.sheaf-tmp-\(gone)-12345") }, "\(r.stdout)")
        #expect(findings.first.map { CLI.read(vault + "/" + $0.path) } == "# Home\nsaved just then\n")
        #expect(FileManager.default.fileExists(atPath: vault + "/.sheaf-tmp-\(getpid())-6789"))
    }
}
