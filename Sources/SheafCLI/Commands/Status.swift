import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "status",
        abstract: "Show uncommitted changes and how the vault stands against its remote.",
        discussion: "Ahead and behind count commits as of the last pull or push; status itself never uses the network.")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let status = try session.status()
        let watch = session.watchStatus()
        if json {
            Terminal.json(StatusJSON(status, watch: watch))
            return
        }
        if status.interruptedSync { Terminal.out("a sync was stopped half way; the next sheaf command finishes it") }
        Terminal.out("on branch \(status.branch ?? "(detached)")")
        if let remote = status.remote {
            switch (status.ahead, status.behind) {
            case (0, 0): Terminal.out("in step with \(remote) as of the last sync")
            case (let a, 0): Terminal.out("\(a) commit\(a == 1 ? "" : "s") to push to \(remote)")
            case (0, let b): Terminal.out("\(b) commit\(b == 1 ? "" : "s") to pull from \(remote)")
            case (let a, let b): Terminal.out("\(a) to push, \(b) to pull: `sheaf sync` merges them")
            }
        } else {
            Terminal.out("no remote: add one with `sheaf remote add origin URL`")
        }
        if status.changes.isEmpty {
            Terminal.out("no uncommitted changes")
        } else {
            Terminal.out("uncommitted changes:")
            for c in status.changes {
                let what = c.kind.committedWord.padding(toLength: 8, withPad: " ", startingAt: 0)
                let from: TerminalLine = c.oldPath.map { "\($0) -> " } ?? ""
                Terminal.out("  \(what) \(from)\(c.path)")
            }
        }
        if !status.conflicts.isEmpty {
            // As git lists unmerged paths: each note, then its conflict files.
            // By bytes: the conflicts of `café.md` in NFC and in NFD are two notes' conflicts.
            let notes = Dictionary(grouping: status.conflicts, by: { PathKey($0.original) })
            Terminal.out("notes with conflicts (`sheaf resolve NOTE --keep local|remote|both` settles one):")
            for note in notes.keys.sorted(by: { PathBytes.sortsBefore($0.path, $1.path) }) {
                Terminal.out("  conflict \(note.path)  (\(notes[note]!.map(\.path).joined(separator: ", ")))")
            }
        }
        if !status.shares.isEmpty {
            Terminal.out("shares (each syncs with its own remote):")
            for share in status.shares { Terminal.out("  " + Shares.line(share)) }
        }
        for line in Self.watchLines(watch) { Terminal.out(line) }
    }

    /// What `status` says about `sheaf watch` and its background sync.
    static func watchLines(_ watch: WatchStatus) -> [TerminalLine] {
        func when(_ seconds: Int64) -> String { Terminal.date(Date(timeIntervalSince1970: TimeInterval(seconds))) }
        var lines: [TerminalLine] = []
        switch watch.state {
        case .none:
            lines.append("no watcher runs: `sheaf watch` keeps the index fresh and syncs in the background")
        case .running:
            lines.append("watched by process \(watch.pid ?? 0) since \(when(watch.since ?? 0))")
        case .stopped:
            lines.append("the watcher, process \(watch.pid ?? 0), is stopped (suspended): nothing is indexed or synced until it continues")
        case .gone:
            lines.append("no watcher runs (process \(watch.pid ?? 0), which watched since \(when(watch.since ?? 0)), is gone)")
        }
        guard let sync = watch.sync else { return lines }
        let current = watch.syncIsCurrent
        if let at = sync.lastAttempt, let result = sync.lastResult {
            let label = current ? "last sync" : "last background sync"
            let message: TerminalLine = sync.lastMessage.map { ": \(text: $0)" } ?? ""
            lines.append("  \(label): \(when(at)), \(result.rawValue)\(message)")
        }
        guard current else { return lines }
        if let since = sync.offlineSince { lines.append("  offline since \(when(since)); local commits are kept") }
        if let waiting = sync.waiting { lines.append("  waiting: \(text: waiting)") }
        if !sync.writing.isEmpty {
            lines.append("  waiting for files being written: \(names: sync.writing)")
        }
        if let next = sync.nextAttempt { lines.append("  next sync: \(when(next))") }
        return lines
    }
}
