// A hostile remote commit that arrives as a real merge (the vault has commits of its own): the
// merge refuses what the fast-forward refuses, merges the rest, and later syncs never read the
// refused entries' absence as local deletions of them or of the notes that came beside them.
import Foundation
import TestSupport
import Testing

@Suite struct HostileMergeTests {
    static let hostile: [(path: String, content: String)] = [
        ("../x.md", "x"), ("x/../..", "y"), (".git/hooks/post-merge", "#!/bin/sh\n"), (".GIT/config", "[core]\n"),
    ]

    static func remoteTree(_ r: Replicas) -> [String] {
        Replicas.git(["ls-tree", "-r", "--name-only", "main"], in: r.bare).stdout.split(separator: "\n").map(String.init)
    }

    @Test func aHostileCommitMergedIntoLocalCommitsIsRefusedAndItsNoteIsNeverDeletedLater() {
        let r = Replicas(2, samples: false)
        r.write(1, "Local.md", "# Local\n")
        #expect(CLI.run(["commit"], in: r[1]).status == 0)
        plantCommit(in: r.bare, Self.hostile + [("Remote note.md", "# Remote note\n")])
        // The other device takes it as a fast-forward (and pushes nothing yet): later merges
        // between the two then have the hostile commit itself as their base.
        #expect(CLI.run(["pull"], in: r[0]).status == 0)
        #expect(r.file(0, "Remote note.md") == "# Remote note\n")

        let merged = r.sync(1)
        #expect(merged.status == 0, "\(merged.stderr)")
        for entry in Self.hostile {
            #expect(merged.stderr.contains("unsafe path from the remote: \(entry.path)"), "\(entry.path): \(merged.stderr)")
        }
        #expect(r.file(1, "Remote note.md") == "# Remote note\n")
        #expect(CLI.read(r[1] + "/.git/hooks/post-merge").isEmpty && CLI.read(r[1] + "/.git/config").contains("bare = false"))
        #expect(Self.remoteTree(r).contains("Remote note.md") && Self.remoteTree(r).contains("Local.md"))
        #expect(!Self.remoteTree(r).contains { $0.contains("..") || $0.lowercased().hasPrefix(".git") })

        // The remote moves on (the other device, then the attacker again) and both vaults sync
        // on: the note that came with the refused entries stays everywhere.
        r.write(0, "Later.md", "# Later\n")
        let second = r.sync(0)
        #expect(second.status == 0, "\(second.stderr)")
        plantCommit(in: r.bare, [("../x.md", "x again"), ("Other.md", "# Other\n")])
        r.edit(1, "Local.md") { $0 + "more\n" }
        #expect(r.sync(1).status == 0)
        r.edit(0, "Later.md") { $0 + "more\n" }
        #expect(r.sync(0).status == 0)
        #expect(r.sync(1).status == 0)
        for name in ["Remote note.md", "Local.md", "Later.md", "Other.md"] {
            #expect(Self.remoteTree(r).contains(name), "\(name): \(Self.remoteTree(r))")
            #expect(FileManager.default.fileExists(atPath: r[0] + "/" + name) && FileManager.default.fileExists(atPath: r[1] + "/" + name), "\(name)")
        }
        #expect(r.file(0, "Remote note.md") == "# Remote note\n")
    }

    /// A remote that turns a note both vaults hold into a symlink out of the vault: the change is
    /// refused, and the note stays (it was left out of the commit moved to, so the pull deleted it
    /// here and the push everywhere).
    @Test func aNoteTheRemoteTurnsIntoAHostileSymlinkStaysAsItWas() {
        let r = Replicas(2, samples: false)
        r.write(0, "Budget.md", "# Budget\n")
        r.syncAll()
        for localCommit in [false, true] {
            if localCommit {
                r.write(1, "Local.md", "# Local\n")
                #expect(CLI.run(["commit"], in: r[1]).status == 0)
            }
            plantCommit(in: r.bare, [], symlinks: [("Budget.md", "../../../etc/passwd")])
            let pulled = r.sync(1)
            #expect(pulled.status == 0, "\(pulled.stderr)")
            #expect(pulled.stderr.contains("unsafe path from the remote: Budget.md"), "\(pulled.stderr)")
            #expect(r.file(1, "Budget.md") == "# Budget\n", "local commit \(localCommit)")
            #expect(Self.remoteTree(r).contains("Budget.md"), "local commit \(localCommit)")
            #expect(Replicas.git(["cat-file", "-p", "main:Budget.md"], in: r.bare).stdout == "# Budget\n")
        }
    }

    /// A remote commit that moves a note onto a path Sheaf refuses: the move is refused whole,
    /// and the note stays where it was (taken as a deletion beside a refused addition, it left the
    /// vault and the push deleted it everywhere), on a fast-forward and on a merge.
    @Test func aNoteTheRemoteMovesOntoAnUnsafePathStaysWhereItWas() {
        let r = Replicas(2, samples: false)
        let text = "# Budget\n\nrent: 500\nfood: 300\n"
        r.write(0, "Budget.md", text)
        r.write(0, "Plan.md", "# Plan\n\nfly on Monday\n")
        r.syncAll()
        for (name, target, localCommit) in [("Budget.md", ".git/Budget.md", false), ("Plan.md", "../Plan.md", true)] {
            if localCommit {
                r.write(1, "Local.md", "# Local\n")
                #expect(CLI.run(["commit"], in: r[1]).status == 0)
            }
            plantCommit(in: r.bare, [(target, r.file(1, name))], removing: [name])
            let pulled = r.sync(1)
            #expect(pulled.status == 0, "\(pulled.stderr)")
            #expect(pulled.stderr.contains("unsafe path from the remote: \(target)"), "\(pulled.stderr)")
            #expect(FileManager.default.fileExists(atPath: r[1] + "/" + name), "\(name)")
            #expect(Self.remoteTree(r).contains(name), "\(name): \(Self.remoteTree(r))")
        }
        #expect(r.file(1, "Budget.md") == text)
    }
}
