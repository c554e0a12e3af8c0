// Templates as Obsidian's core Templates plugin fills them: `{{title}}`, `{{date}}`, `{{time}}`,
// and `{{date:FORMAT}}` / `{{time:FORMAT}}` with a moment.js format. Other `{{...}}` text is kept
// as written (it may belong to another plugin, such as Templater).
import Foundation

public struct NoteTemplate: Sendable {
    /// The default formats of `{{date}}` and `{{time}}` (Obsidian's `templates.json` may set others).
    public var dateFormat = "YYYY-MM-DD"
    public var timeFormat = "HH:mm"

    public init(dateFormat: String? = nil, timeFormat: String? = nil) {
        if let dateFormat, !dateFormat.isEmpty { self.dateFormat = dateFormat }
        if let timeFormat, !timeFormat.isEmpty { self.timeFormat = timeFormat }
    }

    /// `text` with every known variable filled in for a note titled `title`: `{{date}}` from
    /// `date` (a daily note's day), `{{time}}` from `time` (now), as Obsidian fills them.
    public func fill(_ text: String, title: String, date: Date, time: Date? = nil,
                     timeZone: TimeZone = NoteDate.localZone) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let inner = rest[open.upperBound..<close.lowerBound].trimmingHorizontalWhitespace
            out += value(of: inner, title: title, date: date, time: time ?? date, timeZone: timeZone) ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    private func value(of variable: String, title: String, date: Date, time: Date, timeZone: TimeZone) -> String? {
        let parts = variable.split(separator: ":", maxSplits: 1).map { $0.trimmingHorizontalWhitespace }
        switch parts[0].lowercased() {
        case "title": return parts.count == 1 ? title : nil
        case "date": return MomentFormat.format(date, parts.count > 1 ? parts[1] : dateFormat, timeZone: timeZone)
        case "time": return MomentFormat.format(time, parts.count > 1 ? parts[1] : timeFormat, timeZone: timeZone)
        default: return nil
        }
    }
}
