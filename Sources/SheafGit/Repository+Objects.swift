// Reading and writing objects: commits by revision, blobs by path in a commit, new blobs, trees
// and commits built in memory, and moving the branch. The sync engine builds its merge commit
// entirely in the object database before it touches the work tree.
import CGit2
import Foundation

/// A commit as Sheaf uses it.
public struct CommitDetails: Sendable, Equatable {
    public let id: String
    public let parents: [String]
    public let time: Date
    public let authorName: String
    public let message: String
    public var summary: String { message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "" }
}

/// A file in a tree: its blob and mode.
public struct TreeFile: Sendable, Equatable {
    public let blob: String
    public let mode: UInt32
    public var isExecutable: Bool { mode == 0o100755 }
    public var isSymlink: Bool { mode == 0o120000 }
    public init(blob: String, mode: UInt32) {
        self.blob = blob
        self.mode = mode
    }
}

/// One change to make to a tree: put a blob at a path, or remove the path.
public enum TreeEdit: Sendable, Equatable {
    case put(path: String, blob: String, mode: UInt32)
    case remove(path: String)
}

extension Repository {
    /// The commit a revision names (`HEAD`, a branch, `origin/main`, an id or prefix, `HEAD~2`),
    /// nil when it names nothing.
    public func resolveCommit(_ revision: String) throws(GitError) -> String? {
        var object: OpaquePointer?
        let rc = git_revparse_single(&object, handle, revision)
        if rc == GIT_ENOTFOUND.rawValue || rc == GIT_EAMBIGUOUS.rawValue || rc == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(rc, "git_revparse_single")
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        guard git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(commit) }
        return Self.hex(git_object_id(commit))
    }

    public func commitDetails(_ id: String) throws(GitError) -> CommitDetails {
        try withCommit(id) { commit in
            let parents = (0..<git_commit_parentcount(commit)).map { Self.hex(git_commit_parent_id(commit, $0)) }
            let author = git_commit_author(commit)!.pointee
            return CommitDetails(
                id: id, parents: parents,
                time: Date(timeIntervalSince1970: TimeInterval(git_commit_time(commit))),
                authorName: author.name.map { String(cString: $0) } ?? "",
                message: git_commit_message(commit).map { String(cString: $0) } ?? "")
        }
    }

    /// The file at `path` in a commit's tree, nil when absent or not a file.
    public func file(at path: String, inCommit id: String) throws(GitError) -> TreeFile? {
        try withCommit(id) { (commit) throws(GitError) -> TreeFile? in
            var tree: OpaquePointer?
            try check(git_commit_tree(&tree, commit), "git_commit_tree")
            defer { git_tree_free(tree) }
            var entry: OpaquePointer?
            let rc = git_tree_entry_bypath(&entry, tree, path)
            if rc == GIT_ENOTFOUND.rawValue { return nil }
            try check(rc, "git_tree_entry_bypath")
            defer { git_tree_entry_free(entry) }
            guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
            return TreeFile(blob: Self.hex(git_tree_entry_id(entry)), mode: git_tree_entry_filemode(entry).rawValue)
        }
    }

    /// Every file of a commit's tree with its path, in the tree's order. A list, not a table keyed
    /// by String: Swift compares strings by canonical equivalence, and `café.md` in NFC and in NFD
    /// are two files (a table of them kept one, and the tree merge took the other for it).
    public func files(inCommit id: String) throws(GitError) -> [(path: String, file: TreeFile)] {
        let index = try MemoryIndex(repository: self, commit: id)
        return index.files()
    }

    /// A blob's bytes.
    public func blobBytes(_ id: String) throws(GitError) -> [UInt8] {
        var oid = try Self.oid(id)
        var blob: OpaquePointer?
        try check(git_blob_lookup(&blob, handle, &oid), "git_blob_lookup")
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let raw = git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: raw, count: size).bindMemory(to: UInt8.self))
    }

    /// Writes bytes as a blob and returns its id.
    public func createBlob(_ bytes: [UInt8]) throws(GitError) -> String {
        var oid = git_oid()
        let rc = bytes.withUnsafeBytes { git_blob_create_from_buffer(&oid, handle, $0.baseAddress, $0.count) }
        try check(rc, "git_blob_create_from_buffer")
        return Self.hex(&oid)
    }

    /// The blob id git would give these bytes, without writing them.
    public static func blobID(of bytes: [UInt8]) throws(GitError) -> String {
        Library.ensure()
        var oid = git_oid()
        let rc = bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        try check(rc, "git_odb_hash")
        return hex(&oid)
    }

    /// Applies edits to a commit's tree (or to an empty tree) and writes the new tree.
    public func tree(applying edits: [TreeEdit], toCommit id: String?) throws(GitError) -> String {
        let index = try MemoryIndex(repository: self, commit: id)
        for edit in edits { try index.apply(edit) }
        return try index.writeTree()
    }

    /// Creates a commit object without moving any branch. The author comes from git config,
    /// else `fallbackName`.
    public func createCommit(tree treeID: String, parents: [String], message: String,
                             fallbackName: String) throws(GitError) -> String {
        var tid = try Self.oid(treeID)
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, handle, &tid), "git_tree_lookup")
        defer { git_tree_free(tree) }
        let signature = try defaultSignature(fallbackName: fallbackName)
        defer { git_signature_free(signature) }
        var parentObjects: [OpaquePointer?] = []
        defer { parentObjects.forEach { git_commit_free($0) } }
        for parent in parents {
            var oid = try Self.oid(parent)
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, handle, &oid), "git_commit_lookup")
            parentObjects.append(commit)
        }
        var commitID = git_oid()
        let rc = parentObjects.withUnsafeMutableBufferPointer { buffer in
            git_commit_create(&commitID, handle, nil, signature, signature, "UTF-8", message, tree,
                              buffer.count, buffer.baseAddress)
        }
        try check(rc, "git_commit_create")
        return Self.hex(&commitID)
    }

    /// The signature from git config (user.name, user.email), else one made from `fallbackName`.
    func defaultSignature(fallbackName: String) throws(GitError) -> UnsafeMutablePointer<git_signature>? {
        var signature: UnsafeMutablePointer<git_signature>?
        if git_signature_default(&signature, handle) < 0 {
            try check(git_signature_now(&signature, fallbackName, "\(fallbackName)@sheaf.invalid"), "git_signature_now")
        }
        return signature
    }

    /// Points the current branch (HEAD's target, also when unborn) at `id`. `expected` is the
    /// commit the branch must still be at (nil: unborn); a branch moved by someone else meanwhile
    /// is an error, not an overwrite.
    public func moveBranch(to id: String, expected: String?, message: String) throws(GitError) {
        var oid = try Self.oid(id)
        let name = try currentBranchReference()
        var ref: OpaquePointer?
        if let expected {
            var old = try Self.oid(expected)
            try check(git_reference_create_matching(&ref, handle, name, &oid, 1, &old, message),
                      "git_reference_create_matching")
        } else {
            try check(git_reference_create(&ref, handle, name, &oid, 0, message), "git_reference_create")
        }
        git_reference_free(ref)
    }

    /// `refs/heads/<name>` of the branch HEAD points at (also when unborn). A detached HEAD is an error.
    public func currentBranchReference() throws(GitError) -> String {
        var head: OpaquePointer?
        try check(git_reference_lookup(&head, handle, "HEAD"), "git_reference_lookup")
        defer { git_reference_free(head) }
        guard git_reference_type(head) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(head) else {
            throw GitError(function: "git_reference_symbolic_target", code: .other(-1), message: "HEAD is detached")
        }
        return String(cString: target)
    }

    /// Sets a reference (such as `refs/remotes/origin/main`) to a commit, creating it if needed.
    /// A reference whose lock another process holds (a `git fetch` writing the same tracking
    /// ref) is tried again for up to `lockWait` seconds, as git waits for a ref's lock
    /// (`core.filesRefLockTimeout`); libgit2 gives up at once.
    public func setReference(_ name: String, to id: String, message: String, lockWait: Double = 2) throws(GitError) {
        var oid = try Self.oid(id)
        let deadline = Date().addingTimeInterval(lockWait)
        while true {
            var ref: OpaquePointer?
            do throws(GitError) {
                try check(git_reference_create(&ref, handle, name, &oid, 1, message), "git_reference_create")
                git_reference_free(ref)
                return
            } catch where error.code == .locked && Date() < deadline {
                usleep(20_000)
            }
        }
    }

    /// The commit a reference points at, nil when the reference does not exist.
    public func referenceTarget(_ name: String) throws(GitError) -> String? {
        var oid = git_oid()
        let rc = git_reference_name_to_id(&oid, handle, name)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(rc, "git_reference_name_to_id")
        return Self.hex(&oid)
    }

    func withCommit<T>(_ id: String, _ body: (OpaquePointer) throws(GitError) -> T) throws(GitError) -> T {
        var oid = try Self.oid(id)
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, handle, &oid), "git_commit_lookup")
        defer { git_commit_free(commit) }
        return try body(commit!)
    }

    static func oid(_ hex: String) throws(GitError) -> git_oid {
        var oid = git_oid()
        try check(git_oid_fromstr(&oid, hex), "git_oid_fromstr")
        return oid
    }
}
