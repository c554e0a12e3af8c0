// Running git's own CLI on this repository, where Sheaf relies on git rather than libgit2 (a local
// fetch in bounded memory, `gc --auto`): `GIT_DIR` names this repository, no `GIT_*` setting of
// the caller's environment leaks in, and git never prompts.
import Foundation
import SheafProcess

extension Repository {
    /// Runs `git ARGUMENTS` (found on PATH) with this repository as `GIT_DIR`, standard input and
    /// output closed; standard error goes to Sheaf's own when `showErrors`. False when git is
    /// missing or exits with a failure.
    /// `niced`: at a lower priority (`nice -n 10`), for work nobody waits on. `apart`: run from
    /// `/`, with the work tree named (`GIT_WORK_TREE`). Only for git that owns no lock file of
    /// git's (traced: `repack` without `-d`), which runs beside Sheaf's writers: a session's start
    /// (Repository+StaleLocks) counts the git processes working inside the vault as ones that may
    /// own a lock, and would wait for it. `holding`: a lock file git and its children hold
    /// (flock(1), `--no-fork`) until the last of them ends.
    func runGit(_ arguments: [String], showErrors: Bool = false, niced: Bool = false, apart: Bool = false,
                holding lock: String? = nil) -> Bool {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        environment["GIT_DIR"] = gitDirectory
        environment["GIT_TERMINAL_PROMPT"] = "0"
        // Unless apart, inside the repository, wherever Sheaf was started (`--vault`): so a
        // session's start sees it as a git at work there, should it outlive a killed Sheaf.
        let directory = apart ? "/" : workTree ?? gitDirectory
        if apart, let workTree { environment["GIT_WORK_TREE"] = workTree }
        let argv = ["/usr/bin/env"] + (niced ? ["nice", "-n", "10"] : []) + (lock.map { ["flock", "--no-fork", $0] } ?? []) + ["git"] + arguments
        guard let outcome = try? ChildProcess.run(argv, environment: environment, directory: directory,
                                                  errors: showErrors ? .inherit : .discard) else { return false }
        return outcome.succeeded
    }
}
