/// An error written for the person at the terminal: what happened, to which path, why, and
/// what to do next. Rendered as `sheaf: <what>: <path>` with the cause and hint on their own lines.
public struct SheafError: Error, CustomStringConvertible, Sendable, Equatable {
    public var what: String
    public var path: String?
    public var cause: String?
    public var hint: String?
    /// The process exit code: 2 for errors, 75 when a remote could not be reached
    /// (docs/exit-codes.md).
    public var exitCode: Int32

    public init(_ what: String, path: String? = nil, cause: String? = nil, hint: String? = nil, exitCode: Int32 = 2) {
        self.what = what
        self.path = path
        self.cause = cause
        self.hint = hint
        self.exitCode = exitCode
    }

    public var description: String {
        var out = "sheaf: " + what
        if let path { out += ": " + path }
        if let cause { out += "\n  cause: " + cause }
        if let hint { out += "\n  hint: " + hint }
        return out
    }
}
