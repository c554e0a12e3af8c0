import ArgumentParser
import Foundation
import SheafKit

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "init",
        abstract: "Make a folder a vault, without changing any file in it.",
        discussion: "Creates a git repository (branch main) only if there is none, creates .sheaf/, and lists .sheaf/ and volatile editor files in .git/info/exclude. Commits nothing.")

    @Argument(help: "The folder (default: the working directory).")
    var folder: String = "."

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let report = try VaultSession.initialize(folder: folder)
        if !report.createdVault && !report.createdRepository && report.excludeLinesAdded.isEmpty {
            Terminal.out("already a vault: \(report.root)")
            return
        }
        Terminal.out(report.createdVault ? "made a vault in \(report.root)" : "vault \(report.root)")
        Terminal.out(report.createdRepository ? "  created a git repository (branch main)" : "  using the existing git repository")
        if !report.excludeLinesAdded.isEmpty {
            Terminal.out("  .git/info/exclude now lists: \(names: report.excludeLinesAdded, separator: " ")")
        }
        let session = VaultSession(vault: .init(root: report.root), workingDirectory: report.root)
        let counts = try session.fileCounts()
        for w in counts.warnings { Terminal.warn("\(w)") }
        Terminal.out("  \(counts.notes) notes, \(counts.otherFiles) other files; no file was changed")
    }
}
