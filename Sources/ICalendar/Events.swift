import Foundation

/// One occurrence of an event: a single event, or one instance of a recurring one.
public struct Occurrence: Sendable, Equatable {
    public var uid: String
    public var title: String
    public var location: String?
    public var start: Date
    public var end: Date
    public var isAllDay: Bool
    /// For all-day events, the first and the last day (`yyyy-MM-dd`, inclusive).
    public var startDay: String?
    public var endDay: String?
    /// TENTATIVE or CONFIRMED when the file says so.
    public var status: String?
    /// Written without a zone: read in the user's zone.
    public var isFloating: Bool
}

/// Expands the events of a parsed calendar inside a window of time.
public struct EventExpander {
    public var limits: ICalendarLimits
    /// Where floating times and all-day dates are read (the user's zone).
    public var localZone: TimeZone

    public init(limits: ICalendarLimits = ICalendarLimits(), localZone: TimeZone) {
        self.limits = limits
        self.localZone = localZone
    }

    public struct Result: Sendable {
        public var occurrences: [Occurrence]
        public var warnings: [ICalendarWarning]
        /// Events in the file (masters and overrides), cancelled ones included.
        public var eventCount: Int
    }

    struct Timing {
        var start: DateValue
        var zone: (any ZoneRules)?
        /// Length: whole days (all-day, or DURATION days kept as calendar days) plus seconds.
        var days: Int
        var seconds: Int
    }

