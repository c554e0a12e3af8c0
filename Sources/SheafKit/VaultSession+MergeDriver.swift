// `sheaf install-merge-driver`: plain `git merge` and `git pull` in this vault use the note merge.
import Foundation
import SheafCore
import SheafGit

extension VaultSession {
    /// Registers `command merge-file` as git's `sheaf` merge driver and assigns it to notes in
    /// `.git/info/attributes`. Returns the driver line.
    public func installMergeDriver(command: String) throws(SheafError) -> String {
        let quoted = "'" + command.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let driver = "\(quoted) merge-file --driver-path %P %O %A %B"
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
