import CivilDates
import Foundation

/// An RRULE (RFC 5545 §3.3.10) with the parts calendars use: FREQ HOURLY/DAILY/WEEKLY/MONTHLY/YEARLY,
/// INTERVAL, COUNT, UNTIL, BYDAY (with ordinals such as 2MO or -1FR in MONTHLY and YEARLY),
/// BYMONTHDAY, BYMONTH, BYSETPOS, WKST; RFC 7529's RSCALE=GREGORIAN with SKIP. A part it does not
/// follow (another RSCALE, BYHOUR, a name it does not know) is refused rather than ignored, since
/// ignoring it gives wrong dates; callers then show the first occurrence only, a fallback RFC 7529
/// §3 allows for a scale a client does not support.
public struct RecurrenceRule: Sendable, Equatable {
    public enum Frequency: String, Sendable {
        case hourly = "HOURLY"
        case daily = "DAILY"
        case weekly = "WEEKLY"
        case monthly = "MONTHLY"
        case yearly = "YEARLY"
    }
    public struct WeekdayNum: Sendable, Equatable {
        /// nil: every such weekday in the period; 1 = first, -1 = last.
        public var ordinal: Int?
        /// 0 = Monday ... 6 = Sunday.
        public var weekday: Int
    }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: DateValue?
    public var byDay: [WeekdayNum] = []
    public var byMonthDay: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPos: [Int] = []
    public var weekStart = 0
    /// RFC 7529 SKIP: what an invalid date (the 31st in April, 29 February) becomes.
    public enum Skip: String, Sendable {
        case omit = "OMIT"
        case backward = "BACKWARD"
        case forward = "FORWARD"
    }
    public var skip = Skip.omit

    /// Every part RFC 5545 §3.3.10 and RFC 7529 define.
    static let knownParts: Set<String> = [
        "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY",
        "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RSCALE", "SKIP",
    ]

