import ArgumentParser
import SheafCore
import SheafIndex
import SheafKit

extension NoteSort: ExpressibleByArgument {}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List notes: title, modified time, snippet.",
        discussion: "Exits 1 when a --folder or --tag filter matched nothing.")

    @Option(help: "Only notes in this folder and its subfolders, in any case (trips lists Trips/Kyoto, not trips-old): search's in:.") var folder: String?
    @Option(help: "Only notes with this tag (or one below it, tag/child).") var tag: String?
    @Option(help: "Order: \(NoteSort.allCases.map(\.rawValue).joined(separator: ", ")).") var sort: NoteSort = .modified
    @Flag(help: "Reverse the order.") var reverse = false
    @Option(help: "At most this many notes.") var limit: Int?
    @Flag(help: "Print paths only.") var paths = false
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let notes = try session.list(folder: folder, tag: tag, sort: sort, reverse: reverse, limit: limit)
        try reportWarnings(session)
        if json {
            Terminal.json(NoteListJSON(notes: notes.map(NoteSummaryJSON.init)))
        } else if paths {
            for n in notes { Terminal.out(n.path) }
        } else {
            for n in notes {
                Terminal.out(Terminal.bold(n.title) + "  " + Terminal.dim(Terminal.date(n.modified) + "  " + n.path))
                if !n.snippet.isEmpty { Terminal.out("    " + n.snippet) }
            }
        }
        if notes.isEmpty && (folder != nil || tag != nil) { throw ExitCode(1) }
    }
}
