// A git repository opened through libgit2. The handle is owned by this class and freed in
// deinit; no C pointer leaves the module. Sheaf uses it for the vault's own repository:
// creating it (`init`), staging moves and deletions (`mv`, `rm`) and recording snapshots.
import CGit2
import Foundation

/// One change between the last commit and the staged tree.
public struct StagedChange: Sendable, Equatable {
    public typealias Kind = GitChangeKind
    public let kind: Kind
    /// Path in the work tree after the change (the old path for a deletion).
    public let path: String
    /// The path before a rename.
    public let oldPath: String?
}

/// A commit's identity and summary line.
public struct CommitInfo: Sendable, Equatable {
    public let id: String
    public let summary: String
}

public final class Repository {
    let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }
    deinit { git_repository_free(handle) }

    /// Opens the repository whose work tree is exactly `workTree` (no search upwards, so an
    /// enclosing repository is never picked up by accident). Returns nil when there is none.
    public static func open(workTree: String) throws(GitError) -> Repository? {
        Library.ensure()
        var repo: OpaquePointer?
        let flags = GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue
        let rc = git_repository_open_ext(&repo, workTree, flags, nil)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(rc, "git_repository_open_ext")
        return Repository(handle: repo!)
    }

    /// Creates a repository in `workTree` with `initialBranch` as its unborn HEAD.
    public static func create(workTree: String, initialBranch: String = "main") throws(GitError) -> Repository {
        Library.ensure()
        var options = git_repository_init_options()
        try check(git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
                  "git_repository_init_options_init")
        options.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue | GIT_REPOSITORY_INIT_NO_REINIT.rawValue
        var repo: OpaquePointer?
        let rc = initialBranch.withCString { branch -> Int32 in
            options.initial_head = branch
            return git_repository_init_ext(&repo, workTree, &options)
        }
        try check(rc, "git_repository_init_ext")
        return Repository(handle: repo!)
    }

    /// Creates a repository kept in `gitDirectory` whose work tree is `workTree`, a folder
    /// elsewhere (a share: its git folder lives in the vault's `.sheaf`, its files in the vault).
    /// Nothing is written into the work tree (no `.git` link file).
    public static func create(gitDirectory: String, workTree: String, initialBranch: String = "main") throws(GitError) -> Repository {
        Library.ensure()
        var options = git_repository_init_options()
        try check(git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
                  "git_repository_init_options_init")
        options.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue | GIT_REPOSITORY_INIT_NO_REINIT.rawValue
            | GIT_REPOSITORY_INIT_BARE.rawValue
        var repo: OpaquePointer?
        let rc = initialBranch.withCString { branch -> Int32 in
            options.initial_head = branch
            return git_repository_init_ext(&repo, gitDirectory, &options)
        }
        try check(rc, "git_repository_init_ext")
        git_repository_free(repo)
        guard let opened = try open(gitDirectory: gitDirectory, workTree: workTree) else {
            throw GitError(function: "git_repository_open_ext", code: .other(-3), message: "the new repository vanished")
        }
        // For git's own CLI (`git --git-dir=…`): the work tree is a folder of its own.
        try opened.setConfig("core.bare", "false")
        try opened.setConfig("core.worktree", workTree)
        return opened
    }

    /// Opens the repository kept in `gitDirectory` with `workTree` as its work tree (whatever its
    /// config says: the vault may have moved), or with none (its history read alone: the folder
    /// may be gone). Returns nil when there is none.
    public static func open(gitDirectory: String, workTree: String?) throws(GitError) -> Repository? {
        Library.ensure()
        var repo: OpaquePointer?
        let rc = git_repository_open_ext(&repo, gitDirectory, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue | GIT_REPOSITORY_OPEN_BARE.rawValue, nil)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(rc, "git_repository_open_ext")
        let opened = Repository(handle: repo!)
        if let workTree { try check(git_repository_set_workdir(repo, workTree, 0), "git_repository_set_workdir") }
        return opened
    }

    /// The `.git` folder, with a trailing slash removed.
    public var gitDirectory: String {
        var path = String(cString: git_repository_path(handle))
        while path.hasSuffix("/") && path.count > 1 { path.removeLast() }
        return path
    }

    /// The work tree folder, or nil for a bare repository.
    public var workTree: String? {
        guard let raw = git_repository_workdir(handle) else { return nil }
        var path = String(cString: raw)
        while path.hasSuffix("/") && path.count > 1 { path.removeLast() }
        return path
    }

    /// Whether git's ignore rules (.gitignore, info/exclude, core.excludesFile) ignore `path`,
    /// a path relative to the work tree.
    public func isIgnored(_ path: String) throws(GitError) -> Bool {
        var ignored: Int32 = 0
        try check(git_ignore_path_is_ignored(&ignored, handle, path), "git_ignore_path_is_ignored")
        return ignored != 0
    }

    /// The text of the ignore rules that live outside the work tree's .gitignore files:
    /// `info/exclude` and `core.excludesFile` (or, when unset, the XDG `git/ignore` file).
    /// Unreadable or missing files count as empty.
    public func outsideIgnoreRules() -> String {
        var paths = [gitDirectory + "/info/exclude"]
        var config: OpaquePointer?
        if git_repository_config_snapshot(&config, handle) == 0, let config {
            defer { git_config_free(config) }
            var buffer = git_buf()
            if git_config_get_path(&buffer, config, "core.excludesFile") == 0, let raw = buffer.ptr {
                paths.append(String(cString: raw))
            }
            git_buf_dispose(&buffer)
        }
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { paths.append(xdg + "/git/ignore") }
        if let home = environment["HOME"], !home.isEmpty { paths.append(home + "/.config/git/ignore") }
        return paths.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// The commit HEAD points at, or nil while the branch is unborn.
    public func head() throws(GitError) -> CommitInfo? {
        guard let commit = try peeledHead(GIT_OBJECT_COMMIT) else { return nil }
        defer { git_object_free(commit) }
        let summary = git_commit_summary(commit).map { String(cString: $0) } ?? ""
        return CommitInfo(id: Self.hex(git_object_id(commit)), summary: summary)
    }

    /// HEAD peeled to a commit or tree, nil while the branch is unborn. The caller frees it.
    func peeledHead(_ type: git_object_t) throws(GitError) -> OpaquePointer? {
        var ref: OpaquePointer?
        let rc = git_repository_head(&ref, handle)
        if rc == GIT_EUNBORNBRANCH.rawValue || rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(rc, "git_repository_head")
        defer { git_reference_free(ref) }
        var object: OpaquePointer?
        try check(git_reference_peel(&object, ref, type), "git_reference_peel")
        return object
    }

    static func hex(_ oid: UnsafePointer<git_oid>) -> String {
        var buffer = [CChar](repeating: 0, count: Int(GIT_OID_HEXSZ) + 1)
        git_oid_tostr(&buffer, buffer.count, oid)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Repository {
    /// Sets a key in the repository's own config (`.git/config`).
    public func setConfig(_ key: String, _ value: String) throws(GitError) {
        var config: OpaquePointer?
        try check(git_repository_config(&config, handle), "git_repository_config")
        defer { git_config_free(config) }
        var local: OpaquePointer?
        try check(git_config_open_level(&local, config, GIT_CONFIG_LEVEL_LOCAL), "git_config_open_level")
        defer { git_config_free(local) }
        try check(git_config_set_string(local, key, value), "git_config_set_string")
    }
}
