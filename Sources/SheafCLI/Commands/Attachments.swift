import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Attachments: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "attachments",
        abstract: "List attachments: path, type, size, dimensions, thumbnail and the notes that link to each.",
        discussion: "Every file in the vault that is not a note is an attachment. This command records new files but makes no thumbnails (sheaf index, attach and thumb do). Exits 1 when --orphans finds none.")

    @Flag(help: "Only attachments no note links to.") var orphans = false
    @Flag(help: "Print JSON.") var json = false
    @Flag(name: [.customShort("0"), .customLong("null")], help: "Print paths only, each ended by a NUL byte (for xargs -0).") var null = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        let list = try session.attachments(orphansOnly: orphans)
        try reportWarnings(session)
        if json {
            Terminal.json(AttachmentListJSON(list))
        } else if null {
            Terminal.nullTerminated = true
            for a in list { Terminal.path(a.record.path) }
        } else {
            Terminal.page()
            for a in list { Terminal.out(Self.line(a)) }
        }
        if list.isEmpty && orphans { throw ExitCode(1) }
    }

    static func line(_ a: Attachment) -> TerminalLine {
        let r = a.record
        var parts: [TerminalLine] = [Terminal.bold("\(r.path)"), "\(r.type)", "\(ByteCount.text(r.size))"]
        if let w = r.width, let h = r.height { parts.append("\(w)x\(h)") }
        switch r.state {
        case .ready: parts.append(a.thumbnail.map { "thumbnail \($0)" } ?? "thumbnail missing (sheaf thumb makes it)")
        case .pending: parts.append("thumbnail not made yet")
        case .failed: parts.append("no thumbnail: \(text: r.error ?? "unknown error")")
        case .none: break
        }
        parts.append(a.linkedFrom.isEmpty ? Terminal.dim("linked from no note") : "linked from \(names: a.linkedFrom)")
        return .joined(parts, separator: "  ")
    }
}