    /// Occurrences that overlap [from, to), sorted by start. STATUS:CANCELLED events and
    /// instances are left out; EXDATE removes instances; RECURRENCE-ID overrides replace them.
    public func occurrences(in document: ICalendarDocument, from: Date, to: Date) -> Result {
        var warnings = document.warnings
        var budget = limits.maxPeriodsPerFile
        let zones = ZoneResolver(document: document, limits: limits, budget: &budget)
        let local = SystemZone(localZone)
        let events = document.all("VEVENT")
        var out: [Occurrence] = []

        // RECURRENCE-IDs by UID: the instances that overrides replace.
        var overridden: [String: Set<Int>] = [:]
        var overriddenDays: [String: Set<Int>] = [:]
        for e in events {
            guard let uid = e.first("UID")?.value, let rid = e.first("RECURRENCE-ID"),
                  let v = DateValue.parse(Substring(rid.value), tzid: rid.parameter("TZID"), valueType: rid.parameter("VALUE")) else { continue }
            if v.isDate {
                overriddenDays[uid, default: []].insert(v.local.dayNumber)
            } else if let t = instant(v, zones: zones, local: local, warnings: &warnings, line: rid.line) {
                overridden[uid, default: []].insert(t)
            }
        }

        let fromSeconds = Int(from.timeIntervalSince1970.rounded(.down))
        let toSeconds = Int(to.timeIntervalSince1970.rounded(.up))
        for e in events {
            if e.first("STATUS")?.value.uppercased() == "CANCELLED" { continue }
            guard let dtstart = e.first("DTSTART") else {
                warnings.append(ICalendarWarning(line: e.line, message: "VEVENT without DTSTART; skipped"))
                continue
            }
            guard let start = DateValue.parse(Substring(dtstart.value), tzid: dtstart.parameter("TZID"), valueType: dtstart.parameter("VALUE")) else {
                warnings.append(ICalendarWarning(line: dtstart.line, message: "DTSTART '\(dtstart.value.prefix(40))' is not a date or date-time; event skipped"))
                continue
            }
            var zone: (any ZoneRules)?
            switch start {
            case .utc: zone = SystemZone(TimeZone(identifier: "UTC")!)
            case .zoned(_, let tzid):
                zone = zones.rules(for: tzid)
                if zone == nil {
                    warnings.append(ICalendarWarning(line: dtstart.line, message: "unknown time zone '\(tzid.prefix(64))'; read as local time"))
                }
            case .date, .floating: zone = nil
            }
            // Length: DTEND, else DURATION, else a day (all-day) or nothing (timed).
            var days = start.isDate ? 1 : 0, seconds = 0
            if let dtend = e.first("DTEND"),
               let end = DateValue.parse(Substring(dtend.value), tzid: dtend.parameter("TZID"), valueType: dtend.parameter("VALUE")) {
                if start.isDate {
                    days = max(1, end.local.dayNumber - start.local.dayNumber)
                } else if let s = instant(start, zone: zone, local: local), let t = instant(end, zones: zones, local: local, warnings: &warnings, line: dtend.line) {
                    days = 0
                    seconds = max(0, t - s)
                }
            } else if let d = e.first("DURATION"), let parsed = DurationValue.parse(d.value) {
                days = max(0, parsed.days)
                seconds = max(0, parsed.seconds)
                if start.isDate && days == 0 { days = 1 }
            }
            let timing = Timing(start: start, zone: zone, days: days, seconds: seconds)
            let uid = e.first("UID")?.value ?? "line-\(e.line)"
            let title = e.first("SUMMARY")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let base = Occurrence(uid: uid, title: title.isEmpty ? "Untitled" : String(title.prefix(1000)),
                                  location: e.first("LOCATION").map { String($0.text.prefix(1000)) }.flatMap { $0.isEmpty ? nil : $0 },
                                  start: Date(), end: Date(), isAllDay: start.isDate, startDay: nil, endDay: nil,
                                  status: e.first("STATUS")?.value.uppercased(), isFloating: zone == nil && !start.isDate)

            let isOverride = e.first("RECURRENCE-ID") != nil
            let rrule = isOverride ? nil : e.first("RRULE")
            // Instance start times (wall clock in the event's zone), DTSTART first.
            var starts: [LocalDateTime] = []
            if let rrule {
                do {
                    let rule = try RecurrenceRule.parse(rrule.value, limits: limits)
                    let windowEnd = LocalDateTime.fromLocalSeconds(toSeconds + 14 * 3600 + 86_400)
                    let length = days * 86_400 + seconds
                    let windowStart = LocalDateTime.fromLocalSeconds(fromSeconds - length - 14 * 3600 - 86_400)
                    let z = zone
                    var expander = RecurrenceExpander(
                        rule: rule, start: start.local, limits: limits, windowEnd: windowEnd, windowStart: windowStart,
                        isPastUntil: { l in
                            guard let until = rule.until else { return false }
                            switch until {
                            case .date(let d): return l.dayNumber > d.dayNumber
                            case .utc(let u):
                                let t = (z ?? local).instant(for: l)
                                return t > u.localSeconds
                            case .zoned(let u, _), .floating(let u): return l > u
                            }
                        })
                    var produced = 0
                    while let next = expander.next(budget: &budget) {
                        // Only those that can overlap the window are kept; the rest are counted.
                        if next >= windowStart {
                            starts.append(next)
                            produced += 1
                            if produced >= limits.maxOccurrencesPerEvent {
                                warnings.append(ICalendarWarning(line: rrule.line, message: "more than \(limits.maxOccurrencesPerEvent) occurrences in the window; the rest are left out"))
                                break
                            }
                        }
                    }
                    if budget <= 0 {
                        warnings.append(ICalendarWarning(line: rrule.line, message: "the file's recurrence budget (\(limits.maxPeriodsPerFile) steps) ran out; later events may be missing"))
                    }
                } catch {
                    warnings.append(ICalendarWarning(line: rrule.line, message: "\(error); only the first occurrence is shown"))
                    starts = [start.local]
                }
            } else {
                starts = [start.local]
            }
            for r in e.all("RDATE") where !isOverride {
                guard let values = DateValue.parseList(r, limit: limits.maxListValues) else {
                    warnings.append(ICalendarWarning(line: r.line, message: "RDATE could not be read; ignored"))
                    continue
                }
                // RDATE values in another zone (or UTC) are converted to the event's wall clock.
                for v in values {
                    switch v {
                    case .date(let l), .floating(let l): starts.append(LocalDateTime.on(dayNumber: l.dayNumber, secondOfDay: v.isDate ? start.local.secondOfDay : l.secondOfDay))
                    default:
                        if let t = instant(v, zones: zones, local: local, warnings: &warnings, line: r.line) {
                            starts.append((zone ?? local).local(at: t))
                        }
                    }
                }
            }
            // EXDATE: instants for timed events, dates for all-day ones (or a DATE EXDATE).
            var exInstants: Set<Int> = [], exDays: Set<Int> = []
            for x in e.all("EXDATE") {
                guard let values = DateValue.parseList(x, limit: limits.maxListValues) else {
                    warnings.append(ICalendarWarning(line: x.line, message: "EXDATE could not be read; ignored"))
                    continue
                }
                for v in values {
                    if v.isDate || start.isDate { exDays.insert(v.local.dayNumber) }
                    else if case .floating(let l) = v, zone != nil { exInstants.insert(zone!.instant(for: l)) }
                    else if let t = instant(v, zones: zones, local: local, warnings: &warnings, line: x.line) { exInstants.insert(t) }
                }
            }
            let replaced = isOverride ? [] : overridden[uid] ?? []
            let replacedDays = isOverride ? [] : overriddenDays[uid] ?? []
            var seen: Set<Int> = []
            for l in starts {
                let o: Occurrence
                if start.isDate {
                    let day = l.dayNumber
                    if exDays.contains(day) || replacedDays.contains(day) || !seen.insert(day).inserted { continue }
                    let s = local.instant(for: .on(dayNumber: day, secondOfDay: 0))
                    let endDay = day + max(1, timing.days)
                    let e = local.instant(for: .on(dayNumber: endDay, secondOfDay: 0))
                    var occ = base
                    occ.start = Date(timeIntervalSince1970: TimeInterval(s))
                    occ.end = Date(timeIntervalSince1970: TimeInterval(e))
                    occ.startDay = LocalDateTime.on(dayNumber: day, secondOfDay: 0).isoDate
                    occ.endDay = LocalDateTime.on(dayNumber: endDay - 1, secondOfDay: 0).isoDate
                    o = occ
                } else {
                    let rules = zone ?? local
                    let s = rules.instant(for: l)
                    if exInstants.contains(s) || exDays.contains(l.dayNumber) { continue }
                    if replaced.contains(s) || replacedDays.contains(l.dayNumber) || !seen.insert(s).inserted { continue }
                    // Calendar days of the length are added on the wall clock, seconds on the timeline.
                    let endLocal = LocalDateTime.on(dayNumber: l.dayNumber + timing.days, secondOfDay: l.secondOfDay)
                    let e = rules.instant(for: endLocal) + timing.seconds
                    var occ = base
                    occ.start = Date(timeIntervalSince1970: TimeInterval(s))
                    occ.end = Date(timeIntervalSince1970: TimeInterval(max(s, e)))
                    o = occ
                }
                let s = Int(o.start.timeIntervalSince1970), en = Int(o.end.timeIntervalSince1970)
                // Overlaps the window (a zero-length event counts at its start).
                if s < toSeconds && (en > fromSeconds || (en == s && s >= fromSeconds)) { out.append(o) }
            }
        }
        out.sort { ($0.start, $0.end, $0.title) < ($1.start, $1.end, $1.title) }
        return Result(occurrences: out, warnings: warnings, eventCount: events.count)
    }

    func instant(_ v: DateValue, zone: (any ZoneRules)?, local: SystemZone) -> Int? {
        switch v {
        case .utc(let l): return l.localSeconds
        case .zoned(let l, _): return (zone ?? local).instant(for: l)
        case .floating(let l), .date(let l): return local.instant(for: l)
        }
    }

    func instant(_ v: DateValue, zones: ZoneResolver, local: SystemZone, warnings: inout [ICalendarWarning], line: Int) -> Int? {
        switch v {
        case .utc(let l): return l.localSeconds
        case .zoned(let l, let tzid):
            guard let z = zones.rules(for: tzid) else {
                warnings.append(ICalendarWarning(line: line, message: "unknown time zone '\(tzid.prefix(64))'; read as local time"))
                return local.instant(for: l)
            }
            return z.instant(for: l)
        case .floating(let l), .date(let l): return local.instant(for: l)
        }
    }
}
