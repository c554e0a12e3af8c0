// The root command and the process entry: parse, run, and turn every failure into the exit
// codes of docs/exit-codes.md (0 success, 1 nothing matched, 2 any error, bad usage included).
import ArgumentParser
import Foundation
import SheafCore
#if canImport(Glibc)
import Glibc
#endif

/// Every command names itself (`commandName:`): without it, ArgumentParser derives the name with
/// `String(describing:)` of the type, whose protocol-conformance lookups scan every loaded image
/// and cost several milliseconds of every process start.
public struct Sheaf: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "sheaf",
        abstract: "A notes store that lives in plain files.",
        discussion: "Notes are markdown files with YAML front-matter in a folder tree; the vault is a git repository.",
        version: version,
        subcommands: [
            Init.self, New.self, Daily.self, Show.self, Edit.self, Append.self, Write.self, List.self, Move.self, Remove.self,
            Tags.self, Search.self, Backlinks.self, Index.self, Config.self,
            Status.self, Commit.self, Log.self, Restore.self, Pull.self, Push.self, SyncCommand.self, Remote.self, ShareCommand.self, Join.self, Shares.self, Unshare.self, Leave.self, Clone.self,
            Conflicts.self, Resolve.self, MergeFile.self, InstallMergeDriver.self,
            Attach.self, Attachments.self, Thumb.self, GC.self, Doctor.self, Watch.self, Lsp.self, Serve.self, Housekeep.self,
        ]
    )

    /// The global options before the command (`sheaf --vault V show NOTE`): the command line is
    /// parsed with them moved after the command (CommandNames.hoistingGlobalOptions), so they
    /// are read there; declared here too so that the completion scripts ArgumentParser writes
    /// know `--vault` takes a value and still find the command after it.
    @OptionGroup var global: GlobalOptions

    /// ArgumentParser's errors (usage, validation) speak as `sheaf: `, as Sheaf's own do, rather
    /// than as `Error: `: its own label, so no message text decides where an error begins.
    public static var _errorPrefix: String { "sheaf: " }

    public init() {}

    /// Runs the command line and exits with Sheaf's exit codes.
    public static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        signal(SIGPIPE, SIG_IGN)
        let arguments = CommandNames.limitArguments(CommandNames.dailyArguments(CommandNames.hoistingGlobalOptions(arguments)))
        if arguments == ["--version"] {
            // What ArgumentParser prints, without the tree of every command it builds first (3.75
            // of the 8.7 ms `sheaf --version` took): editors and scripts ask it to find Sheaf.
            Terminal.out(TerminalLine(verbatim: version))
            Glibc.exit(0)
        }
        if let message = CommandNames.unknownCommand(arguments, commands: configuration.subcommands) {
            Terminal.err("\(text: message)")
            Glibc.exit(2)
        }
        do {
            let sorted = try CommandNames.searchArguments(arguments)
            if let search = SearchRequest(sorted: sorted) {
                try search.run()  // no ArgumentParser: SearchRequest.swift says why
            } else {
                var command = try parse(sorted)
                try command.run()
            }
            Glibc.exit(0)
        } catch let error as SheafError {
            // Any URL in a message is shown without its user-info (a token or password).
            Terminal.err("\(error)")
            Glibc.exit(error.exitCode)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                Terminal.out(TerminalLine(verbatim: message))  // help, a completion script, completions
                Glibc.exit(0)
            }
            // ArgumentParser's lines quote what was typed: control characters escaped, line by line.
            let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
            if !message.isEmpty { Terminal.err(.joined(lines.map { "\(text: String($0))" }, separator: "\n")) }
            Glibc.exit(2)
        }
    }

    /// The command line parsed by the named command's own tree when that parse succeeds:
    /// ArgumentParser's parse from the root builds and checks the tree of every command first
    /// (several milliseconds of a process whose whole work may be 5, as git's merge driver).
    /// Help, completion requests and anything that does not parse go through the whole tree, so
    /// usage lines and messages still name `sheaf`.
    static func parse(_ arguments: [String]) throws -> ParsableCommand {
        let special = ["-h", "--help", "help", "--version", "--generate-completion-script", "--experimental-dump-help"]
        if let first = arguments.first,
           !arguments.contains(where: { word in special.contains(word) || word.hasPrefix("--generate-completion-script=") || word.hasPrefix("---") }),
           let type = configuration.subcommands.first(where: { $0._commandName == first }),
           let command = try? type.parseAsRoot(Array(arguments.dropFirst())) {
            return command
        }
        return try parseAsRoot(arguments)
    }
}
