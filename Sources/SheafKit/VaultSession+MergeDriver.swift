// `sheaf install-merge-driver`: plain `git merge` and `git pull` in this vault use the note merge.
import Foundation
import SheafCore
import SheafFiles
import SheafGit

extension VaultSession {
    /// Registers `sheaf-merge-file` beside `command` (else `command merge-file`) as git's `sheaf`
    /// merge driver and assigns it to notes in `.git/info/attributes`. Returns the driver line.
    public func installMergeDriver(command: String) throws(SheafError) -> String {
        func quoted(_ path: String) -> String { ShellWord.singleQuoted(path) }
        // `sheaf-merge-file` beside `sheaf` (scripts/install puts it there): the same merge in a
        // process that starts in a few milliseconds, which git runs once per note it merges.
        let folder = command.hasPrefix("/") ? command.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(command[..<$0]) } : nil
        let helper = folder.map { $0 + "/sheaf-merge-file" }
        // `--driver-path=%P`, joined: a note path that starts with a dash is then the option's
        // value, where `--driver-path %P` made both drivers refuse it as an option (git quotes
        // %P for the shell, byte for byte).
        let driver = if let helper, FileManager.default.isExecutableFile(atPath: helper) {
            "\(quoted(helper)) --driver-path=%P %O %A %B"
        } else {
            "\(quoted(command)) merge-file --driver-path=%P %O %A %B"
        }
        try gitStep("cannot register the merge driver") { (repo) throws(GitError) in
            try repo.setConfig("merge.sheaf.name", "sheaf note merge")
            try repo.setConfig("merge.sheaf.driver", driver)
        }
        let repo = try requireRepository()
        let path = repo.gitDirectory + "/info/attributes"
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = ["*.md merge=sheaf", "*.markdown merge=sheaf"].filter { !existing.contains($0) }
        if !lines.isEmpty {
            var text = existing
            if !text.isEmpty && !text.endsWithLineBreak { text += "\n" }
            text += lines.map { $0 + "\n" }.joined()
            try? FileManager.default.createDirectory(atPath: repo.gitDirectory + "/info", withIntermediateDirectories: true)
            try AtomicFile.write(text, to: path)
        }
        return driver
    }
}
