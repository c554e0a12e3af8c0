// A fetch that runs while the caller commits the vault's local changes. A pull (and sync) must
// commit first and fetch next; the two touch different things (the commit: the work tree,
// `.git/index`, the branch and loose objects; the fetch: the remote's packs and its tracking ref),
// and the fetch mostly waits (on the network, or on git's child processes for a remote on this
// machine), so they overlap: the fetch goes on its own thread with its own repository handle
// (libgit2 handles are not shared between threads), the merge starts once both are done. The
// merge reads the local branch after the commit, as before; only the wait is shared.
import Foundation
import SheafCore
import SheafGit

public final class PendingFetch: @unchecked Sendable {
    /// The branch and the remote's URL, read before the fetch started.
    let branch: String
    let url: String
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    /// The remote branch's commit (nil: the remote has no such branch), or the fetch's error.
    private var outcome: Result<String?, GitError>?

    init(branch: String, url: String, gitDirectory: String, workTree: String, remote: String, options: TransferOptions,
         slots: DispatchSemaphore?) {
        self.branch = branch
        self.url = url
        // libgit2's transports and pack indexer recurse: 4 MB of stack.
        WorkerThread.start(name: "sheaf-fetch", stackSize: 1 << 22) { [self] in
            let result: Result<String?, GitError>
            slots?.wait()
            defer { slots?.signal() }
            do throws(GitError) {
                guard let repository = try Repository.open(gitDirectory: gitDirectory, workTree: workTree) else {
                    throw GitError(function: "git_repository_open_ext", code: .other(-1), message: "the repository is gone")
                }
                result = .success(try repository.fetch(remote: remote, branch: branch, options: options))
            } catch {
                result = .failure(error)
            }
            lock.withLock { outcome = result }
            done.signal()
        }
    }

    /// Waits for the fetch to end and gives its outcome (again on later calls).
    public func wait() -> Result<String?, GitError> {
        done.wait()
        done.signal()
        return lock.withLock { outcome! }
    }
}

extension Syncer {
    /// Starts fetching the remote branch on another thread (see PendingFetch); `pull` or `sync`
    /// given the result merges it. Errors about the branch or the remote are thrown here, before
    /// anything starts.
    /// With `slots`, the fetch waits for one first (shares fetch in parallel, a few at a time).
    public func startFetch(slots: DispatchSemaphore? = nil) throws(SyncError) -> PendingFetch {
        let branch = try branch()
        let url = try remoteURL()
        guard let workTree = repository.workTree else {
            throw .git(GitError(function: "fetch", code: .other(-1), message: "the repository has no work tree"))
        }
        return PendingFetch(branch: branch, url: url, gitDirectory: repository.gitDirectory, workTree: workTree, remote: remote,
                            options: transfer, slots: slots)
    }
}
