// `sheaf merge-file` next to `git merge-file`, and `sheaf install-merge-driver` under plain git.
import Foundation
import Testing
import TestSupport

@Suite struct MergeFileTests {
    /// git's merge driver executable, built beside `sheaf`.
    static let driver = (CLI.binary as NSString).deletingLastPathComponent + "/sheaf-merge-file"
    static let longName = String(repeating: "n", count: 247) + ".md"

    /// A folder holding the small driver and no `sheaf`: run it with PATH set to the folder.
    static func driverAlone(in temp: TempDir) throws -> String {
        let bin = temp.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // A hard link, not a copy: a copy's write descriptor, inherited by a process another test
        // starts meanwhile, made the exec fail with ETXTBSY (status 126) now and then.
        if link(driver, bin + "/sheaf-merge-file") != 0 {
            try FileManager.default.copyItem(atPath: driver, toPath: bin + "/sheaf-merge-file")
        }
        return bin
    }

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

    /// Later-wins held for every key whose values were dates: a publish `date:` both sides
    /// changed, the body in conflict too, lost the local side's earlier date from the note and
    /// the conflict file alike. Both drivers keep each side's date on its side.
    @Test func bothDriversKeepEachSidesPublishDateWhenTheBodyAlsoConflicts() {
        let temp = TempDir()
        func note(_ date: String, _ body: String) -> String { "---\ntitle: T\ndate: \(date)\n---\n\(body)\n" }
        for program in [Self.driver, CLI.binary] {
            let dir = temp.path + "/" + (program as NSString).lastPathComponent
            CLI.write(note("2026-01-01", "draft"), to: dir + "/base.md")
            CLI.write(note("2026-02-01", "local text"), to: dir + "/ours.md")
            CLI.write(note("2026-03-01", "remote text"), to: dir + "/theirs.md")
            let arguments = ["base.md", "ours.md", "theirs.md", "--conflict-out", "remote.md"]
            let r = runProcess(program, program == CLI.binary ? ["merge-file"] + arguments : arguments, in: dir)
            #expect(r.status == 1, "\(program): \(r.stderr)")
            #expect(r.stdout == note("2026-02-01", "local text"), "\(program)")
            let remote = CLI.read(dir + "/remote.md")
            #expect(remote.contains("date: 2026-03-01\n") && remote.contains("remote text"), "\(program): \(remote)")
        }
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

    /// `sheaf-merge-file` gives what `sheaf merge-file` gives (output, conflict file, exit code,
    /// messages) on every shape of input: plain front-matter it merges alone, and what it hands
    /// to `sheaf` (a nested mapping, an overlap with a conflict file, a key-by-key merge, an
    /// unreadable input, an option it does not know).
    @Test func sheafMergeFileGivesWhatSheafMergeFileGives() {
        let temp = TempDir()
        let plain = "---\ntitle: Trip\ntags: [travel]\nstatus: draft\n---\n# Trip\n\none\ntwo\nthree\n"
        let cases: [(name: String, base: String, ours: String, theirs: String, options: [String])] = [
            ("clean body", plain, plain.replacingOccurrences(of: "one", with: "ONE"),
             plain.replacingOccurrences(of: "three", with: "THREE"), []),
            ("front-matter lines", plain, plain.replacingOccurrences(of: "title: Trip", with: "title: Lisbon"),
             plain.replacingOccurrences(of: "status: draft", with: "status: done"), []),
            ("to a file", plain, plain.replacingOccurrences(of: "one", with: "ONE"),
             plain.replacingOccurrences(of: "tags: [travel]", with: "tags: [travel, food]"), ["-o", "out.md"]),
            ("overlap to stdout", plain, plain.replacingOccurrences(of: "two", with: "ours"),
             plain.replacingOccurrences(of: "two", with: "theirs"), []),
            ("overlap with a conflict file", plain, plain.replacingOccurrences(of: "two", with: "ours"),
             plain.replacingOccurrences(of: "two", with: "theirs"), ["--conflict-out", "remote.md"]),
            ("key by key", plain, plain.replacingOccurrences(of: "tags: [travel]", with: "tags: [travel, a]"),
             plain.replacingOccurrences(of: "tags: [travel]", with: "tags: [travel, b]"), []),
            ("nested mapping", "---\nmeta:\n  a: 1\n---\nx\n", "---\nmeta:\n  a: 1\n---\nx\ny\n",
             "---\nmeta:\n  a: 2\n---\nx\n", []),
            ("CRLF and BOM", "\u{FEFF}a\r\nb\r\nc\r\n", "\u{FEFF}a\r\nB\r\nc\r\n", "a\nb\nc\nd\n", []),
            ("binary", "a\u{0}b", "a\u{0}c", "a\u{0}d", []),
            ("unknown option", plain, plain, plain, ["--no-such-option"]),
            // Values ArgumentParser refuses (found by review: the driver took them).
            ("a value like an option", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain, ["-o", "-x.md"]),
            ("an empty driver path", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain, ["--driver-path="]),
            ("a driver path like an option", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain,
             ["--driver-path", "-n.md"]),
            ("a conflict file like an option", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain,
             ["--conflict-out", "-c.md"]),
            ("a one-letter output", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain, ["-o", "x"]),
            ("a 250-byte output name", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain, ["-o", Self.longName]),
            ("an NFD output name", plain, plain.replacingOccurrences(of: "one", with: "ONE"), plain, ["-o", "cafe\u{301}.md"]),
            ("missing input", plain, plain, plain, ["missing.md"]),
        ]
        for c in cases {
            var results: [RunResult] = [], written: [[String]] = []
            for program in [Self.driver, CLI.binary] {
                let dir = temp.path + "/\(c.name)/\((program as NSString).lastPathComponent)"
                CLI.write(c.base, to: dir + "/base.md")
                CLI.write(c.ours, to: dir + "/ours.md")
                CLI.write(c.theirs, to: dir + "/theirs.md")
                let paths = c.name == "missing input" ? ["base.md", "ours.md", "missing.md"] : ["base.md", "ours.md", "theirs.md"]
                let options = c.name == "missing input" ? [] : c.options
                let arguments = program == CLI.binary ? ["merge-file"] + paths + options : paths + options
                results.append(runProcess(program, arguments, in: dir))
                written.append(["ours.md", "out.md", "remote.md", "x", "-x.md", Self.longName, "cafe\u{301}.md"]
                    .map { CLI.read(dir + "/" + $0) })
            }
            #expect(results[0].status == results[1].status, "\(c.name): \(results[0].stderr) / \(results[1].stderr)")
            #expect(results[0].stdout == results[1].stdout, "\(c.name)")
            #expect(results[0].stderr == results[1].stderr, "\(c.name)")
            #expect(written[0] == written[1], "\(c.name)")
        }
    }

    /// A FIFO given as an input: `sheaf merge-file` refuses it, and the small driver waited on it
    /// for a writer (it opened the file before checking what it is).
    @Test func aFIFOGivenAsAnInputIsRefusedByBothNotWaitedOn() {
        let temp = TempDir()
        CLI.write("a\nb\n", to: temp.path + "/base.md")
        CLI.write("a\nB\n", to: temp.path + "/ours.md")
        #expect(mkfifo(temp.path + "/theirs.md", 0o644) == 0)
        var results: [RunResult] = []
        for (program, first) in [(Self.driver, [String]()), (CLI.binary, ["merge-file"])] {
            let run = runProcess("/usr/bin/timeout", ["60", program] + first + ["base.md", "ours.md", "theirs.md"], in: temp.path)
            #expect(run.status != 124, "\(program) waited on the FIFO")
            results.append(run)
        }
        #expect(results[0].status == 2)
        #expect(results[0].status == results[1].status)
        #expect(results[0].stderr == results[1].stderr, "\(results[0].stderr) / \(results[1].stderr)")
        #expect(CLI.read(temp.path + "/ours.md") == "a\nB\n")
    }

    /// As git's merge driver: `install-merge-driver` registers `sheaf-merge-file` when it is
    /// beside `sheaf`; plain `git merge` then merges a note git alone conflicts on (both sides
    /// added a line at its end, and changed two front-matter keys), and an overlap still gets its
    /// conflict file.
    @Test func plainGitMergeRunsTheSmallDriverAndAnOverlapGetsItsConflictFile() {
        let r = Replicas(1, samples: false)
        let install = CLI.run(["install-merge-driver"], in: r[0])
        #expect(install.status == 0)
        #expect(r.git(0, ["config", "merge.sheaf.driver"]).stdout.contains("sheaf-merge-file' --driver-path"))
        let trip = "---\ntitle: Trip\ntags: [a]\nstatus: draft\n---\nbody\n"
        r.write(0, "Trip.md", trip)
        r.write(0, "Start.md", "# Start\n\nfirst line\n")
        r.git(0, ["add", "-A"])
        r.git(0, ["commit", "-qm", "base"])
        r.git(0, ["checkout", "-q", "-b", "side"])
        r.write(0, "Trip.md", trip.replacingOccurrences(of: "draft", with: "done") + "side line\n")
        r.write(0, "Start.md", "# Start\n\nfirst line, side\n")
        r.git(0, ["commit", "-qam", "side"])
        r.git(0, ["checkout", "-q", "main"])
        r.write(0, "Trip.md", trip.replacingOccurrences(of: "title: Trip", with: "title: Lisbon") + "main line\n")
        r.write(0, "Start.md", "# Start\n\nfirst line, main\n")
        r.git(0, ["commit", "-qam", "main"])
        let merge = r.git(0, ["merge", "side"])
        #expect(merge.status != 0, "Start.md overlaps")
        #expect(r.file(0, "Trip.md") == "---\ntitle: Lisbon\ntags: [a]\nstatus: done\n---\nbody\nmain line\nside line\n")
        #expect(!r.git(0, ["diff", "--name-only", "--diff-filter=U"]).stdout.contains("Trip.md"))
        #expect(r.file(0, "Start.md") == "# Start\n\nfirst line, main\n")
        let conflicts = r.conflictFiles(0)
        #expect(conflicts.count == 1)
        #expect(conflicts.first.map { r.file(0, $0).contains("first line, side") } ?? false)
    }

    /// Regression, "a note whose path starts with a dash failed git's merge driver": registered as
    /// `--driver-path %P`, the path `-dash.md` read as an option, both drivers refused it, and
    /// git left a conflict on a merge of two additions. Registered joined (`--driver-path=%P`),
    /// it merges.
    @Test func aNoteWhosePathStartsWithADashMergesThroughGitsDriver() {
        let r = Replicas(1, samples: false)
        #expect(CLI.run(["install-merge-driver"], in: r[0]).status == 0)
        #expect(r.git(0, ["config", "merge.sheaf.driver"]).stdout.contains("--driver-path=%P"))
        let note = "---\ntitle: Dash\nstatus: draft\n---\nbody\n"
        r.write(0, "-dash.md", note)
        r.git(0, ["add", "-A"])
        r.git(0, ["commit", "-qm", "base"])
        r.git(0, ["checkout", "-q", "-b", "side"])
        r.write(0, "-dash.md", note.replacingOccurrences(of: "draft", with: "done") + "side line\n")
        r.git(0, ["commit", "-qam", "side"])
        r.git(0, ["checkout", "-q", "main"])
        r.write(0, "-dash.md", note + "main line\n")
        r.git(0, ["commit", "-qam", "main"])
        let merge = r.git(0, ["merge", "side"])
        #expect(merge.status == 0, "\(merge.stdout) \(merge.stderr)")
        #expect(r.file(0, "-dash.md") == "---\ntitle: Dash\nstatus: done\n---\nbody\nmain line\nside line\n")
    }

    /// Without `sheaf` beside it or on PATH, what needs `sheaf` fails with a message naming it,
    /// and the inputs are untouched.
    @Test func theSmallDriverWithoutSheafSaysSo() throws {
        let temp = TempDir()
        let bin = try Self.driverAlone(in: temp)
        // A nested mapping: its reading needs a YAML parser, so `sheaf`.
        CLI.write("---\nmeta:\n  a: 1\n---\na\nb\nc\n", to: temp.path + "/base.md")
        CLI.write("---\nmeta:\n  a: 1\n---\na\nb ours\nc\n", to: temp.path + "/ours.md")
        CLI.write("---\nmeta:\n  a: 1\n---\na\nb theirs\nc\n", to: temp.path + "/theirs.md")
        let r = runProcess(bin + "/sheaf-merge-file", ["base.md", "ours.md", "theirs.md", "--conflict-out", "remote.md"],
                           in: temp.path, environment: ["PATH": bin])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("sheaf: cannot run: sheaf\n"), "\(r.stderr)")
        #expect(CLI.read(temp.path + "/ours.md") == "---\nmeta:\n  a: 1\n---\na\nb ours\nc\n")
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/remote.md"))
        // What it merges alone needs no `sheaf`.
        let clean = runProcess(bin + "/sheaf-merge-file", ["base.md", "ours.md", "base.md"], in: temp.path, environment: ["PATH": bin])
        #expect(clean.status == 0)
        #expect(clean.stdout == "---\nmeta:\n  a: 1\n---\na\nb ours\nc\n")
    }