    static let weekdays = ["MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6]

    public struct Unsupported: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ text: String, limits: ICalendarLimits) throws -> RecurrenceRule {
        var parts: [String: String] = [:]
        for part in text.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else {
                throw Unsupported(description: "RRULE part '\(part.prefix(40))' is not NAME=VALUE")
            }
            parts[kv[0].uppercased()] = String(kv[1])
        }
        for name in parts.keys.sorted() where !knownParts.contains(name) {
            throw Unsupported(description: "RRULE part \(name.prefix(40)) is not one this reader knows")
        }
        if let scale = parts["RSCALE"], scale.uppercased() != "GREGORIAN" {
            throw Unsupported(
                description: "RRULE RSCALE=\(scale.prefix(20)) is not supported (RFC 7529; GREGORIAN is)")
        }
        guard let f = parts["FREQ"] else { throw Unsupported(description: "RRULE has no FREQ") }
        guard let frequency = Frequency(rawValue: f.uppercased()) else {
            throw Unsupported(
                description: "RRULE FREQ=\(f.prefix(20)) is not supported (HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY are)")
        }
        for unsupported in ["BYHOUR", "BYMINUTE", "BYSECOND", "BYWEEKNO", "BYYEARDAY"] where parts[unsupported] != nil {
            throw Unsupported(description: "RRULE \(unsupported) is not supported")
        }
        var r = RecurrenceRule(frequency: frequency)
        func ints(_ key: String, _ range: ClosedRange<Int>) throws -> [Int] {
            guard let v = parts[key] else { return [] }
            let items = v.split(separator: ",")
            guard items.count <= limits.maxListValues else {
                throw Unsupported(description: "RRULE \(key) has more than \(limits.maxListValues) values")
            }
            return try items.map {
                guard let n = Int($0), range.contains(n), n != 0 || range.lowerBound > 0 else {
                    throw Unsupported(
                        description: """
                            RRULE \(key)=\($0.prefix(20)) is outside \(range.lowerBound)…\(range.upperBound)
                            """)
                }
                return n
            }
        }
        if let i = parts["INTERVAL"] {
            guard let n = Int(i), (1...10_000).contains(n) else {
                throw Unsupported(description: "RRULE INTERVAL=\(i.prefix(20)) is outside 1…10000")
            }
            r.interval = n
        }
        if let c = parts["COUNT"] {
            // Any COUNT is accepted; expansion stops at the window and the limits anyway.
            guard let n = Int(c.prefix(18)), n >= 1 else {
                throw Unsupported(description: "RRULE COUNT=\(c.prefix(20)) is not a positive number")
            }
            r.count = n
        }
        if let u = parts["UNTIL"] {
            guard let v = DateValue.parse(Substring(u), tzid: nil, valueType: nil) else {
                throw Unsupported(description: "RRULE UNTIL=\(u.prefix(20)) is not a date or date-time")
            }
            r.until = v
        }
        if let d = parts["BYDAY"] {
            let items = d.split(separator: ",")
            guard items.count <= limits.maxListValues else {
                throw Unsupported(description: "RRULE BYDAY has too many values")
            }
            r.byDay = try items.map { item in
                let code = String(item.suffix(2)).uppercased()
                guard let wd = weekdays[code] else {
                    throw Unsupported(description: "RRULE BYDAY value '\(item.prefix(10))' is not a weekday")
                }
                let prefix = item.dropLast(2)
                if prefix.isEmpty { return WeekdayNum(ordinal: nil, weekday: wd) }
                guard let n = Int(prefix), n != 0, (-53...53).contains(n) else {
                    throw Unsupported(description: "RRULE BYDAY value '\(item.prefix(10))' has a bad ordinal")
                }
                return WeekdayNum(ordinal: n, weekday: wd)
            }
        }
        r.byMonthDay = try ints("BYMONTHDAY", -31...31)
        r.byMonth = try ints("BYMONTH", 1...12)
        r.bySetPos = try ints("BYSETPOS", -366...366)
        if let w = parts["WKST"] {
            guard let wd = weekdays[w.uppercased()] else {
                throw Unsupported(description: "RRULE WKST=\(w.prefix(10)) is not a weekday")
            }
            r.weekStart = wd
        }
        if let k = parts["SKIP"] {
            // RFC 7529 §4.1: SKIP only with RSCALE.
            guard parts["RSCALE"] != nil, let skip = Skip(rawValue: k.uppercased()) else {
                throw Unsupported(
                    description: "RRULE SKIP=\(k.prefix(20)) is not OMIT, BACKWARD or FORWARD with RSCALE")
            }
            r.skip = skip
        }
        return r
    }
}

/// Steps a rule through wall-clock time, one period at a time, yielding occurrences in order
/// from DTSTART (which always counts as the first). Bounded three ways: COUNT/UNTIL, the end of
/// the window, and a budget of periods (shared by a whole file), so no rule can run away.
public struct RecurrenceExpander {
    let rule: RecurrenceRule
    let start: CivilTime
    let limits: ICalendarLimits
    let windowEnd: CivilTime
    let isPastUntil: (CivilTime) -> Bool
    var period = 0
    var periods = 0
    var emitted = 0
    var pending: [CivilTime] = []
    var pendingIndex = 0
    var finished = false
    var startEmitted = false

    public init(
        rule: RecurrenceRule, start: CivilTime, limits: ICalendarLimits, windowEnd: CivilTime,
        windowStart: CivilTime? = nil, isPastUntil: @escaping (CivilTime) -> Bool
    ) {
        self.rule = rule
        self.start = start
        self.limits = limits
        self.windowEnd = windowEnd
        self.isPastUntil = isPastUntil
        // Without COUNT, nothing before the window matters: jump to a period just before it.
        if rule.count == nil, let ws = windowStart, ws > start {
            let skipped: Int
            switch rule.frequency {
            case .hourly: skipped = (ws.localSeconds - start.localSeconds) / (3600 * rule.interval)
            case .daily: skipped = (ws.dayNumber - start.dayNumber) / rule.interval
            case .weekly: skipped = (ws.dayNumber - start.dayNumber) / (7 * rule.interval)
            case .monthly: skipped = ((ws.year - start.year) * 12 + ws.month - start.month) / rule.interval
            case .yearly: skipped = (ws.year - start.year) / rule.interval
            }
            period = max(0, skipped - 1)
            startEmitted = true
        }
    }

