import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "show",
        abstract: "Print a note.",
        discussion: "Prints the file as it is. --json gives its parsed fields, links and body.")

    @Argument(help: "The note: a path, a title, a file name, an alias or an id prefix; NOTE@REV for an earlier version.", completion: Completions.notes) var note: String?
    @Flag(help: "Print JSON.") var json = false
    @Flag(name: [.customShort("i"), .customLong("interactive")], help: "Pick the note with fzf.") var interactive = false
    @OptionGroup var global: GlobalOptions

    func validate() throws { try requireNoteOrPicker(note, interactive) }

    func run() throws {
        let session = try global.open()
        let note = try note ?? Picker.pickNote(session)
        let found: CatalogNote
        switch try session.resolveNoteOrVersion(note) {
        case .current(let note): found = note
        case .earlier(let version):
            if json {
                throw SheafError("--json shows the current note only", path: note, hint: "drop --json to print the earlier version")
            }
            if Terminal.stdoutIsTTY { Terminal.out(Terminal.dim("# \(version.path) at \(version.commit.prefix(7))")) }
            Terminal.raw(version.bytes)
            return
        }
        for w in found.note.warnings { Terminal.warn("\(found.path): \(text: w.description)") }
        if json {
            let targets = try session.linkTargets()
            Terminal.json(NoteJSON(found, targets: targets, blob: try session.blobID(of: found)))
            return
        }
        guard let data = FileManager.default.contents(atPath: session.vault.absolute(found.path)) else {
            throw SheafError("cannot read", path: found.path)
        }
        if Terminal.stdoutIsTTY { Terminal.page(); Terminal.out(Terminal.dim("# \(found.path)")) }
        Terminal.raw(Array(data))
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(commandName: "edit", abstract: "Open a note in $VISUAL or $EDITOR.")
    @Argument(help: "The note.", completion: Completions.notes) var note: String?
    @Flag(name: [.customShort("i"), .customLong("interactive")], help: "Pick the note with fzf.") var interactive = false
    @OptionGroup var global: GlobalOptions

    func validate() throws { try requireNoteOrPicker(note, interactive) }

    func run() throws {
        let session = try global.open()
        let found = try session.resolve(note ?? Picker.pickNote(session))
        try Editor.open([session.vault.absolute(found.path)])
    }
}

struct Append: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "append",
        abstract: "Add text at the end of a note.",
        discussion: """
            The text comes from the arguments, else from standard input. With --if-match BLOB (the \
            blob id `show --json` reported) the text is added to that version, merged with any \
            change made since.
            """)
    @Argument(help: "The note.", completion: Completions.notes) var note: String
    @Argument(help: "The text (words are joined by spaces).") var text: [String] = []
    @Option(name: .customLong("if-match"), help: "The git blob id of the version the text was written against.")
    var ifMatch: String?
    @Flag(help: "Print JSON: the outcome (clean, merged, conflict) and the new blob id.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let found = try session.resolve(note)
        let addition = text.isEmpty ? try StandardInput.text() : text.joined(separator: " ")
        guard !addition.isEmpty else { throw ValidationError("nothing to append: give text or pipe it in") }
        if ifMatch == nil && !json {
            try session.append(addition, to: found)
            if Terminal.verbose { Terminal.err("appended to \(found.path)") }
            return
        }
        try GuardedWriteOutput.report(try session.appendNote(addition, to: found, ifMatch: ifMatch), json: json)
    }
}

struct Write: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "write",
        abstract: "Replace a note's content with standard input.",
        discussion: """
            With --if-match BLOB (the blob id `show --json` reported when the content was read) a \
            note changed since is merged three ways instead of overwritten; where the two overlap \
            the note keeps the new content and a conflict file the note's version. Exit 1 on a \
            conflict, 2 for an unknown blob id.
            """)
    @Argument(help: "The note.", completion: Completions.notes) var note: String
    @Option(name: .customLong("if-match"), help: "The git blob id of the version the content was made from.")
    var ifMatch: String?
    @Flag(help: "Print JSON: the outcome (clean, merged, conflict) and the new blob id.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let found = try session.resolve(note)
        let content = try StandardInput.bytes()
        try GuardedWriteOutput.report(try session.writeNote(content, to: found, ifMatch: ifMatch), json: json)
    }
}

/// What `write` and `append --if-match` print.
enum GuardedWriteOutput {
    static func report(_ r: GuardedWriteReport, json: Bool) throws {
        if json {
            Terminal.json(GuardedWriteJSON(r))
        } else if let file = r.conflictFile {
            Terminal.err("\(r.path): changed since it was read and the changes overlap; its version is in \(file)")
        } else if r.outcome == .merged, !Terminal.quiet {
            Terminal.err("\(r.path): changed since it was read; merged")
        }
        if r.outcome == .conflict { throw ExitCode(1) }
    }
}

/// A command that names a note takes it on the command line or, with `-i`, from fzf: one of the two.
func requireNoteOrPicker(_ note: String?, _ interactive: Bool) throws {
    if note == nil && !interactive { throw ValidationError("name a note, or pick one with -i") }
    if note != nil && interactive { throw ValidationError("name a note or use -i, not both") }
}
