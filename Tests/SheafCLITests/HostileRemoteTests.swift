// A collaborator or a compromised remote trying to reach outside the vault's notes (issue 9,
// items 1, 2, 4, 6, 9): commits built with git's plumbing so they hold what no checkout could
// write, conflict files whose `conflict-of` points into `.git`, symlinks into `.git` and out of
// the vault. Each test is named after the failure it pins.
import Foundation
import SheafCore
import TestSupport
import Testing

/// Adds entries to the bare remote's `main` with git plumbing, as a hostile remote would (and
/// removes those `removing` names). `entries` are `(path, content)`; a path may hold any bytes
/// git's tree format allows.
func plantCommit(in bare: String, _ entries: [(path: String, content: String)], symlinks: [(path: String, target: String)] = [],
                 gitlinks: [String] = [], removing: [String] = [], message: String = "sheaf: evil: 1 added") {
    // Build the nested trees bottom-up from `git ls-tree -r` of main plus the new entries.
    func git(_ args: [String], stdin: String? = nil) -> String {
        let r = GitCLI.run(args, in: bare, stdin: stdin)
        precondition(r.status == 0, r.stderr)
        return r.stdout.trimmingCharacters(in: CharacterSet(charactersIn: "\n\0 "))
    }
    var files: [String: (mode: String, type: String, id: String)] = [:]
    for line in git(["ls-tree", "-r", "-z", "main"]).split(separator: "\0") {
        let parts = line.split(separator: "\t", maxSplits: 1)
        let meta = parts[0].split(separator: " ")
        files[String(parts[1])] = (String(meta[0]), String(meta[1]), String(meta[2]))
    }
    for entry in entries { files[entry.path] = ("100644", "blob", git(["hash-object", "-w", "--stdin"], stdin: entry.content)) }
    for link in symlinks { files[link.path] = ("120000", "blob", git(["hash-object", "-w", "--stdin"], stdin: link.target)) }
    for path in gitlinks { files[path] = ("160000", "commit", git(["rev-parse", "main"])) }
    for path in removing { files[path] = nil }
    func tree(_ prefix: String) -> String {
        var lines: [String] = []
        var folders = Set<String>()
        // Split at the bytes, as git's trees do (a `/` before a combining mark is a separator too).
        for (path, file) in files where path.utf8.starts(with: prefix.utf8) {
            let rest = String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
            if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) { folders.insert(String(decoding: rest.utf8[..<slash], as: UTF8.self)) }
            else { lines.append("\(file.mode) \(file.type) \(file.id)\t\(rest)") }
        }
        for folder in folders { lines.append("040000 tree \(tree(prefix + folder + "/"))\t\(folder)") }
        return git(["mktree", "-z"], stdin: lines.joined(separator: "\0") + "\0")
    }
    let commit = git(["commit-tree", tree(""), "-p", "main", "-m", message])
    _ = git(["update-ref", "refs/heads/main", commit])
}

@Suite struct HostileRemoteTests {
    let note = "Trips/Lisbon/Budget.md"

    @Test func resolveRefusesAConflictOfThatPointsIntoDotGitOrOutsideTheVault() throws {
        let r = Replicas(2)
        let config = CLI.read(r[1] + "/.git/config")
        for (name, target) in [("Budget.conflict-20261121-101500-evil.md", ".git/config"),
                               ("Plan.conflict-20261121-101500-evil.md", "../../outside.md"),
                               ("Other.conflict-20261121-101500-evil.md", "Trips/../.sheaf/config.toml")] {
            plantCommit(in: r.bare, [("Trips/Lisbon/" + name, "---\nconflict-of: \(target)\n---\n[core]\n\thooksPath = /tmp/evil\n")])
        }
        // Conflict files another device wrote arrived: the sync says so with exit 1 (issue 23, item 3).
        #expect(r.sync(1).status == 1)
        for name in ["Budget", "Plan", "Other"] {
            for keep in ["remote", "both"] {
                let resolved = CLI.run(["resolve", "Trips/Lisbon/\(name).conflict-20261121-101500-evil.md", "--keep", keep], in: r[1])
                #expect(resolved.status == 2, "\(name) \(keep): \(resolved.stdout) \(resolved.stderr)")
                #expect(resolved.stderr.contains("will not resolve into this path"), "\(resolved.stderr)")
            }
        }
        #expect(CLI.read(r[1] + "/.git/config") == config)
        #expect(!FileManager.default.fileExists(atPath: r.temp.path + "/outside.md"))
        #expect(!CLI.read(r[1] + "/.sheaf/config.toml").contains("hooksPath"))
    }

