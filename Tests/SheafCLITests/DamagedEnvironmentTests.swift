// `.sheaf/` on a full disk and on a read-only mount, for real: a 2 MB tmpfs filled up, and a
// read-only bind mount (chmod does not stop root, who runs the suite). Mounting needs root;
// the tests are skipped without it.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The vault's `.sheaf/` moved onto a mount, undone (contents kept) when the test ends.
final class SheafMount {
    let vault: String
    private(set) var mounted = false

    /// `.sheaf/` on a tmpfs of `size`, holding a copy of what it held.
    init(tmpfs size: String, vault: String) {
        self.vault = vault
        let r = CLI.sh("mv .sheaf .sheaf-disk && mkdir .sheaf && mount -t tmpfs -o size=\(size) tmpfs .sheaf && cp -a .sheaf-disk/. .sheaf/", in: vault)
        mounted = r.status == 0
        precondition(mounted, r.stderr)
    }

    /// `.sheaf/` bound over itself read-only.
    init(readOnly vault: String) {
        self.vault = vault
        let r = CLI.sh("mount --bind .sheaf .sheaf && mount -o remount,ro,bind .sheaf", in: vault)
        mounted = r.status == 0
        precondition(mounted, r.stderr)
    }

    deinit {
        if CLI.sh("umount .sheaf", in: vault).status != 0 { CLI.sh("umount -l .sheaf", in: vault) }
        CLI.sh("if [ -d .sheaf-disk ]; then rm -rf .sheaf && mv .sheaf-disk .sheaf; fi", in: vault)
    }
}

@Suite(.enabled(if: geteuid() == 0, "mounting needs root"))
struct DamagedEnvironmentTests {
    static func indexedVault(_ temp: TempDir) -> String {
        let vault = CLI.sampleVault(temp)
        CLI.write("# Known\n\nthe periwinkle word\n", to: vault + "/Known.md")
        precondition(CLI.run(["index"], in: vault).status == 0)
        return vault
    }

    static func indexSize(_ vault: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: vault + "/.sheaf/index.sqlite"))?[.size] as? Int) ?? -1
    }

    /// Regression: on a full disk the index was deleted (an I/O error taken for corruption)
    /// and commands printed raw SQLite errors. Now nothing is deleted, `sheaf index` fails with
    /// a clear message, and read commands answer from the index as it is, with a warning.
    @Test func aFullDiskNeverDeletesTheIndexAndSaysSo() {
        let temp = TempDir()
        let vault = Self.indexedVault(temp)
        let mount = SheafMount(tmpfs: "2m", vault: vault)
        CLI.sh("dd if=/dev/zero of=.sheaf/filler bs=16k 2>/dev/null; sync", in: vault)
        let body = (0..<4000).map { "zebrafish line \($0) with words to index\n" }.joined()
        CLI.write("# Fish\n\n" + body, to: vault + "/Fish.md")
        let size = Self.indexSize(vault)
        #expect(size > 0)

        let search = CLI.run(["search", "--paths", "periwinkle"], in: vault)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("Known.md"))
        #expect(search.stderr.contains("sheaf: cannot write the index: "), "\(search.stderr)")
        #expect(search.stderr.contains("the disk is full"))
        #expect(search.stderr.contains("answering from the index as it is"))
        #expect(!search.stderr.contains("SQLite error"))

        for arguments in [["index"], ["index", "--rebuild"]] {
            let index = CLI.run(arguments, in: vault)
            #expect(index.status == 2, "\(arguments): \(index.stderr)")
            #expect(index.stderr.contains("sheaf: cannot write the index: "), "\(index.stderr)")
            #expect(index.stderr.contains("the disk is full"))
            #expect(!index.stderr.contains("SQLite error"))
            #expect(Self.indexSize(vault) == size, "\(arguments) changed or deleted the index")
            #expect(!FileManager.default.fileExists(atPath: vault + "/.sheaf/index.sqlite.building"))
        }
        #expect(CLI.run(["search", "--paths", "periwinkle"], in: vault).stdout.contains("Known.md"))

        // Space again: the next command catches up.
        CLI.sh("rm .sheaf/filler", in: vault)
        #expect(CLI.run(["index"], in: vault).status == 0)
        #expect(CLI.run(["search", "--paths", "zebrafish"], in: vault).stdout.contains("Fish.md"))
        withExtendedLifetime(mount) {}
    }

    /// Regression: on a read-only `.sheaf/` a search said another command was updating the
    /// index, then failed with a raw SQLite error after trying to delete the index. Now read
    /// commands answer from the index with a warning; `sheaf index` fails saying why.
    @Test func aReadOnlySheafFolderIsReportedAndReadCommandsStillAnswer() {
        let temp = TempDir()
        let vault = Self.indexedVault(temp)
        let size = Self.indexSize(vault)
        let mount = SheafMount(readOnly: vault)
        CLI.write("# Later\n\nwritten after the mount\n", to: vault + "/Later.md")

        for arguments in [["search", "--paths", "periwinkle"], ["ls"]] {
            let read = CLI.run(arguments, in: vault)
            #expect(read.status == 0, "\(arguments): \(read.stderr)")
            #expect(read.stdout.contains("Known.md"))
            #expect(read.stderr.contains("sheaf: cannot write the index: "), "\(read.stderr)")
            #expect(read.stderr.contains("read-only"))
            #expect(!read.stderr.contains("another sheaf command"))
            #expect(!read.stderr.contains("SQLite error"))
        }
        for arguments in [["index"], ["index", "--rebuild"]] {
            let index = CLI.run(arguments, in: vault)
            #expect(index.status == 2, "\(arguments): \(index.stderr)")
            #expect(index.stderr.contains("sheaf: cannot write the index: "), "\(index.stderr)")
            #expect(index.stderr.contains("read-only"))
            #expect(!index.stderr.contains("SQLite error"))
        }
        #expect(Self.indexSize(vault) == size)
        withExtendedLifetime(mount) {}
    }
}
