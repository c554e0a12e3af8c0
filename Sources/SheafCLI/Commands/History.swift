// log and restore: thin commands over SheafKit's history (git history is the trash).
// `show NOTE@REV` lives with `show` in Show.swift.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "log",
        abstract: "List the vault's commits, or the commits that changed one note.",
        discussion: "A note's log follows its renames and includes deleted notes: name one by the path it had. Each line: short commit id, date, author, what happened to the note, the commit's summary, and the note's path then when it differs. `sheaf show NOTE@ID` prints a version; `sheaf restore NOTE --at ID` brings it back.")

    @Argument(help: "A note: a path, a title, an id prefix, or the path a deleted note had.", completion: Completions.notes) var note: String?
    @Option(name: [.customShort("n"), .long], help: "Show at most N commits.") var limit: Int?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let history = try global.open().history(of: note, limit: limit)
        if !json { Terminal.page() }
        if json {
            Terminal.json(LogJSON(history, ofNote: note != nil))
            return
        }
        for entry in history.entries {
            var line: TerminalLine = "\(entry.commit.id.prefix(7))  \(Terminal.date(entry.commit.time))  \(text: entry.commit.authorName)  "
            if let kind = entry.kind { line += "\(kind.committedWord)  " }
            line += "\(text: entry.commit.summary)"
            if let old = entry.oldPath, let path = entry.path {
                line += "  [\(old) -> \(path)]"
            } else if let path = entry.path, !(history.path.map { PathBytes.same(path, $0) } ?? false) {  // a twin's path is another
                line += "  [\(path)]"
            }
            Terminal.out(line)
        }
    }
}

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "restore",
        abstract: "Bring back an earlier version of a note, or a deleted note.",
        discussion: "Without --at: the last committed version; for a deleted note the one before the deletion, for an existing note the one of the last commit (undoing the edits since). The version goes to the note's path, or for a deleted note to the path it had. Nothing is committed: the next commit or sync records it.")

    @Argument(help: "A note: a path, a title, an id prefix, or the path a deleted note had.", completion: Completions.notes) var note: String
    @Option(help: "The revision: a commit id or prefix (see `sheaf log NOTE`), HEAD~N, a branch.") var at: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let report = try global.open().restore(note, at: at)
        let then: TerminalLine = report.version.path != report.path ? " (then \(report.version.path))" : ""
        Terminal.out("restored \(report.path) from \(report.version.commit.prefix(7))\(then)")
    }
}