    /// Regression (review): `sheaf merge-file -o out.md` wrote its temporary file in the file
    /// system's root (`/.sheaf-tmp-...`, then a rename), so for a user who cannot write there
    /// every merge to a bare name failed, git's merge driver among them (git passes `%A` as a
    /// bare `.merge_file_XXXXXX`); `-o x` crashed. Both executables, as an unprivileged user.
    @Test func aBareOutputNameIsWrittenBesideItNotInTheFileSystemRoot() throws {
        let temp = TempDir()
        chmod(temp.path, 0o777)
        CLI.write("a\nb\nc\nd\ne\n", to: temp.path + "/base.md")
        CLI.write("A\nb\nc\nd\ne\n", to: temp.path + "/ours.md")
        CLI.write("a\nb\nc\nd\nE\n", to: temp.path + "/theirs.md")
        let asNobody = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        for (program, first) in [(CLI.binary, ["merge-file"]), (Self.driver, [])] {
            for output in ["out.md", "x"] {
                unlink(temp.path + "/" + output)
                let command = [program] + first + ["base.md", "ours.md", "theirs.md", "-o", output]
                let r = asNobody
                    ? runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + command, in: temp.path)
                    : runProcess(command[0], Array(command.dropFirst()), in: temp.path)
                #expect(r.status == 0, "\(command): \(r.stderr)")
                #expect(CLI.read(temp.path + "/" + output) == "A\nb\nc\nd\nE\n", "\(command)")
            }
        }
    }

    /// A reader that goes away (`| head`) ends both quietly with 0, as every command
    /// (docs/exit-codes.md): `sheaf merge-file` crashed in Foundation's FileHandle on EPIPE.
    @Test func aClosedPipeEndsTheMergeQuietly() {
        let temp = TempDir()
        let long = (0..<20_000).map { "line \($0) of a long note\n" }.joined()
        CLI.write(long, to: temp.path + "/base.md")
        CLI.write("changed\n" + long, to: temp.path + "/ours.md")
        CLI.write(long + "appended\n", to: temp.path + "/theirs.md")
        for command in ["\"$SHEAF\" merge-file", "\"$DRIVER\""] {
            let r = runProcess("/bin/bash", ["-c", "set -o pipefail; \(command) base.md ours.md theirs.md | head -c 10 >/dev/null"],
                               in: temp.path, environment: ["SHEAF": CLI.binary, "DRIVER": Self.driver])
            #expect(r.status == 0, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(command): \(r.stderr)")
        }
    }
}
