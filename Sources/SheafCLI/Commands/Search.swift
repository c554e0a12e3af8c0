import ArgumentParser
import Foundation
import SheafKit

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "search",
        abstract: "Find notes. Exits 0 when something matched, 1 when nothing did.",
        discussion: """
        Words must all match, in any case and with or without accents (cafe finds café); English words \
        match their other forms (run finds running); =word or ="a phrase" matches without them (=run \
        skips running). Also: "a phrase", prefix*, a OR b, -word, \
        tag:x or #x, in:Folder/Sub (that folder and its subfolders, in any case; ls --folder is the same filter), title:word, after:2026-01-01, before:2026-02, has:attachment, \
        is:conflict, links:Note. Chinese, Japanese and Korean text is found by any run of 2+ characters.
        """)

    @Argument(parsing: .allUnrecognized, help: "The query (quote it for your shell).") var query: [String]
    @Option(name: [.customShort("n"), .long], help: "At most this many results.") var limit: Int = 20
    @Flag(help: "Print paths only.") var paths = false
    @Flag(help: "Print JSON.") var json = false
    @Flag(name: [.customShort("0"), .customLong("null")], help: "Print paths only, each ended by a NUL byte (for xargs -0).") var null = false
    @OptionGroup var global: GlobalOptions

    /// What the command line asks. The `--` that CommandNames.searchArguments puts before the
    /// words is not part of the query. A plain search line never reaches these properties
    /// (SearchRequest reads it): a default, a `validate()` or an option read from the
    /// environment added here must be added there too (SearchRequestTests compares the two).
    var request: SearchRequest {
        SearchRequest(words: query.first == "--" ? Array(query.dropFirst()) : query, limit: limit, paths: paths, json: json,
                      null: null, global: global.settings)
    }

    func run() throws { try request.run() }
}

struct Backlinks: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(commandName: "backlinks", abstract: "List the notes that link to a note or an attachment.")
    @Argument(help: "The note (or an attachment, by path or file name).", completion: Completions.notes) var note: String
    @Flag(help: "Print JSON.") var json = false
    @Flag(name: [.customShort("0"), .customLong("null")], help: "Print paths only, each ended by a NUL byte (for xargs -0).") var null = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let file = try session.linkedFile(note)
        let paths = try session.backlinks(ofPath: file)
        Terminal.nullTerminated = null
        if json { Terminal.json(BacklinksJSON(note: file, backlinks: paths)) } else { paths.forEach { Terminal.path($0) } }
        if paths.isEmpty { throw ExitCode(1) }  // nothing matched, as for `search` (docs/exit-codes.md)
    }
}
