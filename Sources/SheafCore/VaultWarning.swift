// The one shape of a warning about a path, from every layer: the walk (a folder it cannot
// read, a name that is not UTF-8), a note that cannot be read safely, staging, a pull's steps
// after the merge. Commands print it as `<path>: <message>`; `--json` reports it the same way.

/// A warning about one path (vault-relative; `.` for the vault itself), shown once per command.
public struct VaultWarning: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
