// git's merge driver on an overlap: the small driver (`sheaf-merge-file`) writes the note and its
// conflict file itself, and gives what `sheaf merge-file` gives, file for file and byte for byte,
// with the same message and exit code. Run as git runs a driver: in the work tree's root, with
// `--driver-path=%P %O %A %B`, the result replacing %A.
import Foundation
import Testing
import TestSupport

@Suite struct MergeDriverConflictFileTests {
    /// What one run left: exit code, stderr and every file of the work tree (conflict-file stamps,
    /// the second the merge ran, replaced by `S`).
    struct Outcome: Equatable {
        var status: Int32
        var stderr: String
        var files: [String: Data]
    }

    static func masked(_ text: String) -> String {
        text.replacingOccurrences(of: #"\.conflict-[0-9]{8}-[0-9]{6}-"#, with: ".conflict-S-", options: .regularExpression)
    }

    static func run(_ program: String, path: String, sides: (String, String, String), in dir: String,
                    environment: [String: String] = [:]) -> Outcome {
        try? FileManager.default.createDirectory(atPath: dir + "/" + (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        CLI.write(sides.0, to: dir + "/.merge_file_O")
        CLI.write(sides.1, to: dir + "/.merge_file_A")
        CLI.write(sides.2, to: dir + "/.merge_file_B")
        let first = program == CLI.binary ? ["merge-file"] : []
        let r = runProcess(program, first + ["--driver-path", path, ".merge_file_O", ".merge_file_A", ".merge_file_B"],
                           in: dir, environment: environment)
        var files: [String: Data] = [:]
        for file in FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? [] {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir + "/" + file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[masked(file)] = FileManager.default.contents(atPath: dir + "/" + file)
        }
        return Outcome(status: r.status, stderr: masked(r.stderr), files: files)
    }

    /// Regression: on an overlap git's driver needed all of `sheaf` (~22 ms, half the real
    /// merges of the benchmark corpus) to write the conflict file; without `sheaf` beside it or
    /// on PATH the driver failed ("cannot run: sheaf"). It writes the file itself now.
    @Test func theSmallDriverWritesAnOverlapsConflictFileWithoutSheaf() throws {
        let temp = TempDir()
        let bin = try MergeFileTests.driverAlone(in: temp)
        let base = "---\ntitle: Budget\ntags: [money]\n---\nrent: 500\nfood: 200\n"
        let sides = (base, base.replacingOccurrences(of: "500", with: "480"), base.replacingOccurrences(of: "500", with: "550"))
        let alone = Self.run(bin + "/sheaf-merge-file", path: "Home/Budget.md", sides: sides, in: temp.path + "/alone",
                             environment: ["PATH": bin])
        let sheaf = Self.run(CLI.binary, path: "Home/Budget.md", sides: sides, in: temp.path + "/sheaf")
        #expect(alone.status == 1, "\(alone.stderr)")
        #expect(alone == sheaf)
        let conflict = alone.files["Home/Budget.conflict-S-git-merge.md"].map { String(decoding: $0, as: UTF8.self) }
        #expect(conflict?.hasPrefix("---\ntitle: Budget\ntags: [money]\nconflict-of: Home/Budget.md\nid: ") == true)
        #expect(conflict?.hasSuffix("---\nrent: 550\nfood: 200\n") == true)
        #expect(alone.files[".merge_file_A"] == Data(sides.1.utf8))
    }

    /// A seeded corpus of everyday notes (plain front-matter, lists, comments, CRLF, a BOM, odd
    /// paths), each side editing the body and the front-matter, many overlapping: both
    /// executables leave the same files, messages and exit codes, and the small driver merges
    /// most of them alone (SHEAF_MERGE_FILE_TRACE says when it hands one over).
    @Test func bothDriversGiveTheSameFilesOnAGeneratedCorpus() {
        let temp = TempDir()
        var rng = SeededRandom(seed: 2811)
        var overlaps = 0, handedOver = 0
        let cases = 60
        for n in 0..<cases {
            let (path, sides) = Self.generated(&rng)
            let small = Self.run(MergeFileTests.driver, path: path, sides: sides, in: temp.path + "/\(n)/driver",
                                 environment: ["SHEAF_MERGE_FILE_TRACE": "1"])
            let sheaf = Self.run(CLI.binary, path: path, sides: sides, in: temp.path + "/\(n)/sheaf")
            let handed = small.stderr.hasPrefix("sheaf-merge-file: handing over: ")
            if handed { handedOver += 1 }
            var compared = small
            if handed { compared.stderr = String(small.stderr.drop { $0 != "\n" }.dropFirst()) }
            #expect(compared == sheaf, "case \(n) at \(path): \(sides)")
            if sheaf.status == 1 && !handed { overlaps += 1 }
        }
        // Not vacuous: overlaps the small driver wrote alone, and most cases merged without `sheaf`
        // (what it hands over here: both sides adding a key at the block's end, which merges key
        // by key, and remote sides that already hold `id`).
        #expect(overlaps >= 5, "overlaps written by the small driver: \(overlaps)")
        #expect(handedOver * 2 < cases, "handed over \(handedOver) of \(cases)")
    }

    static func generated(_ rng: inout SeededRandom) -> (String, (String, String, String)) {
        let paths = ["Trip.md", "Notes/Budget.md", "Notes/a: b.md", "Daily/2026-05-02.md", "Ünï/日本.markdown", "#tag.md"]
        let words = ["alpha", "beta", "café", "日本語", "plain words", "\"quoted\"", "42", "[a, b]"]
        func word() -> String { words.randomElement(using: &rng)! }
        var head = ["title: \(word())", "status: draft", "tags: [a, b]"]
        if Bool.random(using: &rng) { head += ["aliases:", "  - one", "  - two"] }
        if Bool.random(using: &rng) { head.insert("# a comment", at: 1) }
        if Int.random(in: 0..<4, using: &rng) == 0 { head += ["id: 12", "conflict-of: Other.md"] }
        let body = (0..<Int.random(in: 3...8, using: &rng)).map { "line \($0) \(word())" }
        let hasHead = Int.random(in: 0..<5, using: &rng) != 0
        func render(_ head: [String], _ body: [String]) -> String {
            (hasHead ? "---\n" + head.map { $0 + "\n" }.joined() + "---\n" : "") + body.map { $0 + "\n" }.joined()
        }
        let base = render(head, body)
        func side(_ tag: String) -> String {
            var h = head, b = body
            switch Int.random(in: 0...4, using: &rng) {
            case 0, 4: b[1] = "\(tag) changed line 1"
            case 1: b.append("\(tag) added")
            case 2: h[0] = "title: \(tag)"
            default: b[Int.random(in: 0..<b.count, using: &rng)] = "\(tag) \(word())"
            }
            if Bool.random(using: &rng) { h.append("\(tag)-key: \(word())") }
            return render(h, b)
        }
        var sides = (base, side("ours"), side("theirs"))
        if Int.random(in: 0..<5, using: &rng) == 0 {
            func crlf(_ s: String) -> String { s.replacingOccurrences(of: "\n", with: "\r\n") }
            sides = (crlf(sides.0), crlf(sides.1), crlf(sides.2))
        }
        if Int.random(in: 0..<6, using: &rng) == 0 { sides.2 = "\u{FEFF}" + sides.2 }
        return (paths.randomElement(using: &rng)!, sides)
    }
}

extension MergeDriverConflictFileTests {
    /// Real merges from a public history (Tests/MergeCorpus, MIT-licensed): both drivers give
    /// the same files, messages and exit codes on each, as git runs them.
    @Test func bothDriversGiveTheSameFilesOnRealMerges() throws {
        let temp = TempDir()
        let corpus = CLI.packageRoot.path + "/Tests/MergeCorpus"
        let manifest = try String(contentsOfFile: corpus + "/manifest.tsv", encoding: .utf8)
        var cases = 0
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t").map(String.init)
            func side(_ name: String) -> String { CLI.read(corpus + "/" + fields[0] + "/" + name) }
            let sides = (side("base"), side("ours"), side("theirs"))
            let small = Self.run(MergeFileTests.driver, path: fields[2], sides: sides, in: temp.path + "/\(fields[0])/driver")
            let sheaf = Self.run(CLI.binary, path: fields[2], sides: sides, in: temp.path + "/\(fields[0])/sheaf")
            #expect(small == sheaf, "case \(fields[0]): \(fields[2])")
            cases += 1
        }
        #expect(cases >= 10)
    }
}
