// git's words for what happened to a path, one enum for the staged status, a path's history and
// the diff of two trees (they were three enums with the same cases, one saying `modified`).
// Kit turns it into its own vocabulary (`ChangeKind`); the commit messages use these words.

/// What a change did to a path: added, edited, deleted or renamed.
public enum GitChangeKind: String, Sendable { case added, edited, deleted, renamed }
