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
        return try run(base: base, ours: ours, theirs: theirs, options: &options)
    }

    private static func run(base: [UInt8], ours: [UInt8], theirs: [UInt8],
                            options: inout git_merge_file_options) throws(GitError) -> (bytes: [UInt8], clean: Bool) {
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

    /// One region of a three-way merge as git's `diff3` style shows it.
    public enum Region: Sendable, Equatable {
        /// Lines the merge settled (unchanged, or changed on one side only, or the same on both).
        case settled([UInt8])
        /// Lines both sides changed: the ancestor's lines and each side's, every line with its
        /// terminator except possibly the last line of a file.
        case overlap(base: [UInt8], ours: [UInt8], theirs: [UInt8])
    }

    /// The merge cut into regions, taken from git's `diff3` hunks (not the zealous `zdiff3`
    /// ones: trimming the lines both sides share would move a blank line that separates two
    /// insertions out of the overlap). Nil when the output cannot be read back unambiguously.
    public static func regions(base: [UInt8], ours: [UInt8], theirs: [UInt8]) throws(GitError) -> [Region]? {
        Library.ensure()
        // Markers longer than any run of marker characters opening an input line cannot be
        // mistaken for the inputs' own lines.
        let size = max(7, [base, ours, theirs].map(longestMarkerRun).max() ?? 0) + 1
        guard size < Int(UInt16.max) else { return nil }
        var options = git_merge_file_options()
        try check(git_merge_file_options_init(&options, UInt32(GIT_MERGE_FILE_OPTIONS_VERSION)),
                  "git_merge_file_options_init")
        options.favor = GIT_MERGE_FILE_FAVOR_NORMAL
        options.flags = GIT_MERGE_FILE_STYLE_DIFF3.rawValue
        options.marker_size = UInt16(size)
        let bytes = try run(base: base, ours: ours, theirs: theirs, options: &options).bytes
        return parseDiff3(bytes, markerSize: size, finalBreak: [base, ours, theirs].map { $0.isEmpty || $0.last == 10 })
    }

    /// The longest run of one of `<|=>` that opens a line of `bytes`.
    private static func longestMarkerRun(_ bytes: [UInt8]) -> Int {
        var longest = 0, run = 0, runByte: UInt8 = 0, atStart = true
        for byte in bytes {
            if byte == 10 { atStart = true; run = 0; continue }
            if atStart, run == 0, [60, 124, 61, 62].contains(byte) { runByte = byte; run = 1 }
            else if run > 0, byte == runByte { run += 1 }
            else { atStart = false; run = 0; continue }
            longest = max(longest, run)
        }
        return longest
    }

    /// Reads `diff3` output back into regions. `finalBreak` says, for base, ours and theirs,
    /// whether the input ended with a line break (xdiff adds one to a hunk's last line).
    private static func parseDiff3(_ bytes: [UInt8], markerSize: Int, finalBreak: [Bool]) -> [Region]? {
        enum Part { case text, ours, base, theirs }
        func marker(_ line: ArraySlice<UInt8>) -> UInt8? {
            guard line.count >= markerSize, let first = line.first, [60, 124, 61, 62].contains(first),
                  line.prefix(markerSize).allSatisfy({ $0 == first }) else { return nil }
            let rest = line.dropFirst(markerSize)
            return rest.isEmpty || rest == [10] || rest.first == 32 ? first : nil
        }
        var regions: [Region] = []
        var part = Part.text
        var text: [UInt8] = [], o: [UInt8] = [], b: [UInt8] = [], t: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = (bytes[start...].firstIndex(of: 10) ?? bytes.count - 1) + 1
            let line = bytes[start..<end]
            start = end
            switch (part, marker(line)) {
            case (.text, 60?):
                if !text.isEmpty { regions.append(.settled(text)); text = [] }
                part = .ours
            case (.ours, 124?): part = .base
            case (.base, 61?): part = .theirs
            case (.theirs, 62?):
                regions.append(.overlap(base: b, ours: o, theirs: t))
                (o, b, t) = ([], [], [])
                part = .text
            case (_, _?): return nil
            case (.text, nil): text += line
            case (.ours, nil): o += line
            case (.base, nil): b += line
            case (.theirs, nil): t += line
            }
        }
        guard part == .text else { return nil }
        if !text.isEmpty { regions.append(.settled(text)); return regions }
        // An overlap at the very end: drop the line break xdiff added to a side that had none.
        if case .overlap(var b, var o, var t)? = regions.last {
            if !finalBreak[0], b.last == 10 { b.removeLast() }
            if !finalBreak[1], o.last == 10 { o.removeLast() }
            if !finalBreak[2], t.last == 10 { t.removeLast() }
            regions[regions.count - 1] = .overlap(base: b, ours: o, theirs: t)
        }
        return regions
    }

    private static func input(_ buffer: UnsafeBufferPointer<UInt8>) -> git_merge_file_input {
        var input = git_merge_file_input()
        input.version = UInt32(GIT_MERGE_FILE_INPUT_VERSION)
        input.ptr = UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) }
        input.size = buffer.count - 1
        return input
    }
}
