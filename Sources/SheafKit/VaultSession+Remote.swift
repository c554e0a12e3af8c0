// Remotes, `status` and `clone`: the vault's place relative to its remote.
import Foundation
import SheafCore
import SheafGit
import SheafSync

/// What `sheaf status` shows.
public struct VaultStatus: Sendable {
    public let branch: String?
    public let changes: [StagedChange]
    public let remote: String?
    /// Local commits not on the remote, and remote commits not here, as of the last fetch.
    public let ahead: Int
    public let behind: Int
    public let interruptedSync: Bool
}

extension VaultSession {
    public func remotes() throws(SheafError) -> [RemoteInfo] {
        try gitStep("cannot read the remotes") { (repo) throws(GitError) in try repo.remotes() }
    }

    public func addRemote(name: String, url: String) throws(SheafError) {
        try gitStep("cannot add the remote") { (repo) throws(GitError) in try repo.addRemote(name: name, url: url) }
    }

    public func removeRemote(name: String) throws(SheafError) {
        guard try remotes().contains(where: { $0.name == name }) else {
            throw SheafError("no such remote", path: name, hint: "see `sheaf remote list`")
        }
        try gitStep("cannot remove the remote") { (repo) throws(GitError) in try repo.removeRemote(name: name) }
    }

    public func status() throws(SheafError) -> VaultStatus {
        let remote = config["remote"] ?? "origin"
        return try gitStep("cannot read the vault's status") { (repo) throws(GitError) in
            let workTree = try repo.workTreeStatus()
            let changes = workTree.changes
            for skipped in workTree.skipped { onWarning?(VaultWarning(path: skipped.path, message: skipped.reason)) }
            let reference = try? repo.currentBranchReference()
            let branch = reference.map { String($0.dropFirst("refs/heads/".count)) }
            let hasRemote = try repo.remoteURL(remote) != nil
            var ahead = 0, behind = 0
            if let head = try repo.head()?.id {
                let tracking = try branch.flatMap { (b) throws(GitError) in try repo.referenceTarget("refs/remotes/\(remote)/\(b)") }
                if let tracking { (ahead, behind) = try repo.aheadBehind(local: head, upstream: tracking) }
                else if hasRemote { ahead = try repo.commitCount(head) }
            }
            return VaultStatus(branch: branch, changes: changes, remote: hasRemote ? remote : nil, ahead: ahead,
                               behind: behind, interruptedSync: FileManager.default.fileExists(atPath: syncJournal))
        }
    }

    /// `sheaf clone URL DIR`: a new vault whose remote `origin` is URL, with the remote's branch
    /// checked out. A folder this made is removed again when the clone fails.
    public static func clone(url: String, into folder: String, branch: String, options: SyncOptions) throws(SheafError) -> (VaultSession, SyncRun) {
        let fm = FileManager.default
        let root = Vault.absolutePath(folder, from: fm.currentDirectoryPath)
        let existed = fm.fileExists(atPath: root)
        if existed, let items = try? fm.contentsOfDirectory(atPath: root), !items.isEmpty {
            throw SheafError("the folder is not empty", path: root, hint: "clone into a new folder")
        }
        do throws(SheafError) {
            do { try fm.createDirectory(atPath: root, withIntermediateDirectories: true) }
            catch { throw SheafError("cannot create the folder", path: root, cause: error.localizedDescription) }
            do {
                _ = try Repository.create(workTree: root, initialBranch: branch)
            } catch {
                throw SheafError("cannot create the repository", path: root, cause: error.description)
            }
            _ = try initialize(folder: root)
            let session = VaultSession(vault: Vault(root: root), workingDirectory: root)
            try session.addRemote(name: "origin", url: Self.absoluteRemote(url))
            var pullOptions = options
            pullOptions.remote = "origin"
            let run = try session.pull(pullOptions)
            if run.pull?.kind == .remoteEmpty {
                throw SheafError("the remote has no branch \(branch)", path: url,
                                 hint: "name the branch with --branch, or push a vault there first")
            }
            return (session, run)
        } catch {
            if existed {
                for item in (try? fm.contentsOfDirectory(atPath: root)) ?? [] { try? fm.removeItem(atPath: root + "/" + item) }
            } else {
                try? fm.removeItem(atPath: root)
            }
            throw error
        }
    }

    /// A local path remote as an absolute path (a relative one would break from another folder).
    public static func absoluteRemote(_ url: String) -> String {
        if url.contains("://") || url.hasPrefix("/") { return url }
        // scp-style `user@host:path` and `host:path` stay as they are.
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") { return url }
        return Vault.absolutePath(url, from: FileManager.default.currentDirectoryPath)
    }

    func gitStep<T>(_ what: String, _ body: (Repository) throws(GitError) -> T) throws(SheafError) -> T {
        let repo = try requireRepository()
        do { return try body(repo) } catch {
            throw SheafError(what, path: vault.root, cause: error.description)
        }
    }
}