    /// The next occurrence, or nil when the rule, the window or the budget is done.
    public mutating func next(budget: inout Int) -> CivilTime? {
        if !startEmitted {
            startEmitted = true
            if isPastUntil(start) || start > windowEnd {
                finished = true
                return nil
            }
            emitted = 1
            return start
        }
        while !finished {
            if let count = rule.count, emitted >= count {
                finished = true
                return nil
            }
            if pendingIndex < pending.count {
                let c = pending[pendingIndex]
                pendingIndex += 1
                guard c > start else { continue }  // DTSTART was already counted
                if isPastUntil(c) || c > windowEnd {
                    finished = true
                    return nil
                }
                emitted += 1
                return c
            }
            guard periods < limits.maxPeriodsPerRule, budget > 0 else {
                finished = true
                return nil
            }
            periods += 1
            budget -= 1
            guard let (candidates, periodStart) = candidates(forPeriod: period) else {
                finished = true
                return nil
            }
            period += 1
            if periodStart > windowEnd {
                finished = true
                return nil
            }
            pending = candidates
            pendingIndex = 0
        }
        return nil
    }

    /// The sorted occurrences of one period and the period's first day (nil past year 9999).
    func candidates(forPeriod k: Int) -> ([CivilTime], CivilTime)? {
        let sod = start.secondOfDay
        var days: [Int] = []
        let periodStart: CivilTime
        switch rule.frequency {
        case .hourly:
            // Hours step on the wall clock, as the other frequencies do.
            let l = CivilTime.fromLocalSeconds(start.localSeconds + k * rule.interval * 3600)
            guard l.year <= 9999 else { return nil }
            periodStart = l
            if (rule.byMonth.isEmpty || rule.byMonth.contains(l.month))
                && (rule.byMonthDay.isEmpty || Self.matchesMonthDay(l, rule.byMonthDay))
                && (rule.byDay.isEmpty || rule.byDay.contains { $0.weekday == l.weekday })
            {
                return ([l], periodStart)
            }
            return ([], periodStart)
        case .daily:
            let d = start.dayNumber + k * rule.interval
            periodStart = .on(dayNumber: d, secondOfDay: 0)
            let l = periodStart
            if (rule.byMonth.isEmpty || rule.byMonth.contains(l.month))
                && (rule.byMonthDay.isEmpty || Self.matchesMonthDay(l, rule.byMonthDay))
                && (rule.byDay.isEmpty || rule.byDay.contains { $0.weekday == l.weekday })
            {
                days = [d]
            }
        case .weekly:
            let offset = (start.weekday - rule.weekStart + 7) % 7
            let weekFirst = start.dayNumber - offset + 7 * k * rule.interval
            periodStart = .on(dayNumber: weekFirst, secondOfDay: 0)
            let wanted = rule.byDay.isEmpty ? [start.weekday] : rule.byDay.map(\.weekday)
            for i in 0..<7 {
                let d = weekFirst + i
                let wd = CivilTime.weekday(dayNumber: d)
                guard wanted.contains(wd) else { continue }
                let l = CivilTime.on(dayNumber: d, secondOfDay: 0)
                if rule.byMonth.isEmpty || rule.byMonth.contains(l.month) { days.append(d) }
            }
        case .monthly:
            let m0 = start.year * 12 + (start.month - 1) + k * rule.interval
            let y = m0 / 12, m = m0 % 12 + 1
            guard y <= 9999 else { return nil }
            periodStart = CivilTime(year: y, month: m, day: 1)
            if rule.byMonth.isEmpty || rule.byMonth.contains(m) {
                days = monthDays(year: y, month: m)
            }
        case .yearly:
            let y = start.year + k * rule.interval
            guard y <= 9999 else { return nil }
            periodStart = CivilTime(year: y, month: 1, day: 1)
            if !rule.byMonth.isEmpty {
                for m in Set(rule.byMonth).sorted() { days += monthDays(year: y, month: m) }
            } else if !rule.byDay.isEmpty && rule.byMonthDay.isEmpty {
                // BYDAY alone in YEARLY: the weekdays of the whole year (2MO = the year's second Monday).
                days = Self.weekdayDays(
                    first: CivilDay.number(y, 1, 1), last: CivilDay.number(y, 12, 31), byDay: rule.byDay)
            } else if !rule.byMonthDay.isEmpty {
                for m in 1...12 { days += monthDays(year: y, month: m) }
            } else {
                days = monthDays(year: y, month: start.month)
            }
        }
        days.sort()
        var result = days.map { CivilTime.on(dayNumber: $0, secondOfDay: sod) }
        if !rule.bySetPos.isEmpty {
            let n = result.count
            result = rule.bySetPos.compactMap { p -> CivilTime? in
                let i = p > 0 ? p - 1 : n + p
                return (0..<n).contains(i) ? result[i] : nil
            }.sorted()
        }
        return (result, periodStart)
    }

