// `sheaf watch`: keeps the vault's index fresh while it runs and syncs in the background
// (commits once local changes settle, fetches every --interval seconds). Runs in the foreground
// until SIGINT or SIGTERM, which finish the batch and the sync in progress and exit 0. Says one line per event on stderr, or with --json one JSON object per
// line on stdout, each with a `kind`, for scripts.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit
#if canImport(Glibc)
import Glibc
#endif

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "watch",
        abstract: "Keep the index fresh as files change, and sync in the background.",
        discussion: "Runs in the foreground until interrupted (Ctrl-C or SIGTERM). While it runs, read commands such as search answer without walking the vault. One watcher per vault: a second one exits with code 2, naming the first. See docs/watch.md.")

    @Flag(name: .customLong("no-sync"), help: "Only keep the index fresh; never commit or sync.") var noSync = false
    @Option(help: "Seconds between fetches of the remote.") var interval: Double = 60
    @Flag(help: "Print one JSON object per event on stdout.") var json = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        // At most a day: a wait much longer overflows the clock arithmetic Foundation's timed
        // waits do on Linux (a trap, not an error); to fetch only when edits settle, a day will do.
        guard interval >= 1, interval <= 86_400 else { throw ValidationError("--interval must be between 1 and 86400 seconds") }
    }

    func run() throws {
        let session = try global.open()
        var options = VaultWatchOptions()
        options.sync = !noSync
        options.interval = interval
        let stopper = WatchStopper()
        stopper.stopOnSignals([SIGINT, SIGTERM, SIGHUP])
        session.onLockWait = nil  // the watcher waits for writers quietly: that is its job
        let json = self.json
        try session.watch(options: options, stopper: stopper, events: { event in
            if json {
                Terminal.json(WatchEventJSON(event), pretty: false)
            } else if let line = WatchEventLine.text(event) {
                Terminal.err(line)
            }
        })
    }
}

/// How a watch event is shown.
enum WatchEventLine {
    /// The line on stderr; nil for what -q silences.
    static func text(_ event: WatchEvent) -> TerminalLine? {
        switch event {
        case let .started(pid, folders):
            return "sheaf: watching \(folders) folder\(folders == 1 ? "" : "s") (pid \(pid)); stop with Ctrl-C"
        case .indexed(let changes):
            return "sheaf: indexed " + summary(changes)
        case let .rescanned(reasons, changes):
            return "sheaf: rescanned (\(text: reasons.joined(separator: "; "))): " + summary(changes)
        case .stopped(let reason):
            return "sheaf: stopped: \(text: reason)"
        case let .synced(committed, pulled, pushed):
            var parts: [TerminalLine] = []
            if committed { parts.append("committed local changes") }
            if !pulled.isEmpty { parts.append("pulled " + summary(pulled)) }
            if pushed { parts.append("pushed") }
            return "sheaf: synced: " + (parts.isEmpty ? "nothing new" : .joined(parts, separator: ", "))
        case .committedLocally(let summary):
            return "sheaf: committed (not synced yet): \(text: summary)"
        case let .offline(remote, cause, retryIn):
            return "sheaf: cannot reach \(remote) (\(text: redactingCredentials(cause))); local commits are kept; retrying in \(Int(retryIn.rounded())) s"
        case .online(let remote):
            return "sheaf: \(remote) answers again"
        case .conflicts(let paths):
            return "sheaf: conflicts in \(names: paths); see `sheaf conflicts`"
        case .syncWaiting(let reason):
            return "sheaf: sync waits: \(text: reason)"
        case .problem(let error):
            return "\(error)"
        case .warning(let warning):
            return Terminal.quiet ? nil : "sheaf: warning: \(warning)"
        }
    }

    /// "3 changes: a.md, b.md, c.md" (the first few paths).
    static func summary(_ changes: VaultChangeSet) -> TerminalLine {
        let paths = changes.paths.map(\.path)
        let more: TerminalLine = paths.count > 3 ? ", and \(paths.count - 3) more" : ""
        return "\(changes.count) change\(changes.count == 1 ? "" : "s")" + (paths.isEmpty ? "" : ": \(names: paths.prefix(3))\(more)")
    }
}
