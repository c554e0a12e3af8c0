// sheaf-merge-file: `sheaf merge-file` for git's merge driver, in a process that starts in a
// few milliseconds (issue 10: git runs the driver once per note it merges). It links SheafText
// alone (no Foundation, no YAML library) and merges every note whose front-matter reads the
// same without a YAML parser (`PlainFrontMatterRules`); anything else, an overlap that needs a
// conflict file, an unknown option or an unreadable input is handed whole to `sheaf merge-file`
// (`MergeFileFallback`), so both give the same bytes, messages and exit codes.
import SheafText
#if canImport(Glibc)
import Glibc
#endif

// A reader that goes away is not an error (docs/exit-codes.md): EPIPE ends the process with 0.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
guard let request = MergeFileRequest(arguments: arguments),
      let sides = (try? (FileBytes.read(request.base), FileBytes.read(request.ours), FileBytes.read(request.theirs))),
      let result = NoteMerge.merge(base: sides.0, ours: sides.1, theirs: sides.2,
                                   isNote: VaultPath.isNote(request.driverPath ?? request.ours),
                                   rules: PlainFrontMatterRules())
else { MergeFileFallback.run(arguments) }

// An overlap's remote side becomes a conflict file (driver mode, --conflict-out): its name and
// front-matter (`conflict-of`, `id`) are written by `sheaf` itself.
if result.remote != nil && (request.driverPath != nil || request.conflictOut != nil) { MergeFileFallback.run(arguments) }

if let target = request.driverPath != nil ? request.ours : request.output {
    // git reads the result back at once and records it; no fsync (as `sheaf merge-file`).
    do { try FileBytes.replace(target, with: result.merged, durable: false) } catch {
        // Nothing was replaced: `sheaf` tries again and reports what fails in its own words.
        MergeFileFallback.run(arguments)
    }
} else {
    // Standard output is never handed over: bytes written are written (a second writer would
    // repeat them).
    do { try FileBytes.writeAll(result.merged, to: 1) } catch {
        if error.errno == EPIPE { exit(0) }
        _ = try? FileBytes.writeAll(Array("sheaf: cannot write: standard output\n  cause: \(error.reason)\n".utf8), to: 2)
        exit(2)
    }
}
exit(result.remote == nil ? 0 : 1)
