// A repository handle opened the first time it is asked for: the walk's, so that a walk that
// meets no ignore rule never starts libgit2 (VaultSession.walker).
import Foundation
import SheafGit

final class LazyRepository: @unchecked Sendable {
    private let workTree: String
    private let lock = NSLock()
    private var opened: Repository??

    init(workTree: String) { self.workTree = workTree }

    /// The repository of the work tree, nil when there is none or it cannot be opened.
    var repository: Repository? {
        lock.lock()
        defer { lock.unlock() }
        if let opened { return opened }
        let repo = (try? Repository.open(workTree: workTree)) ?? nil
        opened = .some(repo)
        return repo
    }
}
