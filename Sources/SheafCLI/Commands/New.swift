import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct New: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "new",
        abstract: "Create a note.",
        discussion: "Writes id, title, created and tags as front-matter. The body comes from --body; `--body -` reads it from standard input (which is otherwise never read, so `while read t; do sheaf new \"$t\"; done` makes one note per line). Prints the new note's path.")

    @Argument(help: "The title; the file name is made from it.") var title: String
    @Option(help: "Folder for the note, relative to the vault root.", completion: Completions.folders) var folder: String?
    @Option(name: [.short, .long], help: "A tag (repeat for more).", completion: Completions.tags) var tag: [String] = []
    @Option(help: "The body text; - reads it from standard input.") var body: String?
    @Option(help: "A template note in the templates folder (Obsidian's, else Templates/): {{title}}, {{date}}, {{time}}, {{date:FORMAT}} are filled in.", completion: Completions.templates) var template: String?
    @Flag(help: "Open the new note in $VISUAL or $EDITOR.") var edit = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        // Standard input only when asked for: a `while read` loop's own input is not a body.
        let text = body == "-" ? try StandardInput.text() : body ?? ""
        let filled = try template.map { (name) throws(SheafError) in try session.templateText(name, title: title) }
        let report = try session.createNote(title: title, folder: folder, tags: tag, body: text, template: filled)
        for clash in report.caseClashes {
            Terminal.warn("\(report.path): differs only by case from \(clash); clones on macOS or Windows will break")
        }
        for taken in report.tookLinks {
            Terminal.warn("\(taken.note): its link to \(VaultPath.stem(report.path)) now reaches \(report.path), not \(taken.before)")
        }
        if !report.tookLinks.isEmpty {
            Terminal.warn("a link written with a folder (`[[\(VaultPath.withoutNoteExtension(report.tookLinks[0].before))]]`) keeps reaching the other file; `sheaf mv` renames the new note")
        }
        Terminal.out("\(report.path)")
        if edit { try Editor.open([session.vault.absolute(report.path)]) }
    }
}

/// Opens files in the user's editor ($VISUAL, else $EDITOR, else vi) and waits for it.
enum Editor {
    static func open(_ paths: [String]) throws {
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // The editor setting may carry arguments ("code --wait"): let the shell split it.
        let status: Int32
        do {
            status = try ForegroundProcess.run(["/bin/sh", "-c", editor + " \"$@\"", "sheaf-editor"] + paths).status
        } catch {
            throw SheafErrorBox.editor(editor, error.localizedDescription)
        }
        if status != 0 {
            throw SheafErrorBox.editor(editor, "exited with status \(status)")
        }
    }
}
