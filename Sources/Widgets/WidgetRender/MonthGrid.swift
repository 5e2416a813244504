import CivilDates
import Foundation
import WidgetDataKeys

/// The days a month calendar shows: whole weeks from the locale's first weekday, the month's
/// days with the previous and next months' days filling the first and last weeks.
public struct MonthGrid: Sendable, Hashable {
    public struct Cell: Sendable, Hashable {
        public var year: Int
        public var month: Int
        public var day: Int
        /// False for the neighbouring months' days.
        public var inMonth: Bool
        /// Days since 1970-01-01.
        public var dayNumber: Int
    }

    public var year: Int
    public var month: Int
    /// 1 = Sunday … 7 = Saturday, as `Calendar.firstWeekday`.
    public var firstWeekday: Int
    /// Rows of seven, four to six of them.
    public var weeks: [[Cell]]

    public init(year: Int, month: Int, firstWeekday: Int) {
        self.year = year
        self.month = month
        self.firstWeekday = min(max(firstWeekday, 1), 7)
        let first = CivilTime.daysSinceEpoch(year: year, month: month, day: 1)
        let leading = (Self.weekday(ofDay: first) - self.firstWeekday + 7) % 7
        let count = CivilTime.daysInMonth(year: year, month: month)
        let rows = (leading + count + 6) / 7
        var weeks: [[Cell]] = []
        for row in 0..<rows {
            var week: [Cell] = []
            for column in 0..<7 {
                let n = first - leading + row * 7 + column
                let d = CivilTime.date(daysSinceEpoch: n)
                week.append(
                    Cell(
                        year: d.year, month: d.month, day: d.day, inMonth: d.month == month && d.year == year,
                        dayNumber: n))
            }
            weeks.append(week)
        }
        self.weeks = weeks
    }

    /// 1 = Sunday … 7 = Saturday for a day count since 1970-01-01 (a Thursday).
    public static func weekday(ofDay n: Int) -> Int { ((n + 4) % 7 + 7) % 7 + 1 }

    /// The locale's first weekday (1 = Sunday … 7 = Saturday): Monday in en_GB and de_DE,
    /// Sunday in en_US.
    public static func firstWeekday(of locale: Locale) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        return calendar.firstWeekday
    }
}