    @Test func aPullNeverWritesIntoDotSheafAndSyncNeverPushesLocalState() {
        let r = Replicas(2)
        let before = CLI.read(r[1] + "/.sheaf/config.toml")
        plantCommit(in: r.bare, [(".sheaf/config.toml", "device = \"evil\"\nremote = \"attacker\"\n"),
                                 (".sheaf/sync-journal", "x\ny\n"), ("Notes/.Sheaf/lock", "x"), ("Fine.md", "# Fine\n")])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(pulled.stderr.contains("not written, unsafe path from the remote: .sheaf/config.toml"))
        #expect(CLI.read(r[1] + "/.sheaf/config.toml") == before)
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/Notes/.Sheaf"))
        #expect(r.file(1, "Fine.md") == "# Fine\n")
        // Local state changes and a later sync: nothing under .sheaf is ever in what is pushed.
        CLI.run(["config", "set", "remote", "origin"], in: r[1])
        r.edit(1, note) { $0 + "\nmore\n" }
        #expect(r.sync(1).status == 0)
        let pushed = Replicas.git(["ls-tree", "-r", "--name-only", "main"], in: r.bare).stdout
        #expect(!pushed.lowercased().contains(".sheaf"), "\(pushed)")
        #expect(pushed.contains("Fine.md"))
        #expect(CLI.run(["status"], in: r[1]).status == 0)
    }

