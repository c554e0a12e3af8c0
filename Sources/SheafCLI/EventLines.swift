// How the CLI shows a session's events (`VaultEvent`, one stream for lock waits, stale answers,
// progress, warnings and what `watch` reports): lines on stderr, a progress bar, or for
// `watch --json` one JSON object per line on stdout. A command subscribes one of these once.
import Foundation
import SheafCore
import SheafKit

enum EventLines {
    /// What every command but `watch` shows: each event's lines on stderr, index progress as a bar.
    static func command() -> @Sendable (VaultEvent) -> Void {
        let progress = ProgressBar.callback("indexing")?.0
        return { event in
            if case let .indexProgress(done, total) = event { progress?(done, total) }
            for line in lines(event) { Terminal.err(line) }
        }
    }

    /// What `watch` shows on stderr: the same lines, but it waits for writers quietly (that is
    /// its job).
    static func watch() -> @Sendable (VaultEvent) -> Void {
        { event in
            if event == .lockWait { return }
            for line in lines(event) { Terminal.err(line) }
        }
    }

    /// `watch --json`: one object per line on stdout for the events docs/json.md lists.
    static let watchJSON: @Sendable (VaultEvent) -> Void = { event in
        if let document = WatchEventJSON(event) { Terminal.json(document, pretty: false) }
    }

    /// The lines on stderr for an event; none for what -q silences (and for progress, a bar).
    static func lines(_ event: VaultEvent) -> [TerminalLine] {
        func warning(_ line: TerminalLine) -> [TerminalLine] { Terminal.quiet ? [] : ["sheaf: warning: " + line] }
        switch event {
        case .lockWait:
            return warning("waiting for another sheaf command to finish (it holds .sheaf/lock)")
        case .indexBusy:
            return warning("another sheaf command is updating the index; answering from the index as it is")
        case .indexStale(let error):
            return warning("answering from the index as it is, without this command's update") + ["\(error)"]
        case .indexProgress:
            return []
        case .watcherVouched:
            return Terminal.verbose ? ["sheaf: the watcher vouches for the index: no walk"] : []
        case let .started(pid, folders):
            return ["sheaf: watching \(folders) folder\(folders == 1 ? "" : "s") (pid \(pid)); stop with Ctrl-C"]
        case .indexed(let changes):
            return ["sheaf: indexed " + summary(changes)]
        case let .rescanned(reasons, changes):
            return ["sheaf: rescanned (\(text: reasons.joined(separator: "; "))): " + summary(changes)]
        case .stopped(let reason):
            return ["sheaf: stopped: \(text: reason)"]
        case let .synced(committed, pulled, pushed):
            var parts: [TerminalLine] = []
            if committed { parts.append("committed local changes") }
            if !pulled.isEmpty { parts.append("pulled " + summary(pulled)) }
            if pushed { parts.append("pushed") }
            return ["sheaf: synced: " + (parts.isEmpty ? "nothing new" : .joined(parts, separator: ", "))]
        case .committedLocally(let summary):
            return ["sheaf: committed (not synced yet): \(text: summary)"]
        case let .offline(remote, cause, retryIn):
            return ["sheaf: cannot reach \(remote) (\(text: redactingCredentials(cause))); local commits are kept; retrying in \(Int(retryIn.rounded())) s"]
        case .online(let remote):
            return ["sheaf: \(remote) answers again"]
        case .conflicts(let paths):
            return ["sheaf: conflicts in \(names: paths); see `sheaf conflicts`"]
        case .syncWaiting(let reason):
            return ["sheaf: sync waits: \(text: reason)"]
        case .problem(let error):
            return ["\(error)"]
        case .warning(let w):
            return warning("\(w)")
        }
    }

    /// "3 changes: a.md, b.md, c.md" (the first few paths).
    static func summary(_ changes: VaultChangeSet) -> TerminalLine {
        let paths = changes.paths.map(\.path)
        let more: TerminalLine = paths.count > 3 ? ", and \(paths.count - 3) more" : ""
        return "\(changes.count) change\(changes.count == 1 ? "" : "s")" + (paths.isEmpty ? "" : ": \(names: paths.prefix(3))\(more)")
    }
}
