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
        let session = try global.open(showingEvents: false)
        var options = VaultWatchOptions()
        options.sync = !noSync
        options.interval = interval
        let stopper = WatchStopper()
        stopper.stopOnSignals([SIGINT, SIGTERM, SIGHUP])
        session.subscribe(json ? EventLines.watchJSON : EventLines.watch())
        try session.watch(options: options, stopper: stopper)
    }
}
