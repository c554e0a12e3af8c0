// Date formats and template variables as Obsidian's Daily notes and Templates plugins write them.
import Foundation
import Testing
@testable import SheafCore

@Suite struct TemplateTests {
    let utc = TimeZone(identifier: "UTC")!
    /// 2026-03-01 09:05:07 UTC, a Sunday.
    let date = Date(timeIntervalSince1970: 1772355907)

    @Test func momentTokensAsObsidianWritesThem() {
        #expect(MomentFormat.format(date, "YYYY-MM-DD", timeZone: utc) == "2026-03-01")
        #expect(MomentFormat.format(date, "dddd, MMMM Do YYYY", timeZone: utc) == "Sunday, March 1st 2026")
        #expect(MomentFormat.format(date, "YYYY/MM/YYYY-MM-DD ddd", timeZone: utc) == "2026/03/2026-03-01 Sun")
        #expect(MomentFormat.format(date, "[Week] WW, gggg-[W]ww", timeZone: utc) == "Week 09, 2026-W10")
        #expect(MomentFormat.format(date, "HH:mm:ss h A", timeZone: utc) == "09:05:07 9 AM")
        #expect(MomentFormat.format(date, "YY M D DDDD Q", timeZone: utc) == "26 3 1 060 1")
        #expect(MomentFormat.format(date, "Do", timeZone: utc) == "1st")
        #expect(MomentFormat.format(Date(timeIntervalSince1970: 1772355907 + 11 * 86400), "Do", timeZone: utc) == "12th")
        #expect(MomentFormat.format(date, "YYYY-MM-DD", timeZone: TimeZone(identifier: "America/Los_Angeles")!) == "2026-03-01")
        #expect(MomentFormat.format(date, "YYYY-MM-DD", timeZone: TimeZone(identifier: "Pacific/Honolulu")!) == "2026-02-28")
    }

    @Test func templateVariablesAreFilledAndOthersKept() {
        let template = NoteTemplate(dateFormat: "DD.MM.YYYY", timeFormat: nil)
        let filled = template.fill("# {{title}}\n{{date}} {{ time }} {{date:YYYY}} {{tp.date.now()}} {{title:x}} {{", title: "Plan",
                                   date: date, time: date.addingTimeInterval(3600), timeZone: utc)
        #expect(filled == "# Plan\n01.03.2026 10:05 2026 {{tp.date.now()}} {{title:x}} {{")
    }
}
