// The command line as typed, before ArgumentParser sees it: global options given before the
// subcommand are moved after it (`sheaf --vault DIR ls` as `sheaf ls --vault DIR`), and a word that
// is close to a command's name gets a suggestion instead of "unexpected argument".
import ArgumentParser
import SheafCore

enum CommandNames {
    /// Options every command takes (GlobalOptions): name and whether a value follows.
    static let globalOptions: [String: Bool] = ["--vault": true, "--quiet": false, "-q": false, "--verbose": false, "-v": false,
                                                "--color": true, "--no-pager": false]

    /// `arguments` with the global options found before the first other word moved to the end
    /// (before a `--`, if any), where every subcommand's option group reads them.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var moved: [String] = []
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            let name = String(arg.split(separator: "=", maxSplits: 1).first ?? "")
            guard let takesValue = globalOptions[name] else { break }
            moved.append(arg)
            if takesValue && !arg.contains("=") {
                guard i + 1 < arguments.count else { return arguments }
                moved.append(arguments[i + 1])
                i += 1
            }
            i += 1
        }
        let rest = Array(arguments[i...])
        guard !moved.isEmpty, !rest.isEmpty else { return arguments }
        if let end = rest.firstIndex(of: "--") {
            return Array(rest[..<end]) + moved + Array(rest[end...])
        }
        return rest + moved
    }

    /// `sheaf search` takes `-word` to exclude a word, but ArgumentParser reads `-lisbon` as the
    /// short options `-l -i -s -b -o -n` (and `-n` wants a value), and it hands unknown options
    /// such as a mistyped `--pahts` to the query as words. So the search command line is sorted
    /// here: options first, then `--`, then the query words in their order. A `--word` before any
    /// `--` is a mistyped option: an error, with the closest option. `-n5` is `-n 5`, as in git.
    static func searchArguments(_ arguments: [String]) throws(SheafError) -> [String] {
        guard arguments.first == "search" else { return arguments }
        let withValue: Set<String> = ["-n", "--limit", "--vault", "--color"]
        let flags: Set<String> = ["--paths", "--json", "-q", "--quiet", "-v", "--verbose", "-h", "--help",
                                  "-0", "--null", "--no-pager"]
        var options: [String] = []
        var words: [String] = []
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            let name = String(arg.split(separator: "=", maxSplits: 1).first ?? "")
            if arg == "--" { words += arguments[(i + 1)...]; break }
            if withValue.contains(name) {
                options.append(arg)
                if !arg.contains("="), i + 1 < arguments.count { options.append(arguments[i + 1]); i += 1 }
            } else if flags.contains(arg) {
                options.append(arg)
            } else if let limit = joinedLimit(arg) {
                options += ["-n", limit]
            } else if arg.hasPrefix("--"), arg.count > 2 {
                let known = Array(withValue.union(flags).filter { $0.hasPrefix("--") }).sorted()
                let hint = closest(to: name, in: known).map { "did you mean '\($0)'? " } ?? ""
                throw SheafError("unknown option '\(arg)'", hint: hint + (hint.isEmpty ? "to" : "To") + " search for the word itself, put it after `--`")
            } else {
                words.append(arg)
            }
            i += 1
        }
        return ["search"] + options + ["--"] + words
    }

    /// `-nN` (`ls -n5`, `log -n2`) as `-n N`, as `search` takes it: ArgumentParser does not read a
    /// short option's value joined to it. Only before `--`, and only for the commands with `-n`.
    static func limitArguments(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, ["ls", "log"].contains(command) else { return arguments }
        var result: [String] = [command]
        for (i, arg) in arguments.enumerated().dropFirst() {
            if arg == "--" { result += arguments[i...]; break }
            if let limit = joinedLimit(arg) {
                result += ["-n", limit]
            } else {
                result.append(arg)
            }
        }
        return result
    }

    /// N of a `-nN` argument, nil for any other.
    private static func joinedLimit(_ arg: String) -> String? {
        guard arg.hasPrefix("-n"), arg.count > 2, arg.dropFirst(2).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(arg.dropFirst(2))
    }

    /// `sheaf daily -1` names a day, not an option: a `-N` or `-Nd` word goes after `--`.
    static func dailyArguments(_ arguments: [String]) -> [String] {
        guard arguments.first == "daily", !arguments.contains("--"),
              let i = arguments.firstIndex(where: { arg in
                  let digits = arg.dropFirst().hasSuffix("d") ? arg.dropFirst().dropLast() : arg.dropFirst()
                  return arg.hasPrefix("-") && !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
              }) else { return arguments }
        var rest = arguments
        let day = rest.remove(at: i)
        return rest + ["--", day]
    }

    /// The closest of `names` to a mistyped `word` (at most a third of its letters off), nil when
    /// none is close.
    static func closest(to word: String, in names: [String]) -> String? {
        let scored = names.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        guard let (name, d) = scored, d <= max(1, word.count / 3) else { return nil }
        return name
    }

    /// Edit distance with adjacent transpositions (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// An error for a first word that names no command, with the closest command if one is close.
    static func unknownCommand(_ arguments: [String], commands: [ParsableCommand.Type]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = commands.map { $0._commandName }
        if names.contains(first) || first == "help" { return nil }
        let hint = closest(to: first, in: names).map { "; did you mean '\($0)'?" } ?? "; `sheaf --help` lists the commands"
        return "sheaf: unknown command '\(first)'" + hint
    }
}
