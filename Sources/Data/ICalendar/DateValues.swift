import CivilDates
import Foundation

/// A DATE or DATE-TIME value as written: a date (all-day), a UTC instant, a time in a named
/// zone, or a floating time (local wherever the reader is).
public enum DateValue: Sendable, Equatable {
    case date(CivilTime)
    case utc(CivilTime)
    case zoned(CivilTime, tzid: String)
    case floating(CivilTime)

    public var local: CivilTime {
        switch self {
        case .date(let l), .utc(let l), .zoned(let l, _), .floating(let l): return l
        }
    }

    public var isDate: Bool { if case .date = self { return true } else { return false } }

    /// Parses `20260124`, `20260124T090000`, `20260124T090000Z` with the property's TZID and
    /// VALUE parameters. Years 1601…9999 (Outlook's zone definitions start in 1601).
    public static func parse(_ text: Substring, tzid: String?, valueType: String?) -> DateValue? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let u = Array(t.utf8)
        func digits(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= u.count else { return nil }
            var v = 0
            for i in r {
                let c = u[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard u.count >= 8, let y = digits(0..<4), let mo = digits(4..<6), let d = digits(6..<8),
            (1601...9999).contains(y), (1...12).contains(mo), d >= 1, d <= CivilCalendar.daysInMonth(year: y, month: mo)
        else { return nil }
        if u.count == 8 {
            return .date(CivilTime(year: y, month: mo, day: d))
        }
        guard valueType?.uppercased() != "DATE" else { return nil }
        guard u.count == 15 || (u.count == 16 && u[15] == UInt8(ascii: "Z")), u[8] == UInt8(ascii: "T"),
            let h = digits(9..<11), let mi = digits(11..<13), let s = digits(13..<15),
            h <= 23, mi <= 59, s <= 60
        else { return nil }
        let l = CivilTime(year: y, month: mo, day: d, hour: h, minute: mi, second: min(s, 59))
        if u.count == 16 { return .utc(l) }
        if let tzid, !tzid.isEmpty { return .zoned(l, tzid: tzid) }
        return .floating(l)
    }

    static func parseList(_ p: Property, limit: Int) -> [DateValue]? {
        parsePeriodList(p, limit: limit)?.map(\.start)
    }

    /// The end of an RDATE period (RFC 5545 §3.3.9): a date-time, or a duration from the start.
    enum PeriodEnd: Equatable {
        case end(DateValue)
        case duration(days: Int, seconds: Int)
    }

    /// A list of dates, date-times or periods (`start/end`, `start/PT2H`). A period end that
    /// cannot be read is left out (the instance then has the event's own length); a start that
    /// cannot be read makes the whole list unreadable (nil).
    static func parsePeriodList(_ p: Property, limit: Int) -> [(start: DateValue, end: PeriodEnd?)]? {
        let parts = p.value.split(separator: ",", omittingEmptySubsequences: true)
        guard parts.count <= limit else { return nil }
        var out: [(start: DateValue, end: PeriodEnd?)] = []
        for part in parts {
            let pieces = part.split(separator: "/", maxSplits: 1)
            guard let first = pieces.first,
                let v = parse(first, tzid: p.parameter("TZID"), valueType: p.parameter("VALUE"))
            else { return nil }
            var end: PeriodEnd?
            if pieces.count == 2 {
                let text = pieces[1].trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("P") || text.hasPrefix("+P") {
                    end = DurationValue.parse(text).map { .duration(days: $0.days, seconds: $0.seconds) }
                } else {
                    end = parse(Substring(text), tzid: p.parameter("TZID"), valueType: nil).map { .end($0) }
                }
            }
            out.append((v, end))
        }
        return out
    }
}

/// An RFC 5545 DURATION: `P1W`, `PT1H30M`, `-P1D`, `P1DT12H`.
enum DurationValue {
    /// Whole days (kept apart so a day across a DST change stays a calendar day) and seconds.
    static func parse(_ text: String) -> (days: Int, seconds: Int)? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        var sign = 1
        if s.hasPrefix("-") {
            sign = -1
            s = s.dropFirst()
        } else if s.hasPrefix("+") {
            s = s.dropFirst()
        }
        guard s.hasPrefix("P") else { return nil }
        s = s.dropFirst()
        var days = 0, seconds = 0, number = 0, haveNumber = false, inTime = false, any = false
        for c in s {
            if let d = c.wholeNumberValue, c.isASCII {
                number = number * 10 + d
                haveNumber = true
                guard number < 100_000_000 else { return nil }
                continue
            }
            switch c {
            case "T":
                guard !inTime, !haveNumber else { return nil }
                inTime = true
                continue
            case "W" where !inTime: days += number * 7
            case "D" where !inTime: days += number
            case "H" where inTime: seconds += number * 3600
            case "M" where inTime: seconds += number * 60
            case "S" where inTime: seconds += number
            default: return nil
            }
            guard haveNumber else { return nil }
            number = 0
            haveNumber = false
            any = true
        }
        guard any, !haveNumber else { return nil }
        return (sign * days, sign * seconds)
    }
}