    /// The days of one month that the rule's BYMONTHDAY/BYDAY pick (DTSTART's day without either).
    func monthDays(year y: Int, month m: Int) -> [Int] {
        let first = CivilDay.number(y, m, 1)
        let length = CivilCalendar.daysInMonth(year: y, month: m)
        var byMonthDay: [Int] = []
        // An invalid day is left out (RFC 5545), or with RFC 7529's SKIP moved to the month's
        // last day or the next month's first.
        func valid(_ d: Int) -> Int? {
            if d >= 1 && d <= length { return first + d - 1 }
            guard d > length else { return nil }
            switch rule.skip {
            case .omit: return nil
            case .backward: return first + length - 1
            case .forward: return first + length
            }
        }
        for v in rule.byMonthDay {
            if let d = valid(v > 0 ? v : length + v + 1), !byMonthDay.contains(d) { byMonthDay.append(d) }
        }
        if rule.byDay.isEmpty {
            if rule.byMonthDay.isEmpty { return valid(start.day).map { [$0] } ?? [] }
            return byMonthDay
        }
        let weekdayDays = Self.weekdayDays(first: first, last: first + length - 1, byDay: rule.byDay)
        return rule.byMonthDay.isEmpty ? weekdayDays : weekdayDays.filter(byMonthDay.contains)
    }

    /// Days in [first, last] matching BYDAY: every such weekday, or the nth / nth-from-last.
    static func weekdayDays(first: Int, last: Int, byDay: [RecurrenceRule.WeekdayNum]) -> [Int] {
        var out: Set<Int> = []
        for wdn in byDay {
            let firstMatch = first + (wdn.weekday - CivilTime.weekday(dayNumber: first) + 7) % 7
            if let n = wdn.ordinal {
                if n > 0 {
                    let d = firstMatch + 7 * (n - 1)
                    if d <= last { out.insert(d) }
                } else {
                    let lastMatch = last - (CivilTime.weekday(dayNumber: last) - wdn.weekday + 7) % 7
                    let d = lastMatch + 7 * (n + 1)
                    if d >= first { out.insert(d) }
                }
            } else {
                var d = firstMatch
                while d <= last {
                    out.insert(d)
                    d += 7
                }
            }
        }
        return out.sorted()
    }

    static func matchesMonthDay(_ l: CivilTime, _ values: [Int]) -> Bool {
        let length = CivilCalendar.daysInMonth(year: l.year, month: l.month)
        return values.contains { $0 > 0 ? $0 == l.day : length + $0 + 1 == l.day }
    }
}

enum CivilDay {
    static func number(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilTime(year: y, month: m, day: d).dayNumber }
}