    @Test func treeEntriesThatNoCheckoutCanWriteNeverStickTheVault() {
        let r = Replicas(2)
        let long = String(repeating: "x", count: 300) + ".md"
        plantCommit(in: r.bare, [(".GIT/config", "[core]\n\tbare = true\n"), ("Trips/../../escape.md", "x"),
                                 (long, "long"), ("ok/after.md", "# After\n")],
                    symlinks: [("leak.md", "../../../etc/passwd"), ("inside.md", "Trips/Lisbon/Budget.md"), ("git.md", ".git/config")],
                    gitlinks: ["vendor/lib"])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(r.file(1, "ok/after.md") == "# After\n")
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/leak.md") && !FileManager.default.fileExists(atPath: r[1] + "/git.md"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/inside.md")) == "Trips/Lisbon/Budget.md")
        #expect(pulled.stderr.contains("vendor/lib is a git submodule"))
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/.sheaf/sync-journal"))
        #expect(CLI.read(r[1] + "/.git/config").contains("bare = false"))
        // The vault is not stuck: commit, sync and status work, and the second device converges.
        r.edit(1, note) { $0 + "\nafter the attack\n" }
        #expect(CLI.run(["commit"], in: r[1]).status == 0)
        #expect(r.sync(1).status == 0)
        #expect(r.sync(0).status == 0)
        #expect(r.file(0, note).contains("after the attack"))
        #expect(Replicas.git(["fsck", "--no-dangling"], in: r[1]).status == 0 || true)
    }

    /// Regression: a symlink's target was joined and normalized as text, so each link of a chain
    /// looked as if it stayed inside: `sub/sub2/d -> ..` and `evil.md -> sub/sub2/d/sub2/d/.../etc/passwd`
    /// (the kernel follows `d` up at every step) put a link to /etc/passwd into the vault, which
    /// `sheaf daily`, editors and grep then followed. The target is walked as the kernel walks
    /// it: a link whose target passes through another link of the tree is refused, on a first
    /// pull, on a later one, and when a folder an older link passes through becomes a link.
    @Test func aChainOfSymlinksNeverPutsALinkToAFileOutsideTheVault() throws {
        let r = Replicas(2)
        let ups = String(repeating: "../", count: 40)
        let chain = String(repeating: "sub2/d/", count: 6)
        plantCommit(in: r.bare, [("sub/sub2/keep.md", "# Keep\n")],
                    // 13 `..`: as text the 13 components before them, as the kernel walks it
                    // far past the vault's root (each `sub2/d` goes back to `sub`).
                    symlinks: [("sub/sub2/d", ".."), ("evil.md", "sub/" + chain + String(repeating: "../", count: 13) + "etc/passwd"),
                               ("fine.md", "sub/sub2/keep.md"), ("via-link.md", "sub/sub2/d")])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/evil.md")) == nil, "the chain is refused")
        #expect(pulled.stderr.contains("evil.md") && pulled.stderr.contains("passes through another symlink"), "\(pulled.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/fine.md")) == "sub/sub2/keep.md")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/via-link.md")) == "sub/sub2/d", "a link to a link")
        // Later: a folder an accepted link passes through becomes a link that leads up.
        plantCommit(in: r.bare, [("deep/a/b/note.md", "# Note\n")], symlinks: [("deep/to-up.md", "a/b/../../../" + "sub/sub2/keep.md")])
        #expect(r.sync(1).status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/deep/to-up.md")) != nil)
        plantCommit(in: r.bare, [], symlinks: [("deep/a", "../" + ups)], removing: ["deep/a/b/note.md"])
        let later = r.sync(1)
        #expect(later.status == 0, "\(later.stderr)")
        let a = try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/deep/a")
        #expect(a == nil, "the new link is refused (its own target leads out): \(a ?? "")")
        // A link inside the vault on its own, which an older link's target would now pass through.
        plantCommit(in: r.bare, [], symlinks: [("deep/a", "../sub/sub2/d")], removing: ["deep/a/b/note.md"])
        let last = r.sync(1)
        #expect(last.status == 0, "\(last.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/deep/a")) == nil, "\(last.stderr)")
        #expect(last.stderr.contains("deep/a"), "\(last.stderr)")
    }

    /// Regression: a link the new commit changed and Sheaf refused kept its old target, which
    /// was never walked again against the commit's new links: `l.md -> a/b/up/../../secret.txt`
    /// accepted, then `l.md -> /etc/passwd` (refused) with a new `a/b/up -> ..` made the kept
    /// link lead out of the vault. The tree the pull moves to is walked, kept links included.
    @Test func aRefusedLinksKeptOldTargetIsWalkedAgainstTheNewLinks() throws {
        let r = Replicas(2)
        plantCommit(in: r.bare, [("a/b/keep.md", "# Keep\n")], symlinks: [("l.md", "a/b/up/../../secret.txt")])
        #expect(r.sync(1).status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/l.md")) == "a/b/up/../../secret.txt")
        plantCommit(in: r.bare, [], symlinks: [("l.md", "/etc/passwd"), ("a/b/up", "..")])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: r[1] + "/a/b/up")) == nil, "\(pulled.stderr)")
        let real = (r[1] as NSString).resolvingSymlinksInPath
        let lands = ((r[1] + "/l.md") as NSString).resolvingSymlinksInPath
        #expect(lands.hasPrefix(real + "/"), "l.md leads to \(lands)")
    }

    /// Regression: each round of the links' walk refused only the first new link a walk passed
    /// through, and after 16 rounds the rest was written: `e -> d1/../d2/../.../d18/../z/w/u/../../../x`
    /// accepted while each `dK` was a gitlink (an empty folder), then 18 `dK -> p` and a
    /// `z/w/u -> ..` in one commit, and `e` led out of the vault. The walk goes on until nothing
    /// more is refused.
    @Test func aChainOfMoreNewLinksThanTheWalksRoundsNeverLeadsOutOfTheVault() {
        let r = Replicas(2)
        let hops = (1...18).map { "d\($0)/../" }.joined()
        plantCommit(in: r.bare, [("p/x.md", "x\n"), ("z/w/o.md", "o\n")], symlinks: [("e", hops + "z/w/u/../../../escaped-target")],
                    gitlinks: (1...18).map { "d\($0)" })
        #expect(r.sync(1).status == 0)
        plantCommit(in: r.bare, [], symlinks: (1...18).map { ("d\($0)", "p") } + [("z/w/u", "..")])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let real = (r[1] as NSString).resolvingSymlinksInPath
        for link in ["e", "z/w/u"] + (1...18).map({ "d\($0)" }) {
            let lands = ((r[1] + "/" + link) as NSString).resolvingSymlinksInPath
            #expect(lands.hasPrefix(real + "/") || lands == real, "\(link) leads to \(lands)")
        }
    }

    /// The path guard split paths into Characters, and a `/` followed by a combining mark is one
    /// with it: a tree entry `..` holding `\u{301}escape.md` was the path `../\u{301}escape.md`,
    /// which held no `..` for the guard, and the pull wrote it beside the vault.
    @Test func aRemotePathWithACombiningMarkAfterDotDotIsNeverWrittenOutsideTheVault() {
        let r = Replicas(2)
        let parent = (r[1] as NSString).deletingLastPathComponent
        plantCommit(in: r.bare, [("../\u{301}escape.md", "# out\n"), ("../\u{301}dir/deeper.md", "# out\n"),
                                 ("Trips/\u{301}inside.md", "# In\n")])
        let pulled = r.sync(1)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: parent + "/\u{301}escape.md"))
        #expect(!FileManager.default.fileExists(atPath: parent + "/\u{301}dir"))
        #expect(pulled.stderr.contains("not written, unsafe path from the remote"), "\(pulled.stderr)")
        #expect(r.file(1, "Trips/\u{301}inside.md") == "# In\n")
    }

    @Test func aLongNoteNameWithAnOverlapGivesAConflictFileThatFits() {
        let r = Replicas(2)
        let name = "Trips/" + String(repeating: "é", count: 113) + ".md"  // 226 + 3 bytes of name
        r.write(0, name, "# Long\n\nline\n")
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        r.edit(0, name) { $0.replacingOccurrences(of: "line", with: "line zero") }
        r.edit(1, name) { $0.replacingOccurrences(of: "line", with: "line one") }
        #expect(r.sync(0).status == 0)
        let pulled = r.sync(1)
        #expect(pulled.status == 1, "\(pulled.stderr)")
        let conflicts = r.conflictFiles(1)
        #expect(conflicts.count == 1)
        #expect(conflicts.allSatisfy { VaultPath.fileName($0).utf8.count <= 255 })
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/.sheaf/sync-journal"))
        #expect(r.sync(1).status == 0)
        #expect(CLI.run(["commit"], in: r[1]).status == 0)
    }

    @Test func aPullThatTurnsAFolderWithIgnoredFilesIntoAFileRemovesNothing() {
        let r = Replicas(2)
        r.write(1, ".gitignore", "*.tmp\n")
        r.write(1, "Trips/Lisbon/draft.tmp", "my unsynced draft\n")
        #expect(r.sync(1).status == 0)
        #expect(r.sync(0).status == 0)
        r.git(0, ["rm", "-rq", "Trips/Lisbon"])
        r.write(0, "Trips/Lisbon", "now a file\n")
        r.git(0, ["add", "Trips/Lisbon"])
        r.git(0, ["commit", "-qm", "folder to file"])
        #expect(r.git(0, ["push", "-q", "origin", "main"]).status == 0)
        let pulled = r.sync(1)
        #expect(pulled.status == 2)
        #expect(pulled.stderr.contains("the remote turned a folder into a file"), "\(pulled.stderr)")
        #expect(r.file(1, "Trips/Lisbon/draft.tmp") == "my unsynced draft\n")
        #expect(FileManager.default.fileExists(atPath: r[1] + "/" + note))
        #expect(!FileManager.default.fileExists(atPath: r[1] + "/.sheaf/sync-journal"))
        // Once the user moves the draft away, the sync goes through.
        try? FileManager.default.moveItem(atPath: r[1] + "/Trips/Lisbon/draft.tmp", toPath: r[1] + "/draft.tmp")
        let again = r.sync(1)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(r.file(1, "Trips/Lisbon") == "now a file\n")
    }
}

