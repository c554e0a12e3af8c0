/// An error written for the person at the terminal: what happened, to which path, why, and
/// what to do next. Rendered as `sheaf: <what>: <path>` with the cause and hint on their own lines.
/// Callers that must tell errors apart look at `kind`, never at the message text.
public struct SheafError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What a caller may act upon; the text is for people only.
    public enum Kind: Sendable, Equatable {
        /// Any error without a distinct handling (exit 2).
        case failure
        /// No note answers to the name given (`NoteLookup`).
        case noNoteMatches
        /// The index could not be written (full disk, read-only folder, I/O error); a read
        /// command may still answer from the index as it is.
        case indexNotWritable
        /// The remote could not be reached; local commits are kept (exit 75).
        case offline
        /// Files to commit were changed within the settle time asked for (`details` names
        /// them): nothing was committed; the caller waits and tries again.
        case unsettled
    }

    public var what: String
    public var path: String?
    public var cause: String?
    /// Lines listed under the cause, one item each (the notes an ambiguous name matches): each
    /// stays a line of its own however the CLI escapes the names in it.
    public var details: [String]
    public var hint: String?
    /// What kind of failure this is; the exit code follows from it (docs/exit-codes.md).
    public var kind: Kind

    /// The process exit code (docs: README, exit codes): 75 when a remote could not be reached,
    /// 2 for every other error.
    public var exitCode: Int32 { kind == .offline ? 75 : 2 }

    public init(_ what: String, path: String? = nil, cause: String? = nil, details: [String] = [], hint: String? = nil,
                kind: Kind = .failure) {
        self.what = what
        self.path = path
        self.cause = cause
        self.details = details
        self.hint = hint
        self.kind = kind
    }

    public var description: String { rendered(path: { $0 }, text: { $0 }) }

    /// The message with its path passed through `path` and its words (what, cause, details, hint) through
    /// `text`: the CLI escapes the control characters a name may bring (docs/output.md).
    public func rendered(path show: (String) -> String, text: (String) -> String) -> String {
        var out = "sheaf: " + text(what)
        if let path { out += ": " + show(path) }
        if let cause { out += "\n  cause: " + text(cause) }
        for line in details { out += "\n    " + text(line) }
        if let hint { out += "\n  hint: " + text(hint) }
        return out
    }
}

extension SheafError {
    /// What happened and why, as one line (a warning, a share's error in a sync's report).
    public var summary: String { [what, cause].compactMap { $0 }.joined(separator: ": ") }
}
