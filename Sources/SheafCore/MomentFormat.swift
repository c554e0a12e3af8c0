// Date formats as Obsidian writes them (`YYYY-MM-DD`, `dddd, MMMM Do YYYY`, `[Week] ww`): the
// moment.js tokens that Obsidian's daily notes and Templates settings use, so a vault's own
// settings name the same files Obsidian would. Names are English, as in Obsidian's default locale.
import Foundation

public enum MomentFormat {
    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    /// Tokens, longest first so `YYYY` wins over `YY`.
    private static let tokens = ["YYYY", "GGGG", "gggg", "MMMM", "dddd", "DDDD", "MMM", "ddd", "DDD", "YY", "MM", "DD", "Do",
                                 "dd", "HH", "hh", "mm", "ss", "WW", "ww", "SSS", "M", "D", "d", "H", "h", "m", "s",
                                 "A", "a", "Q", "W", "w", "X", "x", "Z"]

    /// `date` written in `format`, read in `timeZone`. Text in `[brackets]` is copied as is;
    /// characters that are not tokens are copied too.
    public static func format(_ date: Date, _ format: String, timeZone: TimeZone = NoteDate.localZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond, .weekday], from: date)
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = timeZone
        let isoWeek = iso.component(.weekOfYear, from: date)
        let isoYear = iso.component(.yearForWeekOfYear, from: date)
        var us = calendar
        us.firstWeekday = 1
        us.minimumDaysInFirstWeek = 1
        let localWeek = us.component(.weekOfYear, from: date)
        let localYear = us.component(.yearForWeekOfYear, from: date)
        let year = c.year ?? 0, month = c.month ?? 1, day = c.day ?? 1
        let hour = c.hour ?? 0, minute = c.minute ?? 0, second = c.second ?? 0
        let weekday = (c.weekday ?? 1) - 1
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1

        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(abs(n))
            return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
        }
        func value(_ token: String) -> String {
            switch token {
            case "YYYY": return pad(year, 4)
            case "YY": return pad(year % 100, 2)
            case "GGGG": return pad(isoYear, 4)
            case "gggg": return pad(localYear, 4)
            case "Q": return String((month - 1) / 3 + 1)
            case "MMMM": return months[month - 1]
            case "MMM": return String(months[month - 1].prefix(3))
            case "MM": return pad(month, 2)
            case "M": return String(month)
            case "DDDD": return pad(dayOfYear, 3)
            case "DDD": return String(dayOfYear)
            case "DD": return pad(day, 2)
            case "D": return String(day)
            case "Do": return String(day) + ordinalSuffix(day)
            case "dddd": return weekdays[weekday]
            case "ddd": return String(weekdays[weekday].prefix(3))
            case "dd": return String(weekdays[weekday].prefix(2))
            case "d": return String(weekday)
            case "HH": return pad(hour, 2)
            case "H": return String(hour)
            case "hh": return pad(hour % 12 == 0 ? 12 : hour % 12, 2)
            case "h": return String(hour % 12 == 0 ? 12 : hour % 12)
            case "mm": return pad(minute, 2)
            case "m": return String(minute)
            case "ss": return pad(second, 2)
            case "s": return String(second)
            case "SSS": return pad((c.nanosecond ?? 0) / 1_000_000, 3)
            case "A": return hour < 12 ? "AM" : "PM"
            case "a": return hour < 12 ? "am" : "pm"
            case "WW": return pad(isoWeek, 2)
            case "W": return String(isoWeek)
            case "ww": return pad(localWeek, 2)
            case "w": return String(localWeek)
            case "X": return String(Int(date.timeIntervalSince1970))
            case "x": return String(Int(date.timeIntervalSince1970 * 1000))
            case "Z":
                let offset = timeZone.secondsFromGMT(for: date) / 60
                return (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
            default: return token
            }
        }

        var out = ""
        var rest = Substring(format)
        while let first = rest.first {
            if first == "[", let close = rest.firstIndex(of: "]") {
                out += rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else if let token = tokens.first(where: { rest.hasPrefix($0) }) {
                out += value(token)
                rest = rest.dropFirst(token.count)
            } else {
                out.append(first)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    private static func ordinalSuffix(_ n: Int) -> String {
        if (11...13).contains(n % 100) { return "th" }
        switch n % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }
}
