import Foundation

/// A wall-clock date and time with no zone, on the proleptic Gregorian calendar (`CivilCalendar`),
/// plus conversion between local wall time and instants for a time zone. The one civil-time type:
/// the template clock reads it instead of `Calendar` on the render path (exact, allocation-free
/// and independent of the locale's calendar: a `th_TH` locale must not turn `__today` into a
/// Buddhist-era year), and the iCalendar recurrence rules step through it, so a weekly 09:00
/// meeting stays at 09:00 across a daylight-saving change.
public struct CivilTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int  // 1...12
    public var day: Int  // 1...31
    public var hour: Int = 0
    public var minute: Int = 0
    public var second: Int = 0

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Days since 1970-01-01 for a Gregorian date (valid for any year the parser accepts).
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// The Gregorian date for a day count since 1970-01-01.
    public static func date(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        CivilCalendar.date(daysSinceEpoch: days)
    }

    public static func isLeapYear(_ year: Int) -> Bool { CivilCalendar.isLeapYear(year) }

    public static func daysInMonth(year: Int, month: Int) -> Int { CivilCalendar.daysInMonth(year: year, month: month) }

    /// Whole seconds of `date` since the epoch, rounded down (so 09:59:59.9 is still 09:59).
    @inline(__always)
    static func epochSeconds(_ date: Date) -> Int {
        Int(clampedSeconds(date).rounded(.down))
    }

    /// Seconds since the epoch, held inside 0001...9999 so integer conversions can never trap,
    /// whatever `Date` a library caller passes in.
    public static func clampedSeconds(_ date: Date) -> Double {
        let t = date.timeIntervalSince1970
        guard !t.isNaN else { return 0 }
        return Swift.min(Swift.max(t, earliestSeconds), latestSeconds)
    }

    /// The wall-clock time of `date` in `timeZone`. `date` must be within the parser's year range.
    public static func local(_ date: Date, in timeZone: TimeZone) -> CivilTime {
        let seconds = epochSeconds(date) + timeZone.secondsFromGMT(for: date)
        return fromLocalSeconds(seconds)
    }

    /// The wall-clock time `seconds` after 1970-01-01 00:00 (seconds read as if they were UTC).
    public static func fromLocalSeconds(_ seconds: Int) -> CivilTime {
        let (days, secondOfDay) = CivilCalendar.dayAndSecond(ofLocalSeconds: seconds)
        let ymd = date(daysSinceEpoch: days)
        return CivilTime(
            year: ymd.year, month: ymd.month, day: ymd.day,
            hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// The wall-clock time `secondOfDay` seconds into the day `dayNumber` days after 1970-01-01.
    public static func on(dayNumber: Int, secondOfDay: Int) -> CivilTime {
        fromLocalSeconds(dayNumber * 86_400 + secondOfDay)
    }

    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    /// Seconds since the epoch of this wall-clock time, as if it were UTC.
    public var localSeconds: Int { dayNumber * 86_400 + secondOfDay }

    /// 0 = Monday ... 6 = Sunday.
    public var weekday: Int { Self.weekday(dayNumber: dayNumber) }

    /// 0 = Monday ... 6 = Sunday for a day number (1970-01-01 was a Thursday).
    public static func weekday(dayNumber: Int) -> Int { ((dayNumber % 7) + 7 + 3) % 7 }

    public static func < (a: CivilTime, b: CivilTime) -> Bool { a.localSeconds < b.localSeconds }

    /// The instant this wall-clock time names in `timeZone`. In a daylight-saving gap the time is
    /// read with the offset in force before the gap (02:30 on a spring-forward night becomes 03:30);
    /// in an overlap the earlier instant wins.
    public func instant(in timeZone: TimeZone) -> Date {
        let local = Double(localSeconds)
        func offset(_ t: Double) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t)) }
        let probe = local - Double(offset(local))
        // Offsets in force six hours either side cover every real transition; a reading is valid
        // when the offset at the resulting instant is the one used to compute it.
        let before = offset(probe - 21_600)
        let after = offset(probe + 21_600)
        let readingBefore = local - Double(before)
        let readingAfter = local - Double(after)
        let beforeValid = offset(readingBefore) == before
        let afterValid = offset(readingAfter) == after
        switch (beforeValid, afterValid) {
        case (true, true): return Date(timeIntervalSince1970: Swift.min(readingBefore, readingAfter))
        case (false, true): return Date(timeIntervalSince1970: readingAfter)
        default: return Date(timeIntervalSince1970: readingBefore)
        }
    }

    /// Local midnight of this date in `timeZone` (or the first instant of the day when midnight
    /// is skipped by a daylight-saving change).
    public func startOfDay(in timeZone: TimeZone) -> Date {
        CivilTime(year: year, month: month, day: day).instant(in: timeZone)
    }

    /// `yyyy-MM-dd`.
    public var isoDate: String { "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))" }
    /// `HH:mm`.
    public var hourMinute: String { "\(Self.pad(hour, 2)):\(Self.pad(minute, 2))" }
    /// `yyyy-MM-ddTHH:mm:ss`.
    public var description: String { "\(isoDate)T\(hourMinute):\(Self.pad(second, 2))" }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The earliest and latest instants the engine treats as dates (0001-01-01 to 9999-12-31 UTC);
    /// outside them formatters and calendars misbehave, so such values are "not a date".
    public static let earliestSeconds: Double = -62_135_596_800
    public static let latestSeconds: Double = 253_402_300_799
}

extension CivilTime {
    /// ISO 8601 internet date-time in UTC: `2026-01-24T09:30:00Z`, or with milliseconds
    /// (`2026-01-24T09:30:00.250Z`). Milliseconds are truncated, never rounded up into the next second.
    /// Dates outside years 1…9999 are clamped to them first, as everywhere in the engine; the
    /// text is the store's one ISO 8601 formatter's (`ISODate`).
    public static func isoUTC(_ date: Date, fractionalSeconds: Bool) -> String {
        ISODate.format(Date(timeIntervalSince1970: clampedSeconds(date)), fractionalSeconds: fractionalSeconds)
    }

    /// Days since the epoch for a `yyyy-MM-dd` day stamp, or nil when it is not a real date.
    public static func dayNumber<S: StringProtocol>(_ stamp: S) -> Int? { CivilCalendar.dayNumber(stamp) }

    /// This date's day number since the epoch.
    public var dayNumber: Int { Self.daysSinceEpoch(year: year, month: month, day: day) }
}
