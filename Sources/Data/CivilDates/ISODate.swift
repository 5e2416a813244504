import Foundation

/// ISO 8601 date-times as every file the apps write holds them (`2025-12-17T09:30:00Z`): the one
/// parser and formatter for the store, snapshots, design packages, the control socket and the
/// command lines. Done by hand: Foundation's formatters cost tens of microseconds per call on
/// Linux, which shows up when a package holds thousands of designs, and there were seven
/// slightly different set-ups of them.
public enum ISODate {
    /// Formats in UTC with whole seconds, or with milliseconds (`2026-01-24T09:30:00.250Z`,
    /// truncated, never rounded up into the next second).
    public static func format(_ date: Date, fractionalSeconds: Bool) -> String {
        guard fractionalSeconds else { return format(date) }
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let milliseconds = min(Int64(((seconds - whole) * 1000).rounded(.down)), 999)
        let digits = String(milliseconds)
        return String(format(date).dropLast()) + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Formats in UTC with whole seconds.
    public static func format(_ date: Date) -> String {
        let total = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return
            """
            \(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\
            \(pad(secondOfDay % 60, 2))Z
            """
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40 else { return nil }
        var i = 0
        func number(_ width: Int) -> Int64? {
            guard i + width <= b.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + width) {
                guard (48...57).contains(b[k]) else { return nil }
                v = v * 10 + Int64(b[k] - 48)
            }
            i += width
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect(UInt8(ascii: "-")), let mo = number(2), expect(UInt8(ascii: "-")),
            let d = number(2), i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t")
        else { return nil }
        i += 1
        guard let h = number(2), expect(UInt8(ascii: ":")), let mi = number(2), expect(UInt8(ascii: ":")),
            let s = number(2)
        else { return nil }
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, (48...57).contains(b[i]) {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offsetSeconds: Int64 = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let om = number(2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(y, mo, d)
        let epoch = days * 86_400 + h * 3600 + mi * 60 + s - offsetSeconds
        return Date(timeIntervalSince1970: Double(epoch) + fraction)
    }

    static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        Int64(CivilCalendar.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day)))
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let (y, m, d) = CivilCalendar.date(daysSinceEpoch: Int(days))
        return (Int64(y), Int64(m), Int64(d))
    }

    /// For `JSONEncoder`: the same text as `format`.
    public static let encodingStrategy: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(format(date))
    }

    /// For `JSONDecoder`: what `parse` accepts (also fractional seconds and offsets, which
    /// Foundation's `.iso8601` strategy refuses), with Foundation's message otherwise.
    public static let decodingStrategy: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
        }
        return date
    }
}
