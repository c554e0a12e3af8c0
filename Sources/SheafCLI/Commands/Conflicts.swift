import ArgumentParser
import SheafCore
import SheafKit

extension ConflictKeep: ExpressibleByArgument {}

struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "conflicts",
        abstract: "List conflict files: the remote side of edits that overlapped, beside each note.",
        discussion: "Settle one with `sheaf resolve NOTE`, or by deleting the conflict file after copying what you want from it. Exits 1 when there are none.")

    @Flag(help: "Print JSON.") var json = false
    @Flag(name: [.customShort("0"), .customLong("null")], help: "Print paths only, each ended by a NUL byte (for xargs -0).") var null = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let conflicts = try global.open().conflicts()
        if json {
            Terminal.json(ConflictListJSON(conflicts))
        } else if null {
            Terminal.nullTerminated = true
            for c in conflicts { Terminal.path(c.path) }
        } else {
            for c in conflicts { Terminal.out("\(c.original)\t\(c.path)") }
        }
        if conflicts.isEmpty { throw ExitCode(1) }
    }
}

struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "resolve",
        abstract: "Settle a note's conflict: keep the local note, the remote version, or both.",
        discussion: "--keep local deletes the conflict file; --keep remote puts the remote version into the note; --keep both turns the conflict file into an ordinary note beside it. --edit opens the note and its conflict files in your editor first. The change is committed by the next commit or sync.")

    @Argument(help: "The note (path, title or id), or its conflict file.", completion: Completions.notes) var note: String
    @Option(help: "local, remote or both.") var keep: ConflictKeep?
    @Flag(help: "Open the note and its conflict files in $EDITOR.") var edit = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if keep == nil && !edit { throw ValidationError("say --keep local|remote|both, or --edit") }
    }

    func run() throws {
        let session = try global.open()
        if edit {
            let (original, files) = try session.conflicts(of: note)
            try Editor.open(([original] + files.map(\.path)).map(session.vault.absolute))
            guard keep != nil else {
                let left = (try? session.conflicts(of: original))?.files.count ?? 0
                if left > 0 { Terminal.out("\(left) conflict file\(left == 1 ? "" : "s") left; delete \(left == 1 ? "it" : "them") or use --keep when done") }
                return
            }
        }
        let report = try session.resolve(note, keep: keep!)
        for path in report.removed { Terminal.out("removed \(path)") }
        for (from, to) in report.kept { Terminal.out("kept \(from) as \(to)") }
        Terminal.out("resolved \(report.original)")
    }
}
