// `sheaf search` as values, and its command line read without ArgumentParser. Building a command
// through ArgumentParser reflects over every property wrapper of it and of GlobalOptions (Mirror,
// dynamic casts, each a scan of the binary's protocol conformances): 29 % of the instructions of
// a search of 200 notes, more than its query and its snippets. The search command line arrives
// sorted (CommandNames.searchArguments: options, `--`, the words), so reading it takes a loop;
// anything not plainly given (help, a missing or bad value, an option given twice) still goes to
// ArgumentParser, which answers it as `Search` with its usual messages.
import ArgumentParser
import SheafKit

struct SearchRequest: Equatable {
    var words: [String]
    var limit = 20
    var paths = false
    var json = false
    var null = false
    var global = GlobalSettings()

    func run() throws {
        let session = try global.open()
        Terminal.nullTerminated = null
        let (hits, _, relaxed) = try session.search(words.joined(separator: " "), limit: limit, snippets: !paths && !null)
        if relaxed && !hits.isEmpty {
            Terminal.warn("no note holds all of the words; these hold some of them, those with most first")
        }
        if json {
            Terminal.json(SearchJSON(partial: relaxed, hits: hits))
        } else if paths || null {
            for h in hits { Terminal.path(h.path) }
        } else {
            Terminal.page()
            for h in hits {
                Terminal.out("\(Terminal.bold("\(h.title)"))  \(Terminal.dim("\(h.path)"))")
                let snippet = h.snippet.map { $0.match ? Terminal.bold("\(text: $0.text)") : "\(text: $0.text)" }
                if !snippet.isEmpty { Terminal.out("    \(TerminalLine.joined(snippet, separator: ""))") }
            }
        }
        if hits.isEmpty { throw ExitCode(1) }
    }
}

extension SearchRequest {

    /// The request a sorted search command line (`search`, options, `--`, words) makes, when
    /// each option in it is given once with a value that reads; nil otherwise.
    init?(sorted arguments: [String]) {
        guard arguments.first == "search", let separator = arguments.firstIndex(of: "--") else { return nil }
        words = Array(arguments[(separator + 1)...])
        var given: [String] = []
        var i = 1
        while i < separator {
            var name = arguments[i], value: String?
            if name.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let key = Self.longNames[name] ?? name
            guard !given.contains(key) else { return nil }
            given.append(key)
            if ["--limit", "--vault", "--color"].contains(key) {
                if value == nil {
                    // ArgumentParser takes no value that looks like an option.
                    guard i + 1 < separator, !arguments[i + 1].hasPrefix("-") else { return nil }
                    value = arguments[i + 1]
                    i += 1
                }
                guard let value, !value.isEmpty else { return nil }
                switch key {
                case "--limit": guard let n = Int(value) else { return nil }; limit = n
                case "--color": guard let c = ColorChoice(rawValue: value) else { return nil }; global.color = c
                default: global.vault = value
                }
            } else {
                guard value == nil else { return nil }
                switch key {
                case "--paths": paths = true
                case "--json": json = true
                case "--null": null = true
                case "--quiet": global.quiet = true
                case "--verbose": global.verbose = true
                case "--no-pager": global.noPager = true
                default: return nil  // help, or anything else: ArgumentParser's
                }
            }
            i += 1
        }
    }

    /// The long name of each short option `search` takes.
    static let longNames = ["-n": "--limit", "-q": "--quiet", "-v": "--verbose", "-0": "--null"]
}
