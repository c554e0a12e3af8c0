import Foundation

/// Reads the dates people write in front-matter: `2026-03-14`, `2026-03-14T09:30:00+01:00`,
/// `2026-03-14 09:30`, `2026-03-14T09:30:00.123Z`. A date or time without an offset is local
/// time, as Obsidian and zk read it: `2026-03-14` is the start of that day where the user is.
public enum NoteDate {
    /// The zone for dates written without an offset: `TZ`, else the system's, read once, by the C
    /// library's rules. Foundation reads a POSIX `TZ` string such as `UTC-5` the other way round
    /// (as UTC-5, where POSIX and every other program on the machine mean five hours east of UTC);
    /// when the two disagree, the C library's offset is taken (a fixed one: a POSIX string with
    /// daylight-saving rules that Foundation misreads keeps the offset in force when Sheaf starts).
    public static let localZone: TimeZone = {
        let foundation = TimeZone.current
        tzset()
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return foundation }
        let offset = Int(local.tm_gmtoff)
        if foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(now))) == offset { return foundation }
        return TimeZone(secondsFromGMT: offset) ?? foundation
    }()

    /// The instant `text` names, a date or time without an offset read in `localZone`.
    public static func parse(_ text: String) -> Date? { parse(text, timeZone: localZone) }

    /// The instant `text` names, a date or time without an offset read in `timeZone`.
    public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        let u = Array(text.utf8.prefix(40))
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= u.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard u[i] >= 0x30 && u[i] <= 0x39 else { return nil }
                v = v * 10 + Int(u[i] - 0x30)
            }
            return v
        }
        guard let year = num(0, 4), u.count >= 10, u[4] == 0x2D, let month = num(5, 2), u[7] == 0x2D,
              let day = num(8, 2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset: Int? = nil
        var i = 10
        if i < u.count && (u[i] == 0x54 || u[i] == 0x20 || u[i] == 0x74) {
            guard let h = num(i + 1, 2), u.count > i + 3, u[i + 3] == 0x3A, let m = num(i + 4, 2) else {
                return i + 1 >= u.count || u[i + 1] == 0x20 ? local(year, month, day, 0, 0, 0, 0, timeZone) : nil
            }
            hour = h; minute = m; i += 6
            if i < u.count && u[i] == 0x3A, let s = num(i + 1, 2) { second = s; i += 3 }
            if i < u.count && (u[i] == 0x2E || u[i] == 0x2C) {
                var j = i + 1
                var scale = 0.1
                while j < u.count, u[j] >= 0x30 && u[j] <= 0x39 { fraction += Double(u[j] - 0x30) * scale; scale /= 10; j += 1 }
                i = j
            }
            while i < u.count && u[i] == 0x20 { i += 1 }
            if i < u.count {
                if u[i] == 0x5A || u[i] == 0x7A { i += 1; offset = 0 }
                else if u[i] == 0x2B || u[i] == 0x2D {
                    let sign = u[i] == 0x2D ? -1 : 1
                    guard let oh = num(i + 1, 2) else { return nil }
                    var om = 0
                    if let m = num(i + 3, 2) { om = m } else if i + 3 < u.count, u[i + 3] == 0x3A, let m = num(i + 4, 2) { om = m }
                    offset = sign * (oh * 3600 + om * 60)
                }
            }
        }
        guard let offset else { return local(year, month, day, hour, minute, second, fraction, timeZone) }
        return components(year, month, day, hour, minute, second, fraction, offset)
    }

    /// The instant of a wall-clock time in `zone`. Its offset is the zone's at that instant, found
    /// by asking twice (the first guess may sit across a daylight-saving change). A time that a
    /// change skips (02:30 on a spring-forward night) lands an hour later, as clocks read it.
    private static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int,
                              _ fraction: Double, _ zone: TimeZone) -> Date? {
        guard let wall = components(y, mo, d, h, mi, s, fraction, 0) else { return nil }
        let first = zone.secondsFromGMT(for: wall)
        let second = zone.secondsFromGMT(for: wall.addingTimeInterval(-Double(first)))
        return wall.addingTimeInterval(-Double(second))
    }

    private static func components(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int,
                                   _ fraction: Double, _ offset: Int) -> Date? {
        // Days from civil (Howard Hinnant's algorithm), so no Calendar or formatter is needed.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (mo + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        let seconds = Double(days * 86400 + h * 3600 + mi * 60 + s - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// ISO 8601 with the local offset, as `sheaf new` writes `created`.
    public static func format(_ date: Date, timeZone: TimeZone = localZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
