import ArgumentParser
import Foundation
import SheafKit

struct Index: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "index",
        abstract: "Bring the search index up to date with the files.",
        discussion: "Every read command does this first; run it yourself after large changes, or with --rebuild to start the index afresh. The index is a cache in .sheaf/index.sqlite: deleting it costs one rebuild.")

    @Flag(help: "Drop the index and read every file again.") var rebuild = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let bar = ProgressBar.callback("indexing")
        // Waits for a command that holds the lock; fails (exit 2) when the index cannot be written.
        let scan = try session.updateIndex(rebuild: rebuild, progress: bar?.0)
        bar?.1.finish()
        guard let report = scan else { throw ExitCode(2) }
        if let reason = report.rebuilt { Terminal.warn("rebuilt the index: \(reason)") }
        for w in report.warnings { Terminal.warn("\(w.path): \(text: w.message)") }
        if !Terminal.quiet { Terminal.out(TerminalLine(verbatim: String(format: "scanned %d files: %d added, %d changed, %d removed, %d renamed, %d warnings in %.2f s",
                            report.scanned, report.added, report.changed, report.removed, report.renamed,
                            report.warnings.count, report.seconds))) }
        try makeThumbnailsWithProgress(session)  // Attach.swift
    }
}
