// Remotes, `status` and `clone`: the vault's place relative to its remote. A URL's user-info
// never reaches `.git/config`: `remote add` and `clone` store the URL without it and give an
// https password to git's credential helper (`git credential approve`); with no helper
// configured they refuse, rather than keep the secret anywhere in the vault. Listings show
// URLs through `RemoteURL.redacted`.
import Foundation
import SheafCore
import SheafFiles
import SheafGit
import SheafSync

/// What `sheaf status` shows.
public struct VaultStatus: Sendable {
    public let branch: String?
    /// Uncommitted changes: the work tree against HEAD.
    public let changes: [VaultChange]
    public let remote: String?
    /// Local commits not on the remote, and remote commits not here, as of the last fetch.
    public let ahead: Int
    public let behind: Int
    public let interruptedSync: Bool
    /// Conflict files waiting to be settled, each with its note (what `sheaf conflicts` lists).
    public internal(set) var conflicts: [ConflictEntry] = []
    /// Each share's state (`sheaf shares`); their uncommitted changes are in `changes`.
    public internal(set) var shares: [ShareStatus] = []
}

/// A remote of the vault: its name and URL (user-info in it shown as `***`).
public struct VaultRemote: Sendable, Equatable {
    public let name: String
    public let url: String
}

extension VaultSession {
    /// The remotes, their URLs redacted for display (`RemoteURL.redacted`).
    public func remotes() throws(SheafError) -> [VaultRemote] {
        try gitStep("cannot read the remotes") { (repo) throws(GitError) in try repo.remotes() }
            .map { VaultRemote(name: $0.name, url: RemoteURL.redacted($0.url)) }
    }

    /// Adds a remote. The URL is stored without user-info; an https password in it goes to
    /// git's credential helper.
    public func addRemote(name: String, url: String) throws(SheafError) {
        guard !url.trimmingHorizontalWhitespace.isEmpty else {
            throw SheafError("the remote's URL is empty", path: name,
                             hint: "give a path, an ssh or https URL: `sheaf remote add \(RemoteURL.redacting(name)) URL`")
        }
        if let local = RemoteURL.localPath(url),
           let target = VaultWalker.realPath(Self.absoluteRemote(local)),
           target == VaultWalker.realPath(vault.root) {
            throw SheafError("a vault cannot be its own remote", path: url,
                             hint: "give the path of a bare repository elsewhere (`git init --bare DIR`)")
        }
        let plan = try Self.credentialPlan(for: url, checkingFrom: vault.root)
        guard try gitStep("cannot read the remotes", { (repo) throws(GitError) in try repo.remoteURL(name) }) == nil else {
            throw SheafError("a remote of that name exists", path: RemoteURL.redacting(name),
                             hint: "remove it first with `sheaf remote remove \(RemoteURL.redacting(name))`")
        }
        try gitStep("cannot add the remote") { (repo) throws(GitError) in try repo.addRemote(name: name, url: plan.url) }
        if let credential = plan.credential {
            try Self.approve(credential, for: plan.url, in: vault.root)
        }
    }

    /// A remote URL as Sheaf stores it, and the credential its user-info held.
    struct CredentialPlan {
        let url: String
        let credential: RemoteCredential?
        let user: String?
    }

    /// Splits the user-info off a URL. A password is accepted only for https (git's credential
    /// helpers keep it), and only when a helper is configured to take it.
    static func credentialPlan(for url: String, checkingFrom directory: String) throws(SheafError) -> CredentialPlan {
        guard RemoteURL.localPath(url) != nil || RemoteURL.parts(url) != nil else {
            throw SheafError("cannot read the remote's host", path: RemoteURL.redacted(url),
                             cause: "a host is plain ASCII letters, digits, dots and dashes (or an IPv6 address in brackets), "
                                 + "and the user name and password before it hold no second @",
                             hint: "write the host as DNS has it (punycode for a non-ASCII name), and percent-encode @ as %40")
        }
        let split = RemoteURL.withoutUserInfo(url)
        guard let password = split.password else {
            return CredentialPlan(url: split.url, credential: nil, user: RemoteURL.isHTTP(url) ? split.user : nil)
        }
        guard RemoteURL.isHTTP(url) else {
            throw SheafError("the URL holds a password", path: RemoteURL.redacted(url),
                             hint: "Sheaf takes passwords for https remotes only; ssh remotes use keys (ssh-agent or ~/.ssh/id_ed25519)")
        }
        guard CredentialHelper.helperConfigured(for: split.url, in: directory) else {
            throw SheafError("the URL holds a password, and git has no credential helper to keep it", path: RemoteURL.redacted(url),
                             cause: "Sheaf never stores a password in the vault",
                             hint: "set one up (`git config --global credential.helper store`, or `cache` to keep it in memory), "
                                 + "or give the URL without the password and set SHEAF_HTTP_USER and SHEAF_HTTP_TOKEN")
        }
        let credential = RemoteCredential(user: split.user ?? "", password: password)
        return CredentialPlan(url: split.url, credential: credential, user: split.user)
    }

