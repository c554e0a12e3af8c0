// One word for each kind of change to a vault path, in every Kit result: added, changed,
// removed, renamed, as `VaultChangeSet` (SheafCore) names its sets. git's own words (edited,
// deleted) stay inside SheafGit and in the commit messages, whose format is fixed (CommitMessage).
import SheafCore
import SheafGit

/// One path's change: in the work tree (`status`) or in a commit (`log NOTE`).
public struct VaultChange: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case added, changed, removed, renamed
    }

    public let kind: Kind
    /// The path after the change (for a removal, the path the file had).
    public let path: String
    /// The path before a rename.
    public let oldPath: String?

    public init(kind: Kind, path: String, oldPath: String? = nil) {
        self.kind = kind
        self.path = path
        self.oldPath = oldPath
    }

    init(_ change: StagedChange) {
        self.init(kind: Kind(change.kind), path: change.path, oldPath: change.oldPath)
    }
}

extension VaultChange.Kind {
    /// The word the commit messages use (`2 edited, 1 deleted`), which `status --json` and
    /// `log --json` version 1 report as `kind` (docs/json.md): edited for changed, deleted for removed.
    public var committedWord: String {
        switch self {
        case .added: "added"
        case .changed: "edited"
        case .removed: "deleted"
        case .renamed: "renamed"
        }
    }

    init(_ kind: StagedChange.Kind) {
        switch kind {
        case .added: self = .added
        case .edited: self = .changed
        case .deleted: self = .removed
        case .renamed: self = .renamed
        }
    }

    init(_ kind: PathChange.Kind) {
        switch kind {
        case .added: self = .added
        case .edited: self = .changed
        case .deleted: self = .removed
        case .renamed: self = .renamed
        }
    }
}
