import ArgumentParser
import SheafCore
import SheafKit

extension NoteSort: ExpressibleByArgument {}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "ls",
        abstract: "List notes: title, modified time, snippet.",
        discussion: "Exits 1 when a --folder or --tag filter matched nothing.")

    @Option(help: "Only notes in this folder and its subfolders, in any case (trips lists Trips/Kyoto, not trips-old): search's in:.", completion: Completions.folders) var folder: String?
    @Option(name: [.short, .long], help: "Only notes with this tag (or one below it, tag/child).", completion: Completions.tags) var tag: String?
    @Option(help: "Order: \(NoteSort.allCases.map(\.rawValue).joined(separator: ", ")).") var sort: NoteSort = .modified
    @Flag(help: "Reverse the order.") var reverse = false
    @Option(name: [.customShort("n"), .long], help: "At most this many notes.") var limit: Int?
    @Flag(help: "Print paths only.") var paths = false
    @Flag(help: "Print JSON.") var json = false
    @Flag(name: [.customShort("0"), .customLong("null")], help: "Print paths only, each ended by a NUL byte (for xargs -0).") var null = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let notes = try session.list(folder: folder, tag: tag, sort: sort, reverse: reverse, limit: limit)
        try reportWarnings(session)
        Terminal.nullTerminated = null
        if !json && !paths && !null { Terminal.page() }
        if json {
            Terminal.json(NoteListJSON(notes: notes.map(NoteSummaryJSON.init)))
        } else if paths || null {
            for n in notes { Terminal.path(n.path) }
        } else {
            for n in notes {
                Terminal.out("\(Terminal.bold("\(n.title)"))  \(Terminal.dim("\(Terminal.date(n.modified))  \(n.path)"))")
                if !n.snippet.isEmpty { Terminal.out("    \(text: n.snippet)") }
            }
        }
        if notes.isEmpty && (folder != nil || tag != nil) { throw ExitCode(1) }
    }
}
