// Running git's own CLI on this repository, where Sheaf relies on git rather than libgit2 (a local
// fetch in bounded memory, `gc --auto`): `GIT_DIR` names this repository, no `GIT_*` setting of
// the caller's environment leaks in, and git never prompts.
import Foundation

extension Repository {
    /// Runs `git ARGUMENTS` (found on PATH) with this repository as `GIT_DIR`, standard input and
    /// output closed; standard error goes to Sheaf's own when `showErrors`. False when git is
    /// missing or exits with a failure.
    /// `niced`: at the lowest priority but one (`nice -n 10`), for work nobody waits on. `apart`:
    /// run from `/`, with the work tree named (`GIT_WORK_TREE`), for git that runs beside Sheaf's
    /// writers and owns no lock file: a session's start (Repository+StaleLocks) counts only the
    /// git processes working inside the vault as ones that may own a lock.
    func runGit(_ arguments: [String], showErrors: Bool = false, niced: Bool = false, apart: Bool = false) -> Bool {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        environment["GIT_DIR"] = gitDirectory
        environment["GIT_TERMINAL_PROMPT"] = "0"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = (niced ? ["nice", "-n", "10"] : []) + ["git"] + arguments
        if apart {
            if let workTree { environment["GIT_WORK_TREE"] = workTree }
            process.currentDirectoryURL = URL(fileURLWithPath: "/")
        }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = showErrors ? FileHandle.standardError : FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
