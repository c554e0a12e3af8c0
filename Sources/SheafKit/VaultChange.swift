// One vocabulary for what happened to a vault path, in every Kit result from `status` to a
// pull's report and `log`: added, changed, removed, renamed (as `VaultChangeSet`, SheafCore,
// names its sets, and `watch`'s events with it), and for a pull merged, conflict, resurrected.
// git's own words (edited, deleted) and the pull's (updated) stay inside the lower modules, in
// the commit messages, whose format is fixed (CommitMessage), and in JSON version 1's `kind`
// (`committedWord`, `pulledWord`).
import SheafCore
import SheafGit
import SheafSync

/// What happened to a path.
public enum ChangeKind: String, Sendable, CaseIterable, Codable {
    case added, changed, removed, renamed
    /// Changed on both sides and merged without overlap (a pull).
    case merged
    /// Changed on both sides with overlap (a pull): the note keeps the local side, its conflict
    /// file the remote's.
    case conflict
    /// Deleted on one side and edited on the other (a pull): the edit came back.
    case resurrected
}

/// One path's change: in the work tree (`status`), in a commit (`log NOTE`), or what a pull did.
public struct VaultChange: Sendable, Equatable, Codable {
    public let kind: ChangeKind
    /// The path after the change (for a removal, the path the file had).
    public let path: String
    /// The path before a rename.
    public let oldPath: String?
    /// For a pull's `.conflict`: the conflict file beside the note, holding the remote's side.
    public let conflictFile: String?

    public init(kind: ChangeKind, path: String, oldPath: String? = nil, conflictFile: String? = nil) {
        self.kind = kind
        self.path = path
        self.oldPath = oldPath
        self.conflictFile = conflictFile
    }

    init(_ change: StagedChange) {
        self.init(kind: ChangeKind(change.kind), path: change.path, oldPath: change.oldPath)
    }

    init(_ outcome: PathOutcome) {
        self.init(kind: ChangeKind(outcome.kind), path: outcome.path, oldPath: outcome.oldPath, conflictFile: outcome.conflictFile)
    }
}

extension ChangeKind {
    /// The word the commit messages use (`2 edited, 1 deleted`), which `status --json` and
    /// `log --json` version 1 report as `kind` (docs/json.md): edited for changed, deleted for removed.
    public var committedWord: String {
        switch self {
        case .changed: "edited"
        case .removed: "deleted"
        default: rawValue
        }
    }

    /// The word a pull's report uses for a path (`pull --json` version 1, docs/json.md, and the
    /// lines `pull` prints): updated for changed, deleted for removed.
    public var pulledWord: String {
        switch self {
        case .changed: "updated"
        case .removed: "deleted"
        default: rawValue
        }
    }

    init(_ kind: GitChangeKind) {
        switch kind {
        case .added: self = .added
        case .edited: self = .changed
        case .deleted: self = .removed
        case .renamed: self = .renamed
        }
    }

    init(_ kind: PathOutcome.Kind) {
        switch kind {
        case .updated: self = .changed
        case .merged: self = .merged
        case .conflict: self = .conflict
        case .resurrected: self = .resurrected
        case .renamed: self = .renamed
        case .added: self = .added
        case .deleted: self = .removed
        }
    }
}
