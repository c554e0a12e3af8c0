// What a pull did, in Kit's words: each path a `VaultChange` (the one change vocabulary), the
// remote entries it refused, the submodules it left in git. Made from SheafSync's report.
import SheafCore
import SheafSync

/// What a pull did (or, in a preview, would do).
public struct PullReport: Sendable {
    public enum Kind: String, Sendable {
        case upToDate = "up-to-date", fastForward = "fast-forward", merged, remoteEmpty = "remote-empty"
    }
    public var kind: Kind
    /// The remote's commit it merged or moved to.
    public var remoteCommit: String?
    /// The local commit after it.
    public var head: String?
    /// What it did to each path.
    public var outcomes: [VaultChange]
    /// Files an editor changed while the pull wrote them: the edit was kept and merged in.
    public var keptLocalEdits: [String]
    /// Paths of the remote's commit not taken because they are unsafe, or not written because
    /// the way there is unsafe here.
    public var refused: [RefusedPath]
    /// Submodules of the remote's commit, kept in git but not written into the vault.
    public var gitlinks: [String]
    /// The vault paths it added, changed, removed or moved in the work tree.
    public var changes: VaultChangeSet
    /// How many paths got a conflict file.
    public var conflicts: Int { outcomes.filter { $0.kind == .conflict }.count }

    init(_ report: SheafSync.PullReport) {
        switch report.kind {
        case .upToDate: kind = .upToDate
        case .fastForward: kind = .fastForward
        case .merged: kind = .merged
        case .remoteEmpty: kind = .remoteEmpty
        }
        remoteCommit = report.remoteCommit
        head = report.head
        outcomes = report.outcomes.map(VaultChange.init)
        keptLocalEdits = report.keptLocalEdits
        refused = report.refused.map { RefusedPath(path: $0.path, reason: $0.reason) }
        gitlinks = report.gitlinks
        changes = report.changes
    }
}

/// A path of the remote's commit a pull did not write, and why.
public struct RefusedPath: Sendable, Equatable {
    /// The path as text (bytes that are not UTF-8 shown as U+FFFD).
    public let path: String
    public let reason: String
}
