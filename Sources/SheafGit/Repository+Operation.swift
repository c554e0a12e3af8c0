// A git command the user started in the vault and has not finished: a merge with unresolved
// conflicts (MERGE_HEAD), a rebase (rebase-merge/, rebase-apply/), a cherry-pick, a revert,
// `git am` or a bisect. Sheaf must not commit in the middle of one: its snapshot would record
// only one parent of the merge (or a half-replayed branch), and the next sync would merge again.
import CGit2

/// A git operation in progress, as git's own state files say.
public enum GitOperation: String, Sendable {
    case merge, rebase, cherryPick = "cherry-pick", revert, applyMailbox = "am", bisect

    /// The git commands that finish or cancel it.
    public var howToFinish: String {
        switch self {
        case .merge: return "resolve the conflicts and run `git commit`, or cancel the merge with `git merge --abort`"
        case .rebase: return "finish it with `git rebase --continue`, or cancel it with `git rebase --abort`"
        case .cherryPick: return "finish it with `git cherry-pick --continue`, or cancel it with `git cherry-pick --abort`"
        case .revert: return "finish it with `git revert --continue`, or cancel it with `git revert --abort`"
        case .applyMailbox: return "finish it with `git am --continue`, or cancel it with `git am --abort`"
        case .bisect: return "end it with `git bisect reset`"
        }
    }
}

extension Repository {
    /// The operation git has in progress in this repository, nil when none.
    public func operationInProgress() -> GitOperation? {
        switch git_repository_state(handle) {
        case Int32(GIT_REPOSITORY_STATE_MERGE.rawValue): return .merge
        case Int32(GIT_REPOSITORY_STATE_REVERT.rawValue), Int32(GIT_REPOSITORY_STATE_REVERT_SEQUENCE.rawValue): return .revert
        case Int32(GIT_REPOSITORY_STATE_CHERRYPICK.rawValue), Int32(GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE.rawValue): return .cherryPick
        case Int32(GIT_REPOSITORY_STATE_BISECT.rawValue): return .bisect
        case Int32(GIT_REPOSITORY_STATE_REBASE.rawValue), Int32(GIT_REPOSITORY_STATE_REBASE_INTERACTIVE.rawValue),
             Int32(GIT_REPOSITORY_STATE_REBASE_MERGE.rawValue), Int32(GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE.rawValue):
            return .rebase
        case Int32(GIT_REPOSITORY_STATE_APPLY_MAILBOX.rawValue): return .applyMailbox
        default: return nil
        }
    }
}
