import Foundation
import TestSupport
import Testing

@Suite struct InitTests {
    @Test func initAdoptsAnExistingFolderWithoutChangingAnyFile() {
        let temp = TempDir()
        let vault = CLI.samplesCopy(temp)
        let before = CLI.snapshot(vault)
        let r = CLI.run(["init"], in: vault)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.snapshot(vault) == before)
        #expect(FileManager.default.fileExists(atPath: vault + "/.sheaf"))
        #expect(CLI.sh("git symbolic-ref HEAD", in: vault).stdout == "refs/heads/main\n")
        #expect(CLI.sh("git rev-list --all --count", in: vault).stdout == "0\n")  // commits nothing
        let exclude = CLI.read(vault + "/.git/info/exclude")
        #expect(exclude.contains(".sheaf/\n") && exclude.contains(".obsidian/workspace*.json\n"))
        #expect(CLI.sh("git check-ignore -q .sheaf/index.sqlite", in: vault).status == 0)
    }

    @Test func initKeepsAnExistingRepositoryAndItsHistory() {
        let temp = TempDir()
        let vault = CLI.samplesCopy(temp)
        let setup = CLI.sh("git init -q -b trunk && git add -A && git -c user.name=t -c user.email=t@t commit -qm start", in: vault)
        #expect(setup.status == 0, "\(setup.stderr)")
        let before = CLI.snapshot(vault)
        let head = CLI.sh("git rev-parse HEAD", in: vault).stdout
        let r = CLI.run(["init"], in: vault)
        #expect(r.status == 0)
        #expect(r.stdout.contains("using the existing git repository"))
        #expect(CLI.snapshot(vault) == before)
        #expect(CLI.sh("git rev-parse HEAD", in: vault).stdout == head)
        #expect(CLI.sh("git symbolic-ref --short HEAD", in: vault).stdout == "trunk\n")
        #expect(CLI.sh("git status --porcelain", in: vault).stdout == "")
    }

    @Test func initTwiceSaysSo() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        let r = CLI.run(["init"], in: vault)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("already a vault"))
    }

    @Test func commandsOutsideAVaultExplainWhatToDo() {
        let temp = TempDir()
        let r = CLI.run(["ls"], in: temp.path)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("sheaf: no vault here: "))
        #expect(r.stderr.contains("hint: run `sheaf init`"))
    }

    @Test func anEnclosingGitRepositoryIsNotAVault() {
        let temp = TempDir()
        #expect(CLI.sh("git init -q", in: temp.path).status == 0)
        try! FileManager.default.createDirectory(atPath: temp.path + "/notes", withIntermediateDirectories: true)
        #expect(CLI.run(["ls"], in: temp.path + "/notes").status == 2)
    }

    @Test func vaultFromOptionAndEnvironment() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["ls", "--vault", vault, "--paths"], in: temp.path).status == 0)
        #expect(CLI.run(["ls", "--paths"], in: temp.path, environment: ["SHEAF_VAULT": vault]).status == 0)
        let wrong = CLI.run(["ls", "--vault", temp.path], in: temp.path)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("not a Sheaf vault"))
    }

    @Test func badUsageExitsTwo() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        #expect(CLI.run(["ls", "--sort", "sideways"], in: vault).status == 2)
        #expect(CLI.run(["frobnicate"], in: vault).status == 2)
        #expect(CLI.run(["--version"], in: vault).stdout.hasPrefix("0."))
        #expect(CLI.run(["--help"], in: vault).status == 0)
    }

    /// ArgumentParser's own errors (a bad value, an unknown option) speak as `sheaf: `, as Sheaf's
    /// errors do, with the usage after them. The label was swapped by matching the message's text
    /// ("Error:"); it is now ArgumentParser's error prefix, set on the root command.
    @Test func usageErrorsSpeakAsSheafNotAsArgumentParser() {
        let temp = TempDir()
        let vault = CLI.sampleVault(temp)
        for arguments in [["ls", "--sort", "sideways"], ["ls", "--frobnicate"]] {
            let r = CLI.run(arguments, in: vault)
            #expect(r.status == 2 && r.stdout.isEmpty, "\(arguments): \(r.stdout)")
            #expect(r.stderr.hasPrefix("sheaf: ") && !r.stderr.contains("Error"), "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("\nUsage: sheaf ls <options>\n"), "\(arguments): \(r.stderr)")
        }
    }
}
