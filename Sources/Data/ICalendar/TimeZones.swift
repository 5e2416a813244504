import CivilDates
import Foundation

/// Turns wall-clock times into instants for one zone.
public protocol ZoneRules: Sendable {
    /// Offset from UTC in seconds at `instant`.
    func offset(at instant: Int) -> Int
}

extension ZoneRules {
    /// The instant a wall-clock time names. In a spring-forward gap the time is read with the
    /// offset before the gap (02:30 becomes 03:30, as RFC 5545 §3.3.5 asks); in a fall-back
    /// overlap the first of the two instants wins.
    public func instant(for local: CivilTime) -> Int {
        let l = local.localSeconds
        let before = offset(at: l - offset(at: l) - 21_600)
        let after = offset(at: l - offset(at: l) + 21_600)
        let rBefore = l - before, rAfter = l - after
        let okBefore = offset(at: rBefore) == before
        let okAfter = offset(at: rAfter) == after
        switch (okBefore, okAfter) {
        case (true, true): return min(rBefore, rAfter)
        case (false, true): return rAfter
        default: return rBefore
        }
    }

    public func local(at instant: Int) -> CivilTime { .fromLocalSeconds(instant + offset(at: instant)) }
}

/// A zone of the system's tz database (Foundation `TimeZone`).
public struct SystemZone: ZoneRules {
    public let timeZone: TimeZone
    public init(_ timeZone: TimeZone) { self.timeZone = timeZone }
    public func offset(at instant: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }
}

/// A zone defined by a VTIMEZONE: STANDARD/DAYLIGHT observances, each an onset (DTSTART in the
/// offset before it) repeated by RRULE/RDATE. Transitions are worked out once, 1601…2200.
public struct DefinedZone: ZoneRules {
    public let tzid: String
    /// (instant, offset after), sorted by instant.
    let transitions: [(at: Int, offset: Int)]
    let initialOffset: Int

    public func offset(at instant: Int) -> Int {
        // Binary search: the last transition at or before `instant`.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid].at <= instant { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? initialOffset : transitions[lo - 1].offset
    }

    static func offsetSeconds(_ text: String) -> Int? {
        let u = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard u.count == 5 || u.count == 7, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-") else { return nil }
        var digits: [Int] = []
        for c in u.dropFirst() {
            guard c >= 48 && c <= 57 else { return nil }
            digits.append(Int(c - 48))
        }
        let h = digits[0] * 10 + digits[1], m = digits[2] * 10 + digits[3]
        let s = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
        guard h < 24, m < 60, s < 60 else { return nil }
        return (u[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60 + s)
    }

    init?(_ c: Component, limits: ICalendarLimits, budget: inout Int) {
        guard let tzid = c.first("TZID")?.value, !tzid.isEmpty else { return nil }
        self.tzid = tzid
        var all: [(at: Int, offset: Int, from: Int)] = []
        let horizon = CivilTime(year: 2200, month: 1, day: 1)
        for o in c.components where o.name == "STANDARD" || o.name == "DAYLIGHT" {
            guard let startText = o.first("DTSTART")?.value,
                let start = DateValue.parse(Substring(startText), tzid: nil, valueType: nil)?.local,
                let from = o.first("TZOFFSETFROM").flatMap({ Self.offsetSeconds($0.value) }),
                let to = o.first("TZOFFSETTO").flatMap({ Self.offsetSeconds($0.value) })
            else { continue }
            var onsets: [CivilTime] = [start]
            if let ruleText = o.first("RRULE")?.value, let rule = try? RecurrenceRule.parse(ruleText, limits: limits) {
                var expander = RecurrenceExpander(
                    rule: rule, start: start, limits: limits, windowEnd: horizon,
                    isPastUntil: { local in
                        guard let until = rule.until else { return false }
                        switch until {
                        case .utc(let u): return local.localSeconds - from > u.localSeconds
                        default: return local > until.local
                        }
                    })
                onsets = []
                while onsets.count < 1000, let next = expander.next(budget: &budget) { onsets.append(next) }
            }
            for r in o.all("RDATE") {
                onsets += (DateValue.parseList(r, limit: limits.maxListValues) ?? []).map(\.local)
            }
            // An onset is written in the offset in force before it.
            all += onsets.map { (at: $0.localSeconds - from, offset: to, from: from) }
        }
        guard !all.isEmpty else { return nil }
        all.sort { $0.at < $1.at }
        transitions = all.map { (at: $0.at, offset: $0.offset) }
        initialOffset = all[0].from
    }
}

/// Resolves TZIDs: the system tz database first (it is kept up to date), then the file's own
/// VTIMEZONE definitions, then common Windows zone names (Outlook/Exchange exports).
public struct ZoneResolver: Sendable {
    var defined: [String: DefinedZone] = [:]

