// `sheaf merge-file`: the note merge alone, on three files (SheafKit's `MergeFiles`). Also what
// git runs as a merge driver once `sheaf install-merge-driver` registered it.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct MergeFile: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "merge-file",
        abstract: "Merge two versions of a note against their ancestor, as sync does.",
        discussion: "Writes the merged note to stdout (or -o OUT), never over its inputs. Where edits overlap the result keeps OURS; --conflict-out gets THEIRS's side. Exits 0 when clean, 1 on overlap.")

    @Argument(help: "The common ancestor.") var base: String
    @Argument(help: "The local version.") var ours: String
    @Argument(help: "The remote version.") var theirs: String
    @Option(name: .short, help: "Write the result here instead of stdout.") var output: String?
    @Option(help: "Write the remote side of overlapping edits here.") var conflictOut: String?
    @Option(help: "The path git merges (for git's merge driver; the result replaces OURS).") var driverPath: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let result = try MergeFiles.merge(base: base, ours: ours, theirs: theirs, output: driverPath == nil ? output : nil,
                                          conflictOut: driverPath == nil ? conflictOut : nil, driverPath: driverPath)
        if let driverPath {
            // git's merge driver: the result replaced OURS; the remote side is beside the note.
            if let conflict = result.conflictFile {
                Terminal.err("sheaf: \(driverPath): edits overlapped; the remote side is in \(conflict)")
                throw ExitCode(1)
            }
            return
        }
        if output == nil { Terminal.raw(result.merged) }
        if result.overlapped { throw ExitCode(1) }
    }
}

struct InstallMergeDriver: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "install-merge-driver",
        abstract: "Make plain `git merge` merge notes the way sheaf does.",
        discussion: "Registers `sheaf merge-file` as git's merge driver for *.md and *.markdown in this vault (.git/config and .git/info/attributes; nothing committed). On overlap git's copy of the note keeps the local side without markers, the remote side is written beside it as a conflict file, and git marks the path conflicted.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let executable = CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : (Bundle.main.executablePath ?? "sheaf")
        let report = try session.installMergeDriver(command: executable)
        Terminal.out("git now merges notes with \(text: report)")
    }
}
