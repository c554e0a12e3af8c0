// The one owner of the commit messages Sheaf writes and reads back. Every message starts
// `sheaf: <device>: ` (docs/json.md and README: `sheaf: laptop: 2 edited, 1 added`), then a
// summary, then a body with one line per path. A pull reads the device back from the remote's
// commit to name conflict files; nothing else parses these messages.
import SheafGit

public enum CommitMessage {
    static let prefix = "sheaf: "

    /// The message of a commit of the work tree: `sheaf: <device>: 2 edited, 1 added`, then
    /// `edited: a.md`, `renamed: old.md -> new.md`, one line per path.
    public static func snapshot(device: String, changes: [StagedChange]) -> String {
        var counts: [StagedChange.Kind: Int] = [:]
        for c in changes { counts[c.kind, default: 0] += 1 }
        let order: [StagedChange.Kind] = [.edited, .added, .deleted, .renamed]
        let summary = order.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
        let body = changes.map { change -> String in
            switch change.kind {
            case .renamed: return "renamed: \(change.oldPath ?? "") -> \(change.path)"
            default: return "\(change.kind.rawValue): \(change.path)"
            }
        }
        return prefix + "\(device): \(summary)\n\n" + body.joined(separator: "\n") + "\n"
    }

    /// The message of a pull's merge commit: `sheaf: <device>: merge origin/main: 1 merged`.
    static func merge(device: String, remote: String, branch: String, outcomes: [PathOutcome]) -> String {
        var counts: [PathOutcome.Kind: Int] = [:]
        for o in outcomes { counts[o.kind, default: 0] += 1 }
        let order: [PathOutcome.Kind] = [.updated, .merged, .conflict, .resurrected, .renamed, .added, .deleted]
        let summary = order.compactMap { k in counts[k].map { "\($0) \(k.rawValue)" } }.joined(separator: ", ")
        let body = outcomes.map { o in
            "\(o.kind.rawValue): \(o.oldPath.map { "\($0) -> " } ?? "")\(o.path)\(o.conflictFile.map { " (\($0))" } ?? "")"
        }
        return prefix + "\(device): merge \(remote)/\(branch)" + (summary.isEmpty ? "" : ": \(summary)") + "\n\n"
            + body.joined(separator: "\n") + "\n"
    }

    /// The body lines naming the paths a pull refused, appended to the merge message.
    static func refusedLines(_ refused: [RefusedPath]) -> String {
        refused.map { "refused: \($0.path) (\($0.reason))" }.joined(separator: "\n") + "\n"
    }

    /// The message of the commit that leaves a remote's unsafe paths out.
    static func leftOut(device: String, remote: String, branch: String, refused: [RefusedPath]) -> String {
        prefix + "\(device): left out \(refused.count) unsafe path\(refused.count == 1 ? "" : "s") of \(remote)/\(branch)\n\n"
            + refusedLines(refused)
    }

    /// The message of the vault's commit that hands paths to its shares (and records the list of
    /// shares): `sheaf: <device>: 3 handed to shares`, one line per path.
    public static func handOver(device: String, changes: [StagedChange]) -> String {
        let moved = changes.filter { $0.kind == .deleted }.count
        let body = changes.map { "\($0.kind == .deleted ? "handed over" : $0.kind.rawValue): \($0.path)" }
        return prefix + "\(device): \(moved) handed to shares\n\n" + body.joined(separator: "\n") + "\n"
    }

    /// The message of the commit a device that joins a share it had through the vault starts the
    /// share's repository from (never pushed: the share's own commit replaces it).
    public static func handedOverBase(device: String) -> String {
        prefix + "\(device): the share's files as the vault had them"
    }

    /// The message of the virtual ancestor made of two merge bases (never a branch's commit).
    static let virtualAncestor = prefix + "virtual ancestor"

    /// The reflog message of a push.
    static let pushReflog = prefix + "push"

    /// The device a Sheaf message names in its summary line, nil for any other message.
    public static func device(inSummary summary: String) -> String? {
        guard summary.hasPrefix(prefix) else { return nil }
        let rest = summary.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":"), colon > rest.startIndex else { return nil }
        return String(rest[..<colon])
    }
}