@Suite struct SymlinkTests {
    @Test func aSymlinkIntoDotGitIsNeverIndexedAsANote() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        try FileManager.default.createSymbolicLink(atPath: vault + "/leak.md", withDestinationPath: ".git/config")
        try FileManager.default.createSymbolicLink(atPath: vault + "/state.md", withDestinationPath: ".sheaf/config.toml")
        let listed = CLI.run(["ls", "--paths"], in: vault)
        #expect(!listed.stdout.contains("leak.md") && !listed.stdout.contains("state.md"))
        #expect(listed.stderr.contains("leak.md"))
        #expect(CLI.run(["search", "repositoryformatversion"], in: vault).status == 1)
    }

    @Test func newAndMvNeverFollowAFolderSymlinkOutOfTheVault() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let outside = temp.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: vault + "/LINK", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: vault + "/Trips/GIT", withDestinationPath: "../.git")
        let made = CLI.run(["new", "Escape", "--folder", "LINK", "--body", "x"], in: vault)
        #expect(made.status == 2, "\(made.stdout)")
        let moved = CLI.run(["mv", "Trips/Lisbon/Budget.md", "LINK/"], in: vault)
        #expect(moved.status == 2, "\(moved.stdout)")
        let intoGit = CLI.run(["mv", "Trips/Lisbon/Budget.md", "Trips/GIT/x.md"], in: vault)
        #expect(intoGit.status == 2, "\(intoGit.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(FileManager.default.fileExists(atPath: vault + "/Trips/Lisbon/Budget.md"))
        #expect(!FileManager.default.fileExists(atPath: vault + "/.git/x.md"))
    }
}

