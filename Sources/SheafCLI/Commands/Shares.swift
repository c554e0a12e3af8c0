// share, join, shares, unshare, leave: thin commands over SheafKit's shares (docs/sharing.md).
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "share",
        abstract: "Share a folder or one note through a remote of its own.",
        discussion: "Its files leave the vault's repository (one commit) and become the first commit of the share's own repository, pushed to URL; nothing on disk moves. Whoever can read the URL can `sheaf join` it. The vault's other devices join it by themselves when they sync.")
    @Argument(help: "A folder of the vault, or a note.") var path: String
    @Option(help: "The share's remote: any git URL (credentials come from git's credential helper).") var remote: String
    @Flag(help: "Record the key of an ssh host that ~/.ssh/known_hosts does not list yet.") var acceptNewHost = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        var options = SyncOptions()
        options.acceptNewHost = acceptNewHost
        let report = try session.share(path, remote: VaultSession.absoluteRemote(remote), options: options)
        if let commit = report.vaultCommit { Terminal.out("committed \(commit.id.prefix(7)) \(text: commit.summary)") }
        Terminal.out("shared \(report.path) (\(report.files) file\(report.files == 1 ? "" : "s")) with \(report.remote)")
        if let warning = report.warning { Terminal.err("sheaf: \(text: warning)") }
    }
}

struct Join: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "join",
        abstract: "Take part in a share someone made: its notes appear in FOLDER.",
        discussion: "FOLDER (default: a folder named after the URL) must be new or empty, unless the vault already lists that share there (one on a host this device does not sync with waits for this command: `sheaf shares` shows it as needs-approval). The share syncs with `sheaf sync` like the vault; edits that overlap give conflict files inside the share.")
    @Argument(help: "The share's URL.") var url: String
    @Argument(help: "Where its notes appear.") var folder: String?
    @Flag(help: "Record the key of an ssh host that ~/.ssh/known_hosts does not list yet.") var acceptNewHost = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        var options = SyncOptions()
        options.acceptNewHost = acceptNewHost
        let report = try session.join(VaultSession.absoluteRemote(url), at: folder, options: options)
        Terminal.out("joined \(report.remote) at \(report.path) (\(report.files) file\(report.files == 1 ? "" : "s"))")
    }
}

struct Shares: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "shares",
        abstract: "List the vault's shares and their state.")
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let statuses = try global.open().shareStatuses()
        if json { Terminal.json(ShareListJSON(statuses)); return }
        if statuses.isEmpty { Terminal.out("no shares (share a folder with `sheaf share FOLDER --remote URL`)"); return }
        for status in statuses { Terminal.out(Self.line(status)) }
    }

    static func line(_ status: ShareStatus) -> TerminalLine {
        var state = status.state.rawValue
        if status.ahead > 0 { state += ", \(status.ahead) to push" }
        if status.behind > 0 { state += ", \(status.behind) to pull" }
        if status.conflicts > 0 { state += ", \(status.conflicts) conflict file\(status.conflicts == 1 ? "" : "s")" }
        let last: TerminalLine = status.lastError.map { "  (\($0))" } ?? ""
        return "\(status.path)\(status.isNote ? "" : "/")\t\(status.remote)\t\(state)\(last)"
    }
}

struct Unshare: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "unshare",
        abstract: "Stop sharing: the share's notes return to the vault's repository.",
        discussion: "The share is synced one last time; its remote keeps its history, and people who joined it keep their copies.")
    @Argument(help: "The shared folder or note.") var path: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let run = try global.open().unshare(path)
        if let error = run.error { Terminal.err("sheaf: the last sync of the share failed: \(text: error.summary)") }
        if let commit = run.vaultCommit { Terminal.out("committed \(commit.id.prefix(7)) \(text: commit.summary)") }
        Terminal.out("\(run.path) is no longer shared; its notes are the vault's again")
    }
}

struct Leave: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "leave",
        abstract: "Stop syncing a share; its notes stay here as the vault's, or go with --remove-files.")
    @Argument(help: "The share's folder.") var path: String
    @Flag(help: "Delete the share's files from this vault (its remote keeps them); refused while edits are not synced.") var removeFiles = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let commit = try global.open().leave(path, removeFiles: removeFiles)
        if let commit { Terminal.out("committed \(commit.id.prefix(7)) \(text: commit.summary)") }
        Terminal.out(removeFiles ? "left \(path); its files were removed" : "left \(path); its files stay as notes of this vault")
    }
}
