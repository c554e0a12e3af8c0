// What part of its work tree a repository holds, when that is not all of it: a note share's
// repository holds one file of the folder it lives in, and the vault's repository leaves the
// files of its shares on disk when its tree lets go of them (the hand-over to a share's own
// repository). Sync uses it on the remote's commit (a path the remote may not write is refused)
// and on the work tree (a file handed to a share is never deleted from disk).
public struct SyncScope: Sendable {
    /// Why the remote may not write `path` (a share-relative path outside a note share), or nil;
    /// nil when the remote may write anywhere (the whole tree is then not listed for it).
    public let refusal: (@Sendable (String) -> String?)?
    /// Whether the file at `path` stays on disk when the commit drops it (handed over).
    public let keepOnDisk: @Sendable (String) -> Bool

    /// Whether the local commit never holds a path `refusal` refuses (the vault's commits leave
    /// every share's files out): then only the entries a remote's commit changes are asked.
    public let localCommitHoldsNoRefusedPath: Bool

    public init(refusal: (@Sendable (String) -> String?)? = nil,
                keepOnDisk: @escaping @Sendable (String) -> Bool = { _ in false },
                localCommitHoldsNoRefusedPath: Bool = false) {
        self.refusal = refusal
        self.keepOnDisk = keepOnDisk
        self.localCommitHoldsNoRefusedPath = localCommitHoldsNoRefusedPath
    }
}
