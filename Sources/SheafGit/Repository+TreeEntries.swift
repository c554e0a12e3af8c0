// A commit's tree read entry by entry, with each path as the bytes the tree holds (a remote's tree
// may name files in ways no checkout could write: `..`, `.GIT`, names that are not UTF-8 or over
// 255 bytes), and a tree built back from a chosen subset. The sync engine uses these to take a
// remote's commit apart before any of it reaches the index or the work tree.
import CGit2

/// One file (blob, symlink or gitlink) of a tree.
public struct TreeEntry: Sendable, Equatable {
    /// The path as the tree spells it.
    public let path: [UInt8]
    public let file: TreeFile
    /// The path as text, nil when it is not UTF-8.
    public var text: String? { String(validating: path, as: UTF8.self) }
    public var isGitlink: Bool { file.mode == 0o160000 }
    public init(path: [UInt8], file: TreeFile) {
        self.path = path
        self.file = file
    }
}

extension Repository {
    /// Every blob, symlink and gitlink of a commit's tree, in tree order.
    public func treeEntries(inCommit id: String) throws(GitError) -> [TreeEntry] {
        let tree = try commitTree(id)
        defer { git_tree_free(tree) }
        final class Collected { var entries: [TreeEntry] = [] }
        let collected = Collected()
        let rc = git_tree_walk(tree, GIT_TREEWALK_PRE, { root, entry, payload in
            guard let entry, let payload else { return 0 }
            let box = Unmanaged<Collected>.fromOpaque(payload).takeUnretainedValue()
            guard git_tree_entry_type(entry) != GIT_OBJECT_TREE else { return 0 }
            var path: [UInt8] = []
            if let root { path += Repository.cBytes(root) }
            if let name = git_tree_entry_name(entry) { path += Repository.cBytes(name) }
            box.entries.append(TreeEntry(path: path, file: TreeFile(blob: Repository.hex(git_tree_entry_id(entry)),
                                                                       mode: git_tree_entry_filemode(entry).rawValue)))
            return 0
        }, Unmanaged.passUnretained(collected).toOpaque())
        try check(rc, "git_tree_walk")
        return collected.entries
    }

    /// The entries of `to`'s tree that `from`'s tree does not hold as they are (new paths, or
    /// another blob or mode), paths as bytes. Only the trees are read (no rename detection, no
    /// blob): what a pull must check when everything `from` holds was accepted already.
    public func changedEntries(from: String, to: String) throws(GitError) -> [TreeEntry] {
        let old = try commitTree(from)
        defer { git_tree_free(old) }
        let new = try commitTree(to)
        defer { git_tree_free(new) }
        var diff: OpaquePointer?
        try check(git_diff_tree_to_tree(&diff, handle, old, new, nil), "git_diff_tree_to_tree")
        defer { git_diff_free(diff) }
        var entries: [TreeEntry] = []
        for i in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, i)?.pointee, delta.status != GIT_DELTA_DELETED,
                  let path = delta.new_file.path else { continue }
            var id = delta.new_file.id
            entries.append(TreeEntry(path: Self.cBytes(path), file: TreeFile(blob: Self.hex(&id), mode: UInt32(delta.new_file.mode))))
        }
        return entries
    }

    /// The bytes of a C string, as they are (no UTF-8 repair).
    static func cBytes(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
        var out: [UInt8] = []
        var p = pointer
        while p.pointee != 0 { out.append(UInt8(bitPattern: p.pointee)); p += 1 }
        return out
    }

    /// A tree holding exactly `entries`; entries libgit2 itself refuses to index (its own path
    /// rules) are left out and returned.
    public func tree(from entries: [TreeEntry]) throws(GitError) -> (tree: String, rejected: [TreeEntry]) {
        let index = try MemoryIndex(repository: self, commit: nil)
        var rejected: [TreeEntry] = []
        for entry in entries {
            var raw = git_index_entry()
            raw.id = try Self.oid(entry.file.blob)
            raw.mode = entry.file.mode
            let rc = (entry.path + [0]).withUnsafeBufferPointer { buffer -> Int32 in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    raw.path = chars.baseAddress
                    return git_index_add(index.handle, &raw)
                }
            }
            if rc < 0 { rejected.append(entry) }
        }
        return (try index.writeTree(), rejected)
    }
}
