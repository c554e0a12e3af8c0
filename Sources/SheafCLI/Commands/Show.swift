import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a note.",
        discussion: "Prints the file as it is. --json gives its parsed fields, links and body.")

    @Argument(help: "The note: a path, a title, a file name, an alias or an id prefix; NOTE@REV for an earlier version.") var note: String
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let found: CatalogNote
        switch Result(catching: { () throws(SheafError) in try session.resolve(note) }) {
        case .success(let note): found = note
        case .failure(let error):
            if error.what == NoteLookup.noMatch, try showEarlierVersion(session) { return }
            throw error
        }
        for w in found.note.warnings { Terminal.warn("\(found.path): \(w)") }
        if json {
            let targets = try session.linkTargets()
            Terminal.json(NoteJSON(
                path: found.path, id: found.note.id, title: found.note.title, tags: found.note.tags,
                aliases: found.note.aliases, created: found.created, modified: found.modified,
                frontMatter: Dictionary(found.note.frontMatter.entries.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { a, _ in a }),
                links: found.note.links.map { LinkJSON(kind: $0.kind.rawValue, target: $0.target, fragment: $0.fragment,
                                                      resolved: targets.resolve($0, from: found.path)) },
                body: found.note.body, warnings: found.note.warnings.map(\.description)))
            return
        }
        guard let data = FileManager.default.contents(atPath: session.vault.absolute(found.path)) else {
            throw SheafError("cannot read", path: found.path)
        }
        if Terminal.stdoutIsTTY { Terminal.out(Terminal.dim("# " + found.path)) }
        FileHandle.standardOutput.write(data)
    }

    /// Prints NOTE@REV when the argument is one (the part after the last `@` names a commit);
    /// false when it is not.
    private func showEarlierVersion(_ session: VaultSession) throws -> Bool {
        guard let at = note.lastIndex(of: "@") else { return false }
        let (name, revision) = (String(note[..<at]), String(note[note.index(after: at)...]))
        guard !name.isEmpty, !revision.isEmpty else { return false }
        guard session.isRevision(revision) else {
            // The note is known and the revision is not: say that, not "no note matches".
            if (try? session.history(of: name, limit: 1)) != nil { _ = try session.commit(forRevision: revision) }
            return false
        }
        if json {
            throw SheafError("--json shows the current note only", path: note, hint: "drop --json to print the earlier version")
        }
        let version = try session.version(of: name, at: revision)
        if Terminal.stdoutIsTTY { Terminal.out(Terminal.dim("# \(version.path) at \(version.commit.prefix(7))")) }
        FileHandle.standardOutput.write(Data(version.bytes))
        return true
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Open a note in $VISUAL or $EDITOR.")
    @Argument(help: "The note.") var note: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let found = try session.resolve(note)
        try Editor.open([session.vault.absolute(found.path)])
    }
}

struct Append: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Add text at the end of a note.",
        discussion: "The text comes from the arguments, else from standard input.")
    @Argument(help: "The note.") var note: String
    @Argument(help: "The text (words are joined by spaces).") var text: [String] = []
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let found = try session.resolve(note)
        let addition = text.isEmpty ? Terminal.readStandardInput() : text.joined(separator: " ")
        guard !addition.isEmpty else { throw ValidationError("nothing to append: give text or pipe it in") }
        try session.append(addition, to: found)
        if Terminal.verbose { Terminal.err("appended to \(found.path)") }
    }
}
