// The note merge's only door to git's line merge: `LineMerge` (SheafGit) called with its
// `GitError` turned into `MergeFailure`, so the pure merge (NoteMerge, BodyMerge,
// FrontMatterMerge) throws an error of its own and never exposes a libgit2 type.
import SheafGit

/// The line merge could not run (libgit2's `git_merge_file` failed: out of memory, in practice).
public struct MergeFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed, with the library's own message.
    public let message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}

/// `LineMerge` with `MergeFailure` for its errors.
enum LineMergeCall {
    typealias Region = LineMerge.Region

    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8], favor: MergeFavor)
        throws(MergeFailure) -> (bytes: [UInt8], clean: Bool) {
        try wrap { () throws(GitError) in try LineMerge.merge(base: base, ours: ours, theirs: theirs, favor: favor) }
    }

    static func mergeBothWays(base: [UInt8], ours: [UInt8], theirs: [UInt8])
        throws(MergeFailure) -> (local: [UInt8], remote: [UInt8]?) {
        try wrap { () throws(GitError) in try LineMerge.mergeBothWays(base: base, ours: ours, theirs: theirs) }
    }

    static func regions(base: [UInt8], ours: [UInt8], theirs: [UInt8]) throws(MergeFailure) -> [LineMerge.Region]? {
        try wrap { () throws(GitError) in try LineMerge.regions(base: base, ours: ours, theirs: theirs) }
    }

    private static func wrap<T>(_ body: () throws(GitError) -> T) throws(MergeFailure) -> T {
        do { return try body() } catch { throw MergeFailure(message: error.description) }
    }
}
