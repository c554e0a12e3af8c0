// Issue 10, item 4: one writer rule. Every command that changes the vault holds `.sheaf/lock`;
// before, `new`, `append`, `tags`, `write`, `attach` and `daily` wrote without it, beside a
// running `mv` or pull. The holder here is util-linux `flock` on the same lock file.
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct WriterLockTests {
    /// Regression: `new`, `append`, `tags add`, `write`, `attach` and `daily` changed files while
    /// another command held the writer lock. Each must wait (saying so) and write only after.
    @Test func everyWriterWaitsForTheLock() throws {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        CLI.write("# Target\n\nfirst line\n", to: vault + "/Target.md")
        CLI.write("pixels", to: temp.path + "/photo.bin")
        CLI.write("# Target\n\nreplaced\n", to: temp.path + "/new-content")
        #expect(CLI.run(["index"], in: vault).status == 0)
        let commands: [(args: [String], stdin: String)] = [
            (["new", "Locked out"], "/dev/null"),
            (["append", "Target", "appended"], "/dev/null"),
            (["tags", "add", "Target", "waited"], "/dev/null"),
            (["attach", "Target", temp.path + "/photo.bin"], "/dev/null"),
            (["daily", "2026-03-14", "--no-edit"], "/dev/null"),
            (["write", "Target"], temp.path + "/new-content"),
        ]
        for (n, command) in commands.enumerated() {
            let go = temp.path + "/go\(n)"
            let holder = try #require(Spawn.start("/usr/bin/flock", [vault + "/.sheaf/lock", "/bin/sh", "-c",
                                                                    "while [ ! -e '\(go)' ]; do sleep 0.05; done"],
                                                  in: vault, environment: ["PATH": "/usr/bin:/bin"]))
            for _ in 0..<250 where CLI.sh("flock -n .sheaf/lock true", in: vault).status == 0 { usleep(20_000) }
            #expect(CLI.sh("flock -n .sheaf/lock true", in: vault).status != 0, "the holder never took the lock")
            let before = CLI.sh("git status --porcelain --untracked-files=all; cat Target.md", in: vault).stdout
            let err = temp.path + "/err\(n)"
            let writer = try #require(Spawn.start(CLI.binary, command.args, in: vault,
                                                  environment: ["PATH": "/usr/bin:/bin", "HOME": temp.path, "EDITOR": "true"],
                                                  stdin: command.stdin, stderr: err))
            for _ in 0..<150 where !CLI.read(err).contains("waiting") { usleep(20_000) }
            let during = CLI.sh("git status --porcelain --untracked-files=all; cat Target.md", in: vault).stdout
            CLI.write("", to: go)
            _ = Spawn.wait(holder)
            #expect(Spawn.wait(writer) == 0, "\(command.args): \(CLI.read(err))")
            #expect(CLI.read(err).contains("waiting for another sheaf command"), "\(command.args) did not wait for the lock")
            #expect(during == before, "\(command.args) changed the vault while another command held the lock")
        }
    }
}
