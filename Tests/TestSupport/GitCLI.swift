// Git's own command line in tests, where a test needs git as a user (or another tool) would run
// it: the clean environment of `runProcess`, and an identity, so a commit never fails for want
// of one and never reads the user's configuration.
import Foundation

public enum GitCLI {
    /// The author and committer of the commits tests make with git's command line.
    public static let identity = ["GIT_AUTHOR_NAME": "Plain Git", "GIT_AUTHOR_EMAIL": "git@example.invalid",
                                  "GIT_COMMITTER_NAME": "Plain Git", "GIT_COMMITTER_EMAIL": "git@example.invalid"]

    /// Runs `git ARGUMENTS` in `directory`, `stdin` as its input.
    @discardableResult
    public static func run(_ arguments: [String], in directory: String, stdin: String? = nil) -> RunResult {
        runProcess("/usr/bin/git", arguments, in: directory, stdin: stdin, environment: identity)
    }

    /// `git ARGUMENTS` in `directory`: its output without the white space around it.
    public static func output(_ arguments: [String], in directory: String, stdin: String? = nil) -> String {
        run(arguments, in: directory, stdin: stdin).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
