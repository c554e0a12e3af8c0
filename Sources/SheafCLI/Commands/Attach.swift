import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "attach",
        abstract: "Copy files beside a note, embed them in it and make their thumbnails.",
        discussion: "Each file is copied into the note's folder (a name already taken gets a number: photo 2.jpg) and embedded at the end of the note as ![[name]], or ![](name) when the note's links are mostly markdown links.")

    @Argument(help: "The note.", completion: Completions.notes) var note: String
    @Argument(help: "Files to attach.") var files: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let report = try session.attach(files, to: try session.resolve(note),
                                        from: FileManager.default.currentDirectoryPath)
        for f in report.files { Terminal.out("\(f.path): embedded in \(report.note) as \(f.embed)") }
        warnThumbnails(report.thumbnails)
    }
}

struct Thumb: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "thumb",
        abstract: "Print the thumbnail path of attachments, making the thumbnails that are missing.",
        discussion: "Thumbnails are JPEGs of 256 px on the long edge in .sheaf/thumbnails/, named by the attachment's content; they are a cache and never committed.")

    @Argument(help: "Attachments (paths relative to the working folder or the vault root).") var paths: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        var failed = false
        for path in paths {
            do throws(SheafError) { let thumbnail = try session.thumbnail(of: path); Terminal.out("\(thumbnail)") }
            catch { Terminal.err("\(error)"); failed = true }
        }
        if failed { throw ExitCode(2) }
    }
}

struct GC: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "gc",
        abstract: "Delete thumbnails that no attachment uses any more.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let removed = try session.collectThumbnailGarbage()
        Terminal.out("removed \(removed.files) thumbnails (\(ByteCount.text(removed.bytes)))")
    }
}

/// Sizes for people: 900 B, 12.3 KB, 4.5 MB.
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1e3) }
        if bytes < 1_000_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
        return String(format: "%.1f GB", Double(bytes) / 1e9)
    }
}

/// Makes the thumbnails of new and changed attachments, with a progress bar on a terminal.
func makeThumbnailsWithProgress(_ session: VaultSession) throws {
    let bar = ProgressBar.callback("thumbnails")
    let report = try session.makeThumbnails(progress: bar?.0)
    bar?.1.finish()
    warnThumbnails(report)
    if !Terminal.quiet, report.made + report.reused + report.failed.count > 0 {
        Terminal.out("thumbnails: \(report.made) made, \(report.reused) reused, \(report.failed.count) failed")
    }
}

/// Warns about attachments a thumbnailing run left without a thumbnail: one line each that failed,
/// one for all when the thumbnail helper is missing.
func warnThumbnails(_ report: ThumbnailReport) {
    for w in report.failed { Terminal.warn("\(w.path): no thumbnail: \(text: w.message)") }
    if let missing = report.helperMissing {
        let count = report.skipped.count
        Terminal.warn("\(count) attachment\(count == 1 ? "" : "s") left without a thumbnail\n\(missing)")
    }
}