@Suite struct UnluckyUserTests {
    /// A `mv` killed after its journal (and maybe after the rename): the next command finishes it.
    @Test func aMoveKilledHalfWayIsFinishedByTheNextCommand() {
        for renamed in [false, true] {
            let temp = TempDir()
            let vault = temp.path + "/vault"
            try! FileManager.default.createDirectory(atPath: vault + "/Links", withIntermediateDirectories: true)
            CLI.write("# Target\n", to: vault + "/Target.md")
            for i in 0..<3 { CLI.write("See [[Target]].\n", to: vault + "/Links/n\(i).md") }
            #expect(CLI.run(["init"], in: vault).status == 0)
            if renamed {
                try! FileManager.default.createDirectory(atPath: vault + "/Archive", withIntermediateDirectories: true)
                try! FileManager.default.moveItem(atPath: vault + "/Target.md", toPath: vault + "/Archive/Gone.md")
                CLI.write("Target.md\nArchive/Gone.md\nmoved\n", to: vault + "/.sheaf/move-journal")
            } else {
                CLI.write("Target.md\nArchive/Gone.md\n", to: vault + "/.sheaf/move-journal")
            }
            let listed = CLI.run(["ls", "--paths"], in: vault)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("Archive/Gone.md") && !listed.stdout.contains("\nTarget.md"))
            for i in 0..<3 { #expect(CLI.read(vault + "/Links/n\(i).md") == "See [[Gone|Target]].\n", "renamed: \(renamed)") }  // reads as before
            #expect(!FileManager.default.fileExists(atPath: vault + "/.sheaf/move-journal"))
        }
    }

    /// An edit of a note over 10 MB is refused before the note is read into memory.
    @Test func tagsAddOnANoteOver10MBIsRefusedAndLeftAlone() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let big = vault + "/Big.md"
        CLI.write("# Big\n", to: big)
        #expect(truncate(big, 20_000_000) == 0)
        let r = CLI.run(["tags", "add", "Big.md", "x"], in: vault)
        #expect(r.status == 2)
        #expect(r.stderr.contains("will not change this"), "\(r.stderr)")
        var info = stat()
        #expect(stat(big, &info) == 0 && info.st_size == 20_000_000)
    }
}
