// The commands on vaults whose file names Swift's String cannot tell apart or cannot hold:
// `café.md` in NFC beside `café.md` in NFD, `bad\xFF.md` beside `bad\u{FFFD}.md`, and a
// folder chain deeper than libgit2's status limit. Names are made from bytes with open(2).
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PathBytesCLITests {
    static let nfc = "caf\u{E9}.md", nfd = "cafe\u{301}.md"

    /// Writes `text` to the file named exactly `name` (bytes) in `folder`.
    static func write(_ text: String, name: [UInt8], in folder: String) {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        precondition(fd >= 0, "open failed")
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }

    /// The bytes of a file named exactly `name` in `folder`, nil when there is none.
    static func read(name: [UInt8], in folder: String) -> String? {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { p in p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
    }

    /// `git ls-tree -r -z HEAD` names as byte strings.
    static func committed(_ vault: String) -> Set<[UInt8]> {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = ["-C", vault, "ls-tree", "-r", "-z", "--name-only", "HEAD"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try! p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Set(data.split(separator: 0).map { Array($0) })
    }

    /// Whether a UTF-8 text holds `path` with exactly these bytes (not a canonical twin).
    static func holds(_ text: String, _ path: String) -> Bool {
        text.utf8.split(separator: UInt8(ascii: "\n")).contains { line in
            line.firstRange(of: Array(path.utf8)) != nil
        }
    }

    /// Regression: every read command failed with `UNIQUE constraint failed: notes.path` once a
    /// vault held `café.md` in NFC and in NFD.
    @Test func nfcAndNfdTwinNamesWorkInEveryCommand() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        Self.write("# Composed\n\nnfcword\n", name: Array(Self.nfc.utf8), in: vault)
        Self.write("# Decomposed\n\nnfdword\n", name: Array(Self.nfd.utf8), in: vault)
        for _ in 0..<2 {  // the first scan fills the index, the second compared with it
            let ls = CLI.run(["ls", "--json"], in: vault)
            #expect(ls.status == 0, "\(ls.stderr)")
            #expect(Self.holds(ls.stdout, Self.nfc) && Self.holds(ls.stdout, Self.nfd))
        }
        let search = CLI.run(["search", "nfdword"], in: vault)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(Self.holds(search.stdout, Self.nfd) && !Self.holds(search.stdout, Self.nfc))
        // Named by its exact bytes, each twin is itself.
        let showNFD = CLI.run(["show", Self.nfd], in: vault)
        #expect(showNFD.status == 0 && showNFD.stdout.contains("nfdword"), "\(showNFD.stderr)")
        let showNFC = CLI.run(["show", Self.nfc], in: vault)
        #expect(showNFC.status == 0 && showNFC.stdout.contains("nfcword"), "\(showNFC.stderr)")
        // A writer on one twin leaves the other alone.
        #expect(CLI.run(["tags", "add", Self.nfd, "accent"], in: vault).status == 0)
        #expect(Self.read(name: Array(Self.nfd.utf8), in: vault)?.contains("accent") == true)
        #expect(Self.read(name: Array(Self.nfc.utf8), in: vault) == "# Composed\n\nnfcword\n")
        let commit = CLI.run(["commit"], in: vault)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(Self.committed(vault).isSuperset(of: [Array(Self.nfc.utf8), Array(Self.nfd.utf8)]))
        #expect(CLI.run(["tags"], in: vault).status == 0)
    }

    /// Both twins travel through a sync and arrive as two files with their own bytes.
    @Test func nfcAndNfdTwinNamesSync() throws {
        let replicas = Replicas(2, samples: false)
        Self.write("composed\n", name: Array(Self.nfc.utf8), in: replicas[0])
        Self.write("decomposed\n", name: Array(Self.nfd.utf8), in: replicas[0])
        let pushed = replicas.sync(0)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let pulled = replicas.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(Self.read(name: Array(Self.nfc.utf8), in: replicas[1]) == "composed\n")
        #expect(Self.read(name: Array(Self.nfd.utf8), in: replicas[1]) == "decomposed\n")
        // An edit of one twin on the other side comes back to that twin only, through a
        // three-way tree merge (both sides have new commits).
        Self.write("decomposed, edited\n", name: Array(Self.nfd.utf8), in: replicas[1])
        #expect(replicas.sync(1).status == 0)
        Self.write("local\n", name: Array("local.md".utf8), in: replicas[0])
        let merged = replicas.sync(0)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(Self.read(name: Array(Self.nfd.utf8), in: replicas[0]) == "decomposed, edited\n")
        #expect(Self.read(name: Array(Self.nfc.utf8), in: replicas[0]) == "composed\n")
        let search = CLI.run(["search", "edited"], in: replicas[0])
        #expect(Self.holds(search.stdout, Self.nfd) && !Self.holds(search.stdout, Self.nfc), "\(search.stderr)")
    }

    /// Regression: `bad\xFF.md` beside `bad\u{FFFD}.md` broke every read command (both were read
    /// as the second), and alone it blocked `commit` for the whole vault.
    @Test func invalidUTF8NameIsNamedAndSkipped() throws {
        let replicas = Replicas(2, samples: false)
        let vault = replicas[0]
        let invalid = Array("bad".utf8) + [0xFF] + Array(".md".utf8)
        Self.write("# Raw\n\nrawword\n", name: invalid, in: vault)
        Self.write("# Replaced\n\nreplword\n", name: Array("bad\u{FFFD}.md".utf8), in: vault)
        let ls = CLI.run(["ls"], in: vault)
        #expect(ls.status == 0, "\(ls.stderr)")
        #expect(ls.stdout.contains("bad\u{FFFD}.md"))
        #expect(ls.stderr.contains("bad\\xFF.md: the name is not UTF-8"))
        #expect(CLI.run(["ls"], in: vault).status == 0)
        let search = CLI.run(["search", "replword"], in: vault)
        #expect(search.status == 0 && search.stdout.contains("bad\u{FFFD}.md"), "\(search.stderr)")
        // Alone: the rest of the vault commits and syncs, and the file is named.
        try FileManager.default.removeItem(atPath: vault + "/bad\u{FFFD}.md")
        Self.write("# Other\n", name: Array("other.md".utf8), in: vault)
        let sync = replicas.sync(0)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("bad\\xFF.md: the name is not UTF-8; not committed"))
        #expect(Self.committed(vault).contains(Array("other.md".utf8)))
        #expect(!Self.committed(vault).contains(invalid))
        let status = CLI.run(["status"], in: vault)
        #expect(status.status == 0 && status.stderr.contains("bad\\xFF.md: the name is not UTF-8"), "\(status.stderr)")
        #expect(replicas.sync(1).status == 0)
        #expect(Self.read(name: Array("other.md".utf8), in: replicas[1]) == "# Other\n")
    }

    /// Regression: a folder chain deeper than 100 made `git_status_list_new` fail ("directory
    /// nesting too deep"), so neither `commit` nor `sync` could record anything.
    @Test func folderChainDeeperThan100CommitsAndSyncs() throws {
        let replicas = Replicas(2, samples: false)
        let chain = Array(repeating: "d", count: 101).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: replicas[0] + "/" + chain, withIntermediateDirectories: true)
        Self.write("# Deep\n\ndeepword\n", name: Array((chain + "/deep.md").utf8), in: replicas[0])
        Self.write("# Top\n", name: Array("top.md".utf8), in: replicas[0])
        let commit = CLI.run(["commit"], in: replicas[0])
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(Self.committed(replicas[0]).isSuperset(of: [Array("top.md".utf8), Array((chain + "/deep.md").utf8)]))
        let status = CLI.run(["status"], in: replicas[0])
        #expect(status.status == 0 && status.stdout.contains("no uncommitted changes"), "\(status.stdout)\(status.stderr)")
        #expect(replicas.sync(0).status == 0)
        let pulled = replicas.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(Self.read(name: Array((chain + "/deep.md").utf8), in: replicas[1]) == "# Deep\n\ndeepword\n")
        #expect(CLI.run(["search", "deepword"], in: replicas[1]).stdout.contains("deep.md"))
    }
}
