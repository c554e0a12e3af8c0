// The error type of the note merge's public entry point. The line merge is pure Swift now
// (`Diff3`) and cannot fail; the type stays so callers keep one typed error to catch should
// a failing step come back (a size limit, say).

/// The merge could not run.
public struct MergeFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed.
    public let message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}
