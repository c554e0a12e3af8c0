// commit, pull, push, sync: thin commands over SheafKit's sync. Exit codes (docs/exit-codes.md): 0
// done, 1 when conflict files were written (everything is safe), 75 when the remote cannot be
// reached (local commits kept), 2 for errors.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Commit: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "commit",
        abstract: "Record every change in the vault as one commit.",
        discussion: "pull, push, sync and rm do this on their own first. The message lists the paths: `sheaf: <device>: 2 edited, 1 added`.")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        session.defersHousekeeping = true
        defer { Housekeeping.startIfDue(session) }  // git gc --auto, once this has answered (Housekeep.swift)
        let commit = try session.commit()
        if json {
            Terminal.json(CommitJSON(commit))
        } else if Terminal.quiet {
            return  // -q: no summary, as `git commit -q`
        } else if let commit {
            Terminal.out("\(commit.id.prefix(7)) \(text: commit.summary)")
        } else {
            Terminal.out("nothing to commit")
        }
    }
}

/// Options shared by pull, push and sync.
struct RemoteOptions: ParsableArguments {
    @Argument(help: "The remote (default: config `remote`, else origin).") var remote: String?
    @Flag(help: "Record the key of an ssh host that ~/.ssh/known_hosts does not list yet.") var acceptNewHost = false
    @Flag(help: "Merge a remote whose history shares nothing with this vault's.") var allowUnrelated = false
    @Flag(help: "Print JSON.") var json = false

    /// Opens the vault, runs one of pull, push or sync with a progress bar, and reports.
    func run(_ global: GlobalOptions, label: String,
             _ action: (VaultSession, SyncOptions) throws -> SyncRun) throws {
        let session = try global.open()
        session.defersHousekeeping = true
        defer { Housekeeping.startIfDue(session) }  // git gc --auto, once this has answered (Housekeep.swift)
        let (options, bar) = self.options(progressLabel: label)
        let run = try action(session, options)
        bar?.finish()
        try SyncOutput.report(run, json: json)
    }

    func options(progressLabel: String) -> (SyncOptions, ProgressBar?) {
        var options = SyncOptions()
        options.remote = remote
        options.acceptNewHost = acceptNewHost
        options.allowUnrelated = allowUnrelated
        let bar = ProgressBar.callback(progressLabel)
        if let (update, _) = bar { options.progress = { update($0.done, $0.total) } }
        return (options, bar?.1)
    }
}

struct Pull: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "pull",
        abstract: "Fetch the remote's commits and merge them, note by note.",
        discussion: "Local changes are committed first. Edits that overlap leave a conflict file beside the note (exit 1); the note itself never holds conflict markers. --dry-run fetches and prints what a pull would do to each path, changing nothing else.")
    @OptionGroup var remote: RemoteOptions
    @Flag(help: "Fetch and show what a pull would do, without committing, writing files or moving the branch.")
    var dryRun = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        guard dryRun else {
            try remote.run(global, label: "fetching") { try $0.pull($1) }
            return
        }
        let session = try global.open()
        let (options, bar) = remote.options(progressLabel: "fetching")
        let preview = try session.previewPull(options)
        bar?.finish()
        if remote.json {
            Terminal.json(PullPreviewJSON(preview))
            return
        }
        Self.describe(preview.pull, uncommitted: preview.uncommitted, remote: preview.remote, quietWhenUpToDate: false)
        for share in preview.shares {
            if let pull = share.pull {
                Self.describe(pull, uncommitted: share.uncommitted, remote: "the share \(share.path)", quietWhenUpToDate: true)
            }
            if let error = share.error { Terminal.err("sheaf: share \(share.path): \(text: error.summary)") }
        }
    }

    static func describe(_ pull: PullReport, uncommitted: [String], remote: String, quietWhenUpToDate: Bool) {
        switch pull.kind {
        case .upToDate: if !quietWhenUpToDate { Terminal.out("already up to date with \(remote)") }
        case .remoteEmpty: Terminal.out("\(remote) has no commits yet")
        case .fastForward, .merged:
            for o in pull.outcomes { Terminal.out(SyncOutput.line(o)) }
            let n = pull.outcomes.count
            Terminal.out("a pull would \(pull.kind == .merged ? "merge" : "fast-forward") \(n) path\(n == 1 ? "" : "s") from \(remote)"
                + (pull.conflicts > 0 ? ", \(pull.conflicts) with a conflict file" : "") + " (dry run: nothing changed)")
        }
        SyncOutput.refusals(pull)
        if !uncommitted.isEmpty {
            Terminal.err("sheaf: a pull commits \(uncommitted.count) uncommitted change\(uncommitted.count == 1 ? "" : "s") first; this preview includes \(uncommitted.count == 1 ? "it" : "them"):")
            for path in uncommitted.prefix(20) { Terminal.err("  \(path)") }
        }
    }
}

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "push",
        abstract: "Send local commits to the remote.",
        discussion: "Local changes are committed first. A push the remote refuses needs a pull first; `sheaf sync` does both.")
    @OptionGroup var remote: RemoteOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try remote.run(global, label: "pushing") { try $0.push($1) }
    }
}

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "sync",
        abstract: "Commit, pull and merge, then push.",
        discussion: "A push refused because the remote moved meanwhile is retried after a new pull, up to 3 times. Offline, the local commit is kept and sync exits 75.")
    @OptionGroup var remote: RemoteOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try remote.run(global, label: "syncing") { try $0.sync($1) }
    }
}

