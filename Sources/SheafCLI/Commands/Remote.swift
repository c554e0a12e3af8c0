import ArgumentParser
import SheafCore
import SheafKit

struct Remote: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "remote",
        abstract: "List, add or remove remotes (any git URL: a path, file://, ssh://, user@host:path, https://, git://).",
        subcommands: [RemoteList.self, RemoteAdd.self, RemoteRemove.self],
        defaultSubcommand: RemoteList.self)
}

struct RemoteList: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(commandName: "list", abstract: "List the remotes.")
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let remotes = try global.open().remotes()
        if json {
            Terminal.json(RemoteListJSON(remotes))
        } else {
            for r in remotes { Terminal.out("\(r.name)\t\(r.url)") }
        }
    }
}

struct RemoteAdd: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(commandName: "add", abstract: "Add a remote.")
    @Argument(help: "Its name, such as origin.") var name: String
    @Argument(help: "Its URL.") var url: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try global.open().addRemote(name: name, url: VaultSession.absoluteRemote(url))
    }
}

struct RemoteRemove: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(commandName: "remove", abstract: "Remove a remote.", aliases: ["rm"])
    @Argument(help: "The remote's name.") var name: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try global.open().removeRemote(name: name)
    }
}

struct Clone: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "clone",
        abstract: "Make a new vault from a remote one.",
        discussion: "Creates DIR with the remote's notes, remote `origin` set, and the index built.")

    @Argument(help: "The remote vault's URL.") var url: String
    @Argument(help: "The folder to create.") var dir: String
    @Option(help: "The branch to check out.") var branch = "main"
    @Flag(help: "Record the key of an ssh host that ~/.ssh/known_hosts does not list yet.") var acceptNewHost = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        var options = SyncOptions()
        options.acceptNewHost = acceptNewHost
        let bar = ProgressBar.callback("cloning")
        if let (update, _) = bar { options.progress = { update($0.done, $0.total) } }
        let (session, run) = try VaultSession.clone(url: url, into: dir, branch: branch, options: options)
        bar?.1.finish()
        let count = run.pull?.outcomes.count ?? 0
        Terminal.out("cloned \(count) file\(count == 1 ? "" : "s") into \(session.vault.root)")
        // What the clone left out or found (a pull says the same): refused paths, submodules,
        // files it could not read, conflict files another device left to settle.
        if let pull = run.pull { SyncOutput.refusals(pull) }
        for warning in run.warnings { Terminal.err("sheaf: \(warning)") }
        for entry in run.arrivedConflicts {
            Terminal.err("sheaf: conflict: \(entry.original) has a conflict file from another device: \(entry.path)")
        }
    }
}
