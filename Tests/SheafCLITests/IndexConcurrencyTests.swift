// Commands that share `.sheaf/index.sqlite` at the same time: a writer waits for the lock, and a
// read command never sees a half-built index.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct IndexConcurrencyTests {
    /// A vault of `count` notes, each with the word "lantern" and its own number.
    static func bigVault(_ temp: TempDir, count: Int) -> String {
        let vault = temp.path + "/vault"
        for i in 0..<count {
            CLI.write("# Note \(i)\n\nlantern number\(i) " + String(repeating: "filler words of a body ", count: 20) + "\n",
                      to: vault + "/folder\(i % 10)/note\(i).md")
        }
        // Last in path order: the last note a build writes.
        CLI.write("# Beacon\n\nthe unique beacon word\n", to: vault + "/zzz/Beacon.md")
        precondition(CLI.run(["init"], in: vault).status == 0)
        return vault
    }

    /// Regression: `sheaf index` exited 2 ("try again when it is done") when a read command was
    /// scanning; it waits for the lock instead. The holder here is util-linux `flock` on the
    /// same lock file, released when the test says so.
    @Test func indexWaitsForTheLockInsteadOfFailing() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let go = temp.path + "/go"
        let holder = try #require(Spawn.start("/usr/bin/flock", [vault + "/.sheaf/lock", "/bin/sh", "-c",
                                                                "while [ ! -e '\(go)' ]; do sleep 0.05; done"],
                                              in: vault, environment: ["PATH": "/usr/bin:/bin"]))
        defer { CLI.write("", to: go); _ = Spawn.wait(holder) }
        for _ in 0..<250 where CLI.sh("flock -n .sheaf/lock true", in: vault).status == 0 { usleep(20_000) }
        #expect(CLI.sh("flock -n .sheaf/lock true", in: vault).status != 0, "the holder never took the lock")
        CLI.write("# Late\n\nwritten while the lock is held\n", to: vault + "/Late.md")
        let out = temp.path + "/index.out", err = temp.path + "/index.err"
        let index = try #require(Spawn.start(CLI.binary, ["index"], in: vault,
                                             environment: ["PATH": "/usr/bin:/bin", "HOME": temp.path],
                                             stdout: out, stderr: err))
        // Let it find the lock taken (a run that does not wait exits at once), then let go.
        for _ in 0..<100 where !CLI.read(err).contains("waiting") { usleep(20_000) }
        CLI.write("", to: go)
        #expect(Spawn.wait(index) == 0, "\(CLI.read(err))")
        #expect(CLI.read(err).contains("waiting for another sheaf command"))
        #expect(CLI.read(out).contains("scanned"))
        #expect(CLI.run(["search", "--paths", "written while"], in: vault).stdout.contains("Late.md"))
    }

    /// Regression: a search while `sheaf index --rebuild` ran answered "nothing found" or a raw
    /// `no such table` error: it saw the index half built. Searches run while rebuilds run,
    /// until enough of them overlapped; each must find its note.
    @Test func searchDuringARebuildSeesTheOldIndexOrTheNew() throws {
        let temp = TempDir()
        let vault = Self.bigVault(temp, count: 1500)
        #expect(CLI.run(["index"], in: vault).status == 0)
        var overlapped = 0
        var rounds = 0
        while overlapped < 6 && rounds < 15 {
            rounds += 1
            let rebuild = try #require(Spawn.start(CLI.binary, ["index", "--rebuild"], in: vault,
                                                   environment: ["PATH": "/usr/bin:/bin", "HOME": temp.path]))
            var running = true
            while running {
                let result = CLI.run(["search", "--paths", "beacon"], in: vault)
                if result.stderr.contains("another sheaf command is updating the index") { overlapped += 1 }
                #expect(result.status == 0 && result.stdout.contains("Beacon.md"),
                        "status \(result.status): \(result.stdout) \(result.stderr)")
                #expect(!result.stderr.contains("no such table"))
                var status: Int32 = 0
                running = waitpid(rebuild, &status, WNOHANG) == 0
            }
        }
        #expect(overlapped >= 1, "no search ran during a rebuild")
        #expect(CLI.run(["search", "--paths", "number1499"], in: vault).stdout.contains("note1499.md"))
    }

    /// While the first index of a vault is being built there is none to answer from: a read
    /// command waits for it rather than answering from an empty one.
    @Test func aSearchDuringTheFirstBuildWaitsForIt() throws {
        let temp = TempDir()
        let vault = Self.bigVault(temp, count: 1500)
        var overlapped = 0
        var rounds = 0
        while overlapped < 2 && rounds < 10 {
            rounds += 1
            for suffix in ["", "-wal", "-shm"] { unlink(vault + "/.sheaf/index.sqlite" + suffix) }
            let build = try #require(Spawn.start(CLI.binary, ["index"], in: vault,
                                                 environment: ["PATH": "/usr/bin:/bin", "HOME": temp.path]))
            usleep(100_000)
            let result = CLI.run(["search", "--paths", "beacon"], in: vault)
            if result.stderr.contains("waiting for another sheaf command") { overlapped += 1 }
            #expect(result.status == 0 && result.stdout.contains("Beacon.md"), "\(result.stdout) \(result.stderr)")
            _ = Spawn.wait(build)
        }
        #expect(overlapped >= 1, "no search ran during a first build")
    }
}
