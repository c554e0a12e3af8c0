import ArgumentParser
import Foundation
import SheafCore
import SheafKit

struct Daily: ParsableCommand {
    static let configuration = CommandConfiguration.sheaf(
        commandName: "daily",
        abstract: "Open or create the daily note of today (or of DATE).",
        discussion: """
        The folder, the name format (moment.js tokens, as Obsidian: YYYY-MM-DD, dddd, MMMM Do...) and the \
        template come from .sheaf/config.toml (daily-folder, daily-format, daily-template), else from \
        .obsidian/daily-notes.json, else the vault root and YYYY-MM-DD. On a terminal the note opens in \
        $VISUAL or $EDITOR; the path is printed either way.
        """)

    @Argument(help: "today (the default), yesterday, tomorrow, -N or +N days, or YYYY-MM-DD.") var date: String = "today"
    @Flag(help: "Print the path without opening an editor.") var noEdit = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = try global.open()
        guard let day = Self.day(date) else {
            throw SheafError("not a date: \(date)", hint: "use today, yesterday, tomorrow, -1, +2 or 2026-03-14")
        }
        let report = try session.dailyNote(for: day)
        Terminal.out("\(report.path)")
        if !noEdit && Terminal.stdinIsTTY && Terminal.stdoutIsTTY {
            try Editor.open([session.vault.absolute(report.path)])
        }
    }

    /// The start of the named day where the user is.
    static func day(_ text: String, now: Date = Date()) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = NoteDate.localZone
        let today = calendar.startOfDay(for: now)
        let lower = text.lowercased()
        let offsets = ["today": 0, "yesterday": -1, "tomorrow": 1]
        var days = offsets[lower]
        if days == nil, let sign = lower.first, sign == "-" || sign == "+" {
            let digits = lower.dropFirst()
            let number = digits.hasSuffix("d") ? digits.dropLast() : digits
            if !number.isEmpty, number.allSatisfy(\.isASCII), let n = Int(String(number)) { days = sign == "-" ? -n : n }
        }
        if let days { return calendar.date(byAdding: .day, value: days, to: today) }
        guard text.count == 10 else { return nil }
        return NoteDate.parse(text)
    }
}