    public init(document: ICalendarDocument, limits: ICalendarLimits, budget: inout Int) {
        for c in document.all("VTIMEZONE") {
            if let z = DefinedZone(c, limits: limits, budget: &budget) { defined[z.tzid] = z }
        }
    }

    public func rules(for tzid: String) -> (any ZoneRules)? {
        if let tz = Self.systemZone(tzid) { return SystemZone(tz) }
        if let z = defined[tzid] { return z }
        if let name = Self.windowsZones[tzid], let tz = TimeZone(identifier: name) { return SystemZone(tz) }
        return nil
    }

    /// `Europe/Dublin`, and prefixed forms such as `/mozilla.org/20050126_1/Europe/Dublin`,
    /// `/citadel.org/20190101_1/Europe/Dublin` or a bare leading slash, `/Europe/Stockholm`
    /// (exporters that mark globally unique TZIDs so).
    static func systemZone(_ tzid: String) -> TimeZone? {
        let trimmed = tzid.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        guard trimmed.count <= 128 else { return nil }
        if trimmed.contains("/") || trimmed == "UTC" || trimmed == "GMT", let tz = TimeZone(identifier: trimmed),
            !trimmed.hasPrefix("/")
        {
            return tz
        }
        let parts = trimmed.split(separator: "/")
        // Try the last three or two components (all of them when that is all there is).
        for n in [3, 2] where parts.count >= n {
            let candidate = parts.suffix(n).joined(separator: "/")
            if let tz = TimeZone(identifier: candidate) { return tz }
        }
        return nil
    }

    /// The Windows names Exchange and Outlook write most often (CLDR's windowsZones mapping).
    static let windowsZones: [String: String] = [
        "GMT Standard Time": "Europe/London", "Greenwich Standard Time": "Atlantic/Reykjavik",
        "W. Europe Standard Time": "Europe/Berlin", "Romance Standard Time": "Europe/Paris",
        "Central Europe Standard Time": "Europe/Budapest", "Central European Standard Time": "Europe/Warsaw",
        "E. Europe Standard Time": "Europe/Chisinau", "FLE Standard Time": "Europe/Kiev",
        "GTB Standard Time": "Europe/Bucharest",
        "Russian Standard Time": "Europe/Moscow", "Eastern Standard Time": "America/New_York",
        "Central Standard Time": "America/Chicago", "Mountain Standard Time": "America/Denver",
        "US Mountain Standard Time": "America/Phoenix", "Pacific Standard Time": "America/Los_Angeles",
        "Alaskan Standard Time": "America/Anchorage", "Hawaiian Standard Time": "Pacific/Honolulu",
        "Atlantic Standard Time": "America/Halifax", "Canada Central Standard Time": "America/Regina",
        "E. South America Standard Time": "America/Sao_Paulo", "India Standard Time": "Asia/Calcutta",
        "China Standard Time": "Asia/Shanghai", "Tokyo Standard Time": "Asia/Tokyo",
        "Korea Standard Time": "Asia/Seoul",
        "Singapore Standard Time": "Asia/Singapore", "AUS Eastern Standard Time": "Australia/Sydney",
        "E. Australia Standard Time": "Australia/Brisbane", "W. Australia Standard Time": "Australia/Perth",
        "New Zealand Standard Time": "Pacific/Auckland", "South Africa Standard Time": "Africa/Johannesburg",
        "Arabian Standard Time": "Asia/Dubai", "Israel Standard Time": "Asia/Jerusalem",
        "Turkey Standard Time": "Europe/Istanbul",
        "UTC": "UTC", "Coordinated Universal Time": "UTC",
    ]
}
