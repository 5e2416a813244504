/// Proleptic Gregorian day arithmetic on plain integers (H. Hinnant's civil-calendar formulas):
/// exact, allocation-free and independent of any locale's calendar. Shared by the template clock
/// and the design exchange format's ISO 8601 dates.
public enum CivilCalendar {
    /// Days since 1970-01-01 for a Gregorian date.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Shift the year to start in March so the leap day is the last day of the year.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days since 1970-01-01 for a `yyyy-MM-dd` day stamp, or nil when it is not that shape or not a
    /// real date (2026-02-30). The one day-stamp reader of the template clock and the snapshots.
    public static func dayNumber<S: StringProtocol>(_ stamp: S) -> Int? {
        let bytes = Array(stamp.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), (1...12).contains(month), let day = number(8..<10),
            (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The Gregorian date for a day count since 1970-01-01.
    public static func date(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Seconds since the epoch of a wall-clock time read as UTC, split into whole days since
    /// 1970-01-01 and the second of that day; rounds down, so a time before 1970 is on its own day.
    public static func dayAndSecond(ofLocalSeconds seconds: Int) -> (days: Int, secondOfDay: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, seconds - days * 86_400)
    }
}
