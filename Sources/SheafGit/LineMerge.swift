// Line-by-line three-way merge through libgit2's `git_merge_file` (git's xdiff), which needs no
// repository. Sheaf never keeps the marker output: it asks for the clean result, and when the
// sides overlap, for the result that favours one side in each overlapping region.
import CGit2

/// Which side fills a region both sides changed.
public enum MergeFavor: Sendable {
    /// Leave conflict markers (only used to learn whether the merge is clean).
    case none, ours, theirs
    /// Both sides' lines, ours first (git's `merge=union`).
    case union
}

public enum LineMerge {
    /// Merges `ours` and `theirs` against `base`. Returns the merged bytes and whether every
    /// region merged cleanly. With `favor` other than `.none` an overlapping region takes that
    /// side's lines, so the bytes never hold markers; `clean` still reports the overlap.
    public static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8],
                             favor: MergeFavor) throws(GitError) -> (bytes: [UInt8], clean: Bool) {
        Library.ensure()
        var options = git_merge_file_options()
        try check(git_merge_file_options_init(&options, UInt32(GIT_MERGE_FILE_OPTIONS_VERSION)),
                  "git_merge_file_options_init")
        switch favor {
        case .none: options.favor = GIT_MERGE_FILE_FAVOR_NORMAL
        case .ours: options.favor = GIT_MERGE_FILE_FAVOR_OURS
        case .theirs: options.favor = GIT_MERGE_FILE_FAVOR_THEIRS
        case .union: options.favor = GIT_MERGE_FILE_FAVOR_UNION
        }
        var result = git_merge_file_result()
        // A trailing NUL keeps every pointer valid, also for empty inputs; sizes exclude it.
        let rc = (base + [0]).withUnsafeBufferPointer { b in
            (ours + [0]).withUnsafeBufferPointer { o in
                (theirs + [0]).withUnsafeBufferPointer { t in
                    var inputs = [input(b), input(o), input(t)]
                    return git_merge_file(&result, &inputs[0], &inputs[1], &inputs[2], &options)
                }
            }
        }
        try check(rc, "git_merge_file")
        defer { git_merge_file_result_free(&result) }
        let bytes = result.ptr.map { ptr in
            Array(UnsafeRawBufferPointer(start: ptr, count: result.len).bindMemory(to: UInt8.self))
        } ?? []
        return (bytes, result.automergeable != 0)
    }

    /// Merges cleanly when it can; otherwise returns both one-sided results.
    public static func mergeBothWays(base: [UInt8], ours: [UInt8], theirs: [UInt8])
        throws(GitError) -> (local: [UInt8], remote: [UInt8]?) {
        let plain = try merge(base: base, ours: ours, theirs: theirs, favor: .none)
        if plain.clean { return (plain.bytes, nil) }
        let local = try merge(base: base, ours: ours, theirs: theirs, favor: .ours).bytes
        let remote = try merge(base: base, ours: ours, theirs: theirs, favor: .theirs).bytes
        return (local, remote)
    }

    private static func input(_ buffer: UnsafeBufferPointer<UInt8>) -> git_merge_file_input {
        var input = git_merge_file_input()
        input.version = UInt32(GIT_MERGE_FILE_INPUT_VERSION)
        input.ptr = UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) }
        input.size = buffer.count - 1
        return input
    }
}