    static func approve(_ credential: RemoteCredential, for url: String, in directory: String) throws(SheafError) {
        let given = HTTPCredential(user: credential.user, password: credential.password)
        guard CredentialHelper.approve(url: url, credential: given, in: directory) else {
            throw SheafError("git's credential helper did not take the password", path: RemoteURL.redacted(url),
                             hint: "check `git config credential.helper`; the remote was added without it")
        }
    }

    public func removeRemote(name: String) throws(SheafError) {
        guard try remotes().contains(where: { $0.name == name }) else {
            throw SheafError("no such remote", path: name, hint: "see `sheaf remote list`")
        }
        try gitStep("cannot remove the remote") { (repo) throws(GitError) in try repo.removeRemote(name: name) }
    }

    public func status() throws(SheafError) -> VaultStatus {
        var status: VaultStatus
        do { status = try readStatus() } catch {
            guard let repo = try? requireRepository(), Self.gitIndexIsDamaged(repo) else { throw error }
            throw SheafError("git's index cannot be read", path: repo.gitDirectory + "/index", cause: error.cause,
                             hint: "`sheaf commit` or `sheaf sync` rebuilds it from the last commit (the notes are not touched)")
        }
        status.conflicts = try conflicts()
        status.shares = try shareStatuses()
        return status
    }

    private func readStatus() throws(SheafError) -> VaultStatus {
        let remote = config["remote"] ?? "origin"
        return try gitStep("cannot read the vault's status") { (repo) throws(GitError) in
            let workTree = try repo.workTreeStatus()
            // A share's files are its own repository's: their changes as it sees them.
            let shares = shareList()
            var changes = workTree.changes.filter { shares.share(holding: $0.path) == nil }.map(VaultChange.init)
            changes += shareChanges(shares)
            for skipped in workTree.skipped { emit(.warning(VaultWarning(path: skipped.path, message: skipped.reason))) }
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
        // A path that is not there is a mistyped path, not a remote that is offline for now: a
        // clone has no local commits to keep and nothing to retry (a vault's remote folder that
        // goes away later, an unplugged drive, is offline as before).
        if let local = RemoteURL.localPath(url), !fm.fileExists(atPath: absoluteRemote(local)) {
            throw SheafError("the remote's folder does not exist", path: url, hint: "check the path, or mount the drive that holds it")
        }
        let existed = fm.fileExists(atPath: root)
        if existed, let items = try? fm.contentsOfDirectory(atPath: root), !items.isEmpty {
            throw SheafError("the folder is not empty", path: root, hint: "clone into a new folder")
        }
        // Refused before anything is made when a password in the URL would have nowhere to go.
        let plan = try credentialPlan(for: url, checkingFrom: fm.currentDirectoryPath)
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
            try session.gitStep("cannot add the remote") { (repo) throws(GitError) in
                try repo.addRemote(name: "origin", url: Self.absoluteRemote(plan.url))
            }
            var pullOptions = options
            pullOptions.remote = "origin"
            // The password is used for this clone, and kept by git's helper once it worked.
            pullOptions.credential = plan.credential
            pullOptions.user = plan.user
            let run = try session.pull(pullOptions)
            if run.pull?.kind == .remoteEmpty {
                throw SheafError("the remote has no branch \(branch)", path: RemoteURL.redacted(url),
                                 hint: "name the branch with --branch, or push a vault there first")
            }
            if let credential = plan.credential {
                try approve(credential, for: plan.url, in: root)
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
    /// An empty URL stays empty (it names nothing, not the working folder).
    public static func absoluteRemote(_ url: String) -> String {
        guard let local = RemoteURL.localPath(url), !local.isEmpty, !url.contains("://"), !url.hasPrefix("/") else { return url }
        return Vault.absolutePath(url, from: FileManager.default.currentDirectoryPath)
    }

    func gitStep<T>(_ what: String, _ body: (Repository) throws(GitError) -> T) throws(SheafError) -> T {
        let repo = try requireRepository()
        do { return try body(repo) } catch {
            throw SheafError(what, path: vault.root, cause: error.description)
        }
    }
}
