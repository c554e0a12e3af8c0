import ArgumentParser
import SheafKit

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "mv",
        abstract: "Move or rename a note and update the links to it.",
        discussion: """
        DEST is a folder (an existing one, or any path ending in /) to move the note into; a path with a / \
        (from the vault root, or from the working directory when it starts with ./ or ../); or a bare name, \
        which renames the note in its own folder. Wiki-links and relative links to the note are rewritten in \
        every other note; nothing else in them changes.
        """)

    @Argument(help: "The note.", completion: Completions.notes) var note: String
    @Argument(help: "Where to: a folder, a path or a new name.") var destination: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let report = try session.move(named: note, to: destination)
        Terminal.out("moved \(report.from) -> \(report.to)")
        let others = report.rewritten.filter { $0 != report.to }
        if !others.isEmpty {
            Terminal.out("updated links in \(others.count) note\(others.count == 1 ? "" : "s"):")
            for p in others { Terminal.out("  \(p)") }
        }
        if report.rewritten.contains(report.to) { Terminal.out("re-pointed the moved note's own relative links") }
        // A link the move was asked to keep working and could not: not a warning but the result
        // (exit 1, each note named), as a pull that sets a conflict aside.
        if !report.skipped.isEmpty {
            Terminal.err("sheaf: \(report.skipped.count) note\(report.skipped.count == 1 ? "" : "s") still link\(report.skipped.count == 1 ? "s" : "") to \(report.from), left unedited:")
            for skipped in report.skipped { Terminal.err("  \(skipped)") }
            Terminal.err("  hint: fix each note's front-matter (or encoding) in your editor, then point its link at \(report.to)")
            throw ExitCode(1)
        }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "rm",
        abstract: "Delete a note, keeping it in git history.",
        discussion: "Commits the vault first, so the note's last text is in history, then deletes the file and commits the deletion.")

    @Argument(help: "The note.", completion: Completions.notes) var note: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let report = try session.remove(named: note)
        let kept: TerminalLine = report.keptIn.map { " (its last version is in commit \($0.prefix(10)))" } ?? ""
        Terminal.out("removed \(report.path)\(kept)")
        if !report.linkedFrom.isEmpty {
            let n = report.linkedFrom.count
            Terminal.warn("\(n) note\(n == 1 ? " still links" : "s still link") to it: \(names: report.linkedFrom)")
        }
    }
}
