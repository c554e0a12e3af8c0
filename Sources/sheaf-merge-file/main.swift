// sheaf-merge-file: `sheaf merge-file` for git's merge driver, in a process that starts in a
// few milliseconds (issue 10: git runs the driver once per note it merges). It links SheafText
// alone (no Foundation, no YAML library) and does the whole note merge itself, conflict file
// included, for every note whose front-matter reads the same without a YAML parser
// (`PlainFrontMatterRules`, `PlainConflictNote`); anything else (front-matter a parser must
// read, an unknown option, an unreadable input) is handed whole to `sheaf merge-file`
// (`MergeFileFallback`), so both give the same bytes, files, messages and exit codes.
import SheafText
#if canImport(Glibc)
import Glibc
#endif

// A reader that goes away is not an error (docs/exit-codes.md): EPIPE ends the process with 0.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
guard let request = MergeFileRequest(arguments: arguments) else {
    MergeFileFallback.run(arguments, reason: "arguments it does not read")
}
guard let sides = (try? (FileBytes.read(request.base), FileBytes.read(request.ours), FileBytes.read(request.theirs))) else {
    MergeFileFallback.run(arguments, reason: "an input it cannot read")
}
let isNote = VaultPath.isNote(request.driverPath ?? request.ours)
guard let result = NoteMerge.merge(base: sides.0, ours: sides.1, theirs: sides.2, isNote: isNote,
                                   rules: PlainFrontMatterRules())
else { MergeFileFallback.run(arguments, reason: MergeFileFallback.frontMatterReason(sides.0, sides.1, sides.2)) }

// An overlap's remote side becomes a conflict file (driver mode, --conflict-out), with
// `conflict-of` and `id` in its front-matter.
let conflictPath = request.driverPath ?? request.ours
var conflict: [UInt8]? = nil
if let remote = result.remote, request.driverPath != nil || request.conflictOut != nil {
    guard let content = PlainConflictNote.content(remote: remote, notePath: conflictPath, isNote: isNote) else {
        MergeFileFallback.run(arguments, reason: "a conflict file whose front-matter it cannot write")
    }
    conflict = content
}

if let target = request.driverPath != nil ? request.ours : request.output {
    // git reads the result back at once and records it; no fsync (as `sheaf merge-file`).
    do { try FileBytes.replace(target, with: result.merged, durable: false) } catch {
        // Nothing was replaced: `sheaf` tries again and reports what fails in its own words.
        MergeFileFallback.run(arguments, reason: "a write that failed")
    }
}
if let conflict, let driverPath = request.driverPath {
    // Beside the note, named for this second and `git-merge` (a clash adds `-2`); the user's
    // file: durable. `stat` follows a link, as `sheaf`'s check does.
    let path = ConflictName.path(for: driverPath, stamp: ConflictName.stamp(secondsSince1970: time(nil)),
                                 label: "git-merge") { candidate in
        var info = stat()
        return stat(candidate, &info) == 0
    }
    MergeFileOutput.write(conflict, to: path)
    MergeFileOutput.error("sheaf: \(ShownText.name(driverPath)): edits overlapped; the remote side is in \(ShownText.name(path))\n")
    exit(1)
}
if let conflict, let conflictOut = request.conflictOut { MergeFileOutput.write(conflict, to: conflictOut) }
if request.driverPath == nil && request.output == nil {
    // Standard output is never handed over: bytes written are written (a second writer would
    // repeat them).
    do { try FileBytes.writeAll(result.merged, to: 1) } catch {
        if error.errno == EPIPE { exit(0) }
        MergeFileOutput.error("sheaf: cannot write: standard output\n  cause: \(error.reason)\n")
        exit(2)
    }
}
exit(result.remote == nil ? 0 : 1)
