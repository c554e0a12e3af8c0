// The commands on vaults whose file names Swift's String cannot tell apart or cannot hold:
// `café.md` in NFC beside `café.md` in NFD, `bad\xFF.md` beside `bad\u{FFFD}.md`, and a
// folder chain deeper than libgit2's status limit. Names are made from bytes with open(2).
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PathBytesCLITests {
    static let nfc = "caf\u{E9}.md", nfd = "cafe\u{301}.md"

    /// A vault with no notes yet.
    static func emptyVault(_ temp: TempDir) -> String {
        let vault = temp.path + "/vault"
        try! FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: false)
        let r = CLI.run(["init"], in: vault)
        precondition(r.status == 0, r.stderr)
        return vault
    }

    /// `git ls-tree -r -z HEAD` names as byte strings.
    static func committed(_ vault: String) -> Set<[UInt8]> {
        let r = runProcess("/usr/bin/git", ["-C", vault, "ls-tree", "-r", "-z", "--name-only", "HEAD"], in: vault)
        return Set(r.output.split(separator: 0).map { Array($0) })
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
        ByteName.write("# Composed\n\nnfcword\n", name: Array(Self.nfc.utf8), in: vault)
        ByteName.write("# Decomposed\n\nnfdword\n", name: Array(Self.nfd.utf8), in: vault)
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
        #expect(ByteName.read(name: Array(Self.nfd.utf8), in: vault)?.contains("accent") == true)
        #expect(ByteName.read(name: Array(Self.nfc.utf8), in: vault) == "# Composed\n\nnfcword\n")
        let commit = CLI.run(["commit"], in: vault)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(Self.committed(vault).isSuperset(of: [Array(Self.nfc.utf8), Array(Self.nfd.utf8)]))
        #expect(CLI.run(["tags"], in: vault).status == 0)
    }

    /// Both twins travel through a sync and arrive as two files with their own bytes.
    @Test func nfcAndNfdTwinNamesSync() throws {
        let replicas = Replicas(2, samples: false)
        ByteName.write("composed\n", name: Array(Self.nfc.utf8), in: replicas[0])
        ByteName.write("decomposed\n", name: Array(Self.nfd.utf8), in: replicas[0])
        let pushed = replicas.sync(0)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let pulled = replicas.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(ByteName.read(name: Array(Self.nfc.utf8), in: replicas[1]) == "composed\n")
        #expect(ByteName.read(name: Array(Self.nfd.utf8), in: replicas[1]) == "decomposed\n")
        // An edit of one twin on the other side comes back to that twin only, through a
        // three-way tree merge (both sides have new commits).
        ByteName.write("decomposed, edited\n", name: Array(Self.nfd.utf8), in: replicas[1])
        #expect(replicas.sync(1).status == 0)
        ByteName.write("local\n", name: Array("local.md".utf8), in: replicas[0])
        let merged = replicas.sync(0)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(ByteName.read(name: Array(Self.nfd.utf8), in: replicas[0]) == "decomposed, edited\n")
        #expect(ByteName.read(name: Array(Self.nfc.utf8), in: replicas[0]) == "composed\n")
        let search = CLI.run(["search", "edited"], in: replicas[0])
        #expect(Self.holds(search.stdout, Self.nfd) && !Self.holds(search.stdout, Self.nfc), "\(search.stderr)")
    }

    /// The tree merge kept its paths in String-keyed tables, which compare by canonical
    /// equivalence: the NFD twin another device added was taken for this device's NFC note, and
    /// a three-way merge wrote the NFC note's text into the twin, on every device.
    @Test func aTwinTheRemoteAddsIsNeverMergedWithTheLocalNoteItIsCanonicallyEqualTo() throws {
        let replicas = Replicas(2, samples: false)
        ByteName.write("composed\n", name: Array(Self.nfc.utf8), in: replicas[0])
        #expect(replicas.sync(0).status == 0)
        #expect(replicas.sync(1).status == 0)
        ByteName.write("decomposed twin\n", name: Array(Self.nfd.utf8), in: replicas[1])
        #expect(replicas.sync(1).status == 0)
        ByteName.write("composed, edited here\n", name: Array(Self.nfc.utf8), in: replicas[0])
        ByteName.write("local\n", name: Array("local.md".utf8), in: replicas[0])
        let merged = replicas.sync(0)  // both sides have commits: a three-way tree merge
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(replicas.sync(1).status == 0)
        for replica in [0, 1] {
            #expect(ByteName.read(name: Array(Self.nfc.utf8), in: replicas[replica]) == "composed, edited here\n")
            #expect(ByteName.read(name: Array(Self.nfd.utf8), in: replicas[replica]) == "decomposed twin\n")
        }
    }

    /// Regression: `mv` of one twin rewrote the links to the other twin too: the link resolver
    /// kept one file per String key (the last added: the moved twin) and the moves table was keyed
    /// by String, so `[[café]]` in NFC was pointed at the NFD twin's new place.
    @Test func mvOfOneTwinLeavesTheLinksToTheOtherTwinAlone() throws {
        let temp = TempDir()
        let vault = Self.emptyVault(temp)
        ByteName.write("# Composed\n", name: Array(Self.nfc.utf8), in: vault)
        ByteName.write("# Decomposed\n", name: Array(Self.nfd.utf8), in: vault)
        let links = "# Links\n[[caf\u{E9}]] and [[cafe\u{301}]]\n"
        ByteName.write(links, name: Array("links.md".utf8), in: vault)
        try FileManager.default.createDirectory(atPath: vault + "/Trips", withIntermediateDirectories: false)
        let moved = CLI.run(["mv", Self.nfd, "Trips/"], in: vault)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(ByteName.read(name: Array(("Trips/" + Self.nfd).utf8), in: vault) == "# Decomposed\n")
        #expect(ByteName.read(name: Array(Self.nfd.utf8), in: vault) == nil)
        #expect(ByteName.read(name: Array(Self.nfc.utf8), in: vault) == "# Composed\n")
        let after = ByteName.read(name: Array("links.md".utf8), in: vault) ?? ""
        #expect(Array(after.utf8) == Array("# Links\n[[caf\u{E9}]] and [[Trips/cafe\u{301}|cafe\u{301}]]\n".utf8), "\(after)")
        // Back beside its twin it would make a pair of names one lost on macOS and Windows: refused.
        let back = CLI.run(["mv", "Trips/" + Self.nfd, "/"], in: vault)
        #expect(back.status != 0 && back.stderr.contains("a file is already there"), "\(back.stderr)")
        #expect(ByteName.read(name: Array(("Trips/" + Self.nfd).utf8), in: vault) == "# Decomposed\n")
    }

    /// Regression: `mv` onto the name of a twin (`café.md` in NFD, `note.md` beside `Note.md`)
    /// took the two names for one file renamed in another case, and `rename(2)` replaced the twin.
    @Test func mvOntoATwinsNameRefusesAndNeverReplacesTheTwin() throws {
        let temp = TempDir()
        let vault = Self.emptyVault(temp)
        let pairs = [(Self.nfc, Self.nfd), ("Note.md", "note.md")]
        for (from, to) in pairs {
            ByteName.write("# From \(from)\n", name: Array(from.utf8), in: vault)
            ByteName.write("# Twin \(to)\n", name: Array(to.utf8), in: vault)
        }
        for (from, to) in pairs {
            let moved = CLI.run(["mv", from, to], in: vault)
            #expect(moved.status != 0 && moved.stderr.contains("a file is already there"), "\(moved.stdout)\(moved.stderr)")
            #expect(ByteName.read(name: Array(from.utf8), in: vault) == "# From \(from)\n")
            #expect(ByteName.read(name: Array(to.utf8), in: vault) == "# Twin \(to)\n")
        }
    }

    /// Regression: `mv` of a note to the other Unicode form of its own name said "the note is
    /// already there" (`!=` on Strings); with no twin there, it is a rename like any other.
    @Test func mvToTheOtherUnicodeFormOfItsNameRenamesIt() throws {
        let temp = TempDir()
        let vault = Self.emptyVault(temp)
        ByteName.write("# Composed\n", name: Array(Self.nfc.utf8), in: vault)
        let moved = CLI.run(["mv", Self.nfc, Self.nfd], in: vault)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(ByteName.read(name: Array(Self.nfd.utf8), in: vault) == "# Composed\n")
        #expect(ByteName.read(name: Array(Self.nfc.utf8), in: vault) == nil)
    }

    /// Regression: `resolve` took the conflict files of a note's NFC/NFD twin for the note's own
    /// (`==` on Strings): settling one twin deleted the other's conflict file, the other device's
    /// edit with it, and `status` listed both twins' conflicts under one note.
    @Test func resolvingOneTwinLeavesTheOtherTwinsConflictFileAlone() throws {
        let temp = TempDir()
        let vault = Self.emptyVault(temp)
        for (note, word) in [(Self.nfc, "composed"), (Self.nfd, "decomposed")] {
            let stem = String(note.dropLast(3))
            ByteName.write("# Local \(word)\n", name: Array(note.utf8), in: vault)
            ByteName.write("---\nconflict-of: \(note)\n---\n# Remote \(word)\n",
                           name: Array((stem + ".conflict-20261121-101500-other.md").utf8), in: vault)
        }
        let status = CLI.run(["status"], in: vault)
        let listed = status.stdout.utf8.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: Array("  conflict ".utf8)) }
        #expect(listed.count == 2, "\(status.stdout)")
        let resolved = CLI.run(["resolve", Self.nfc, "--keep", "local"], in: vault)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(ByteName.read(name: Array("caf\u{E9}.conflict-20261121-101500-other.md".utf8), in: vault) == nil)
        #expect(ByteName.read(name: Array("cafe\u{301}.conflict-20261121-101500-other.md".utf8), in: vault)
                == "---\nconflict-of: \(Self.nfd)\n---\n# Remote decomposed\n")
        // The twin's own conflict is settled by naming the twin.
        let other = CLI.run(["resolve", Self.nfd, "--keep", "remote"], in: vault)
        #expect(other.status == 0, "\(other.stderr)")
        let taken = ByteName.read(name: Array(Self.nfd.utf8), in: vault) ?? ""
        #expect(taken.contains("# Remote decomposed") && !taken.contains("conflict-of"), "\(taken)")
        #expect(ByteName.read(name: Array(Self.nfc.utf8), in: vault) == "# Local composed\n")
    }

    /// Regression: the history of a note followed the rename git found with `==` on Strings, so
    /// when one commit renamed two notes to the NFC and NFD twins, `log` of one twin went on with
    /// the other twin's old note.
    @Test func logOfATwinFollowsItsOwnRename() throws {
        let temp = TempDir()
        let vault = Self.emptyVault(temp)
        ByteName.write("# Alpha\n\nthe first note, with words of its own\n", name: Array("alpha.md".utf8), in: vault)
        ByteName.write("# Beta\n\nthe second note, with other words\n", name: Array("beta.md".utf8), in: vault)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        #expect(rename(vault + "/alpha.md", vault + "/" + Self.nfc) == 0)
        #expect(rename(vault + "/beta.md", vault + "/" + Self.nfd) == 0)
        #expect(CLI.run(["commit"], in: vault).status == 0)
        for (twin, old, other) in [(Self.nfc, "alpha.md", "beta.md"), (Self.nfd, "beta.md", "alpha.md")] {
            let log = CLI.run(["log", twin], in: vault)
            #expect(log.status == 0, "\(log.stderr)")
            #expect(log.stdout.contains(old) && !log.stdout.contains(other), "\(log.stdout)")
        }
    }

    /// Regression: `bad\xFF.md` beside `bad\u{FFFD}.md` broke every read command (both were read
    /// as the second), and alone it blocked `commit` for the whole vault.
    @Test func invalidUTF8NameIsNamedAndSkipped() throws {
        let replicas = Replicas(2, samples: false)
        let vault = replicas[0]
        let invalid = Array("bad".utf8) + [0xFF] + Array(".md".utf8)
        ByteName.write("# Raw\n\nrawword\n", name: invalid, in: vault)
        ByteName.write("# Replaced\n\nreplword\n", name: Array("bad\u{FFFD}.md".utf8), in: vault)
        let ls = CLI.run(["ls"], in: vault)
        #expect(ls.status == 0, "\(ls.stderr)")
        #expect(ls.stdout.contains("bad\u{FFFD}.md"))
        #expect(ls.stderr.contains("bad\\xFF.md: the name is not UTF-8"))
        #expect(CLI.run(["ls"], in: vault).status == 0)
        let search = CLI.run(["search", "replword"], in: vault)
        #expect(search.status == 0 && search.stdout.contains("bad\u{FFFD}.md"), "\(search.stderr)")
        // Alone: the rest of the vault commits and syncs, and the file is named.
        try FileManager.default.removeItem(atPath: vault + "/bad\u{FFFD}.md")
        ByteName.write("# Other\n", name: Array("other.md".utf8), in: vault)
        let sync = replicas.sync(0)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("bad\\xFF.md: the name is not UTF-8; not committed"))
        #expect(Self.committed(vault).contains(Array("other.md".utf8)))
        #expect(!Self.committed(vault).contains(invalid))
        let status = CLI.run(["status"], in: vault)
        #expect(status.status == 0 && status.stderr.contains("bad\\xFF.md: the name is not UTF-8"), "\(status.stderr)")
        #expect(replicas.sync(1).status == 0)
        #expect(ByteName.read(name: Array("other.md".utf8), in: replicas[1]) == "# Other\n")
    }

    /// Regression: a folder chain deeper than 100 made `git_status_list_new` fail ("directory
    /// nesting too deep"), so neither `commit` nor `sync` could record anything.
    @Test func folderChainDeeperThan100CommitsAndSyncs() throws {
        let replicas = Replicas(2, samples: false)
        let chain = Array(repeating: "d", count: 101).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: replicas[0] + "/" + chain, withIntermediateDirectories: true)
        ByteName.write("# Deep\n\ndeepword\n", name: Array((chain + "/deep.md").utf8), in: replicas[0])
        ByteName.write("# Top\n", name: Array("top.md".utf8), in: replicas[0])
        let commit = CLI.run(["commit"], in: replicas[0])
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(Self.committed(replicas[0]).isSuperset(of: [Array("top.md".utf8), Array((chain + "/deep.md").utf8)]))
        let status = CLI.run(["status"], in: replicas[0])
        #expect(status.status == 0 && status.stdout.contains("no uncommitted changes"), "\(status.stdout)\(status.stderr)")
        #expect(replicas.sync(0).status == 0)
        let pulled = replicas.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(ByteName.read(name: Array((chain + "/deep.md").utf8), in: replicas[1]) == "# Deep\n\ndeepword\n")
        #expect(CLI.run(["search", "deepword"], in: replicas[1]).stdout.contains("deep.md"))
    }
}