enum SyncOutput {
    static func report(_ run: SyncRun, json: Bool) throws {
        if json {
            Terminal.json(SyncJSON(run))
        } else {
            if run.resumed { Terminal.err("sheaf: finished the sync a stopped command had left half done") }
            if let commit = run.committed { Terminal.out("committed \(commit.id.prefix(7)) \(text: commit.summary)") }
            if let pull = run.pull { describe(pull, remote: run.remote) }
            for entry in run.arrivedConflicts {
                Terminal.err("sheaf: conflict: \(entry.original) has a conflict file from another device: \(entry.path)")
            }
            if !run.arrivedConflicts.isEmpty {
                Terminal.err("  hint: `sheaf resolve NOTE --keep local|remote|both` settles one; `sheaf conflicts` lists them")
            }
            if let t = run.thumbnails, t.helperMissing != nil { warnThumbnails(t) }
            if let t = run.thumbnails, t.made + t.reused + t.failed.count > 0 {
                Terminal.out("thumbnails: \(t.made) made, \(t.reused) reused" + (t.failed.isEmpty ? "" : ", \(t.failed.count) failed"))
            }
            if let push = run.push {
                Terminal.out(push.pushed == 0 ? "nothing to push" : "pushed \(push.pushed) commit\(push.pushed == 1 ? "" : "s") to \(run.remote)")
            }
        }
        for warning in run.warnings { Terminal.err("sheaf: \(warning)") }
        if !json { for share in run.shares { describe(share) } }
        // A share that failed fails the command after everything else was done: 2, then 75.
        let failed = run.shares.compactMap(\.error)
        if failed.contains(where: { $0.kind != .offline }) { throw ExitCode(2) }
        if !failed.isEmpty { throw ExitCode(75) }
        // Conflict files to settle, written by this pull or brought by it from another device.
        let shareConflicts = run.shares.contains { ($0.pull?.conflicts ?? 0) > 0 }
        if (run.pull.map { $0.conflicts > 0 } ?? false) || shareConflicts || !run.arrivedConflicts.isEmpty { throw ExitCode(1) }
    }

    /// One share's sync, said only when it did something or failed.
    static func describe(_ share: ShareRun) {
        let name = "share \(share.path)"
        if share.joined { Terminal.out("joined the \(name)") }
        if let commit = share.committed { Terminal.out("\(name): committed \(commit.id.prefix(7)) \(text: commit.summary)") }
        if let pull = share.pull, pull.kind == .fastForward || pull.kind == .merged || !pull.refused.isEmpty { describe(pull, remote: name) }
        if let push = share.push, push.pushed > 0 { Terminal.out("pushed \(push.pushed) commit\(push.pushed == 1 ? "" : "s") to the \(name)") }
        if share.toldReadOnly {
            Terminal.err("sheaf: \(name) is read-only for you: its remote refused the push; your edits stay here (committed) and later pulls merge around them")
        }
        if let error = share.error { Terminal.err("sheaf: \(name): \(text: error.summary)" + (error.hint.map { "\n  hint: \($0)" } ?? "")) }
    }

    static func describe(_ pull: PullReport, remote: String) {
        switch pull.kind {
        case .upToDate: Terminal.out("already up to date with \(remote)")
        case .remoteEmpty: Terminal.out("\(remote) has no commits yet")
        case .fastForward, .merged:
            for o in pull.outcomes { Terminal.out(line(o)) }
            let n = pull.outcomes.count
            Terminal.out("\(pull.kind == .merged ? "merged" : "fast-forwarded") \(n) path\(n == 1 ? "" : "s") from \(remote)"
                + (pull.conflicts > 0 ? ", \(pull.conflicts) with a conflict file" : ""))
        }
        refusals(pull)
        for path in pull.keptLocalEdits {
            Terminal.err("sheaf: \(path) changed while the pull ran; your edit was kept and merged in")
        }
        if pull.conflicts > 0 {
            Terminal.err("sheaf: edits overlapped: each note keeps your side, its conflict file the remote's")
            Terminal.err("  hint: `sheaf conflicts` lists them; `sheaf resolve NOTE --keep local|remote|both` settles one")
        }
    }

    /// What a pull leaves out of the vault (refused paths, submodules): said by the pull and by
    /// its preview alike.
    static func refusals(_ pull: PullReport) {
        for refused in pull.refused {
            Terminal.err("sheaf: not written, unsafe path from the remote: \(refused.path)\n  cause: \(text: refused.reason)")
        }
        for path in pull.gitlinks {
            Terminal.err("sheaf: \(path) is a git submodule; Sheaf keeps it in git but does not check it out")
        }
    }

    static func line(_ o: VaultChange) -> TerminalLine {
        let label = o.kind.pulledWord.padding(toLength: 11, withPad: " ", startingAt: 0)
        let from: TerminalLine = o.oldPath.map { "\($0) -> " } ?? ""
        let conflict: TerminalLine = o.conflictFile.map { "  (remote side: \($0))" } ?? ""
        return "  \(label) \(from)\(o.path)\(conflict)"
    }
}
