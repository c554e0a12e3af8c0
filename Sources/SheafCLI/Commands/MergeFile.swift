// `sheaf merge-file`: the note merge alone, on three files. Also what git runs as a merge driver
// once `sheaf install-merge-driver` registered it.
import ArgumentParser
import Foundation
import SheafCore
import SheafKit
import SheafSync

struct MergeFile: ParsableCommand {
    static let configuration = CommandConfiguration(
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
        let read = { (path: String) throws -> [UInt8] in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SheafError("cannot read", path: path)
            }
            return Array(data)
        }
        let isNote = VaultPath.isNote(driverPath ?? ours)
        let result = try NoteMerge.merge(base: try read(base), ours: try read(ours), theirs: try read(theirs), isNote: isNote)
        if let driverPath {
            // git's merge driver: the result replaces OURS; the remote side goes beside the note.
            try AtomicFile.write(result.merged, to: ours)
            if let remote = result.remote {
                let conflict = ConflictFile.path(for: driverPath, time: Date(), device: "git-merge") {
                    FileManager.default.fileExists(atPath: $0)
                }
                try AtomicFile.write(ConflictFile.content(remote: remote, notePath: driverPath, isNote: isNote), to: conflict)
                Terminal.err("sheaf: \(driverPath): edits overlapped; the remote side is in \(conflict)")
                throw ExitCode(1)
            }
            return
        }
        if let output { try AtomicFile.write(result.merged, to: output) }
        else { FileHandle.standardOutput.write(Data(result.merged)) }
        if let remote = result.remote {
            if let conflictOut {
                try AtomicFile.write(ConflictFile.content(remote: remote, notePath: ours, isNote: isNote), to: conflictOut)
            }
            throw ExitCode(1)
        }
    }
}

struct InstallMergeDriver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-merge-driver",
        abstract: "Make plain `git merge` merge notes the way sheaf does.",
        discussion: "Registers `sheaf merge-file` as git's merge driver for *.md and *.markdown in this vault (.git/config and .git/info/attributes; nothing committed). On overlap git's copy of the note keeps the local side without markers, the remote side is written beside it as a conflict file, and git marks the path conflicted.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let executable = CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : (Bundle.main.executablePath ?? "sheaf")
        let report = try session.installMergeDriver(command: executable)
        Terminal.out("git now merges notes with \(report)")
    }
}
