// Every command's configuration names `sheaf` as its super-command. `Sheaf.parse` parses a command
// line with the named command's own tree (the whole tree costs several milliseconds of start-up);
// with this, that command still shows `sheaf <command>` in its usage and help, and ArgumentParser
// skips its completion-script check (a request for a completion script goes through the whole tree).
import ArgumentParser

extension CommandConfiguration {
    /// A configuration whose usage lines read `sheaf <commandName> ...` however it is parsed.
    static func sheaf(commandName: String, abstract: String = "", discussion: String = "",
                      subcommands: [ParsableCommand.Type] = [], defaultSubcommand: ParsableCommand.Type? = nil,
                      aliases: [String] = [], shouldDisplay: Bool = true) -> CommandConfiguration {
        CommandConfiguration(commandName: commandName, _superCommandName: "sheaf", abstract: abstract,
                             discussion: discussion, shouldDisplay: shouldDisplay, subcommands: subcommands,
                             defaultSubcommand: defaultSubcommand, aliases: aliases)
    }
}
