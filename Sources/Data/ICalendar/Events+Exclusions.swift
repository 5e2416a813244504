import CivilDates
import Foundation

extension EventExpander {
    /// A series' EXDATE values in its own terms: instants for a timed series, days for an
    /// all-day one (and for a DATE EXDATE on a timed series, which excludes that whole day).
    struct Exclusions {
        var instants: Set<Int> = []
        var days: Set<Int> = []
    }

    func exclusions(
        of r: Reading, zones: ZoneResolver, local: SystemZone, warnings: inout [ICalendarWarning]
    ) -> Exclusions {
        let rules: any ZoneRules = r.timing.zone ?? local
        var x = Exclusions()
        for p in r.component.all("EXDATE") {
            guard let values = DateValue.parseList(p, limit: limits.maxListValues) else {
                warnings.append(ICalendarWarning(line: p.line, message: "EXDATE could not be read; ignored"))
                continue
            }
            for v in values {
                if v.isDate || r.timing.start.isDate {
                    x.days.insert(v.local.dayNumber)
                } else if case .floating(let l) = v {
                    x.instants.insert(rules.instant(for: l))
                } else if let t = instant(
                    v, zones: zones, local: local, floating: r.floating, warnings: &warnings, line: p.line)
                {
                    x.instants.insert(t)
                }
            }
        }
        return x
    }

    /// Whether an RRULE's UNTIL has passed at `l`, a wall-clock time of the series (`rules` its zone).
    static func isPast(_ until: DateValue?, _ l: CivilTime, rules: any ZoneRules) -> Bool {
        guard let until else { return false }
        switch until {
        case .date(let d): return l.dayNumber > d.dayNumber
        case .utc(let u): return rules.instant(for: l) > u.localSeconds
        case .zoned(let u, _), .floating(let u): return l > u
        }
    }

    /// Whether the series `master` no longer has the instance an override names: its EXDATE
    /// removes it, or every RRULE ends (UNTIL) before it and neither DTSTART nor an RDATE is it.
    /// RFC 5545 §3.8.4.4 ties a RECURRENCE-ID to an instance of the series' recurrence set, and
    /// §3.8.5.1 takes EXDATE instances out of that set: an edited instance the series later
    /// dropped is not shown (Google and Outlook leave such overrides in their exports).
    func seriesExcludes(
        _ master: Reading, recurrenceID rid: DateValue, ridFloating: any ZoneRules, zones: ZoneResolver,
        local: SystemZone
    ) -> Bool {
        var ignored: [ICalendarWarning] = []  // the master's own expansion says these
        let rules: any ZoneRules = master.timing.zone ?? local
        let allDay = master.timing.start.isDate || rid.isDate
        let ridInstant: Int
        if rid.isDate || master.timing.start.isDate {
            ridInstant = local.instant(for: .on(dayNumber: rid.local.dayNumber, secondOfDay: 0))
        } else if let t = instant(
            rid, zones: zones, local: local, floating: ridFloating, warnings: &ignored, line: 0)
        {
            ridInstant = t
        } else {
            return false
        }
        let ridLocal = allDay ? rid.local : rules.local(at: ridInstant)
        let x = exclusions(of: master, zones: zones, local: local, warnings: &ignored)
        if x.days.contains(ridLocal.dayNumber) || (!allDay && x.instants.contains(ridInstant)) { return true }

        let rrules = master.component.all("RRULE").compactMap { try? RecurrenceRule.parse($0.value, limits: limits) }
        guard !rrules.isEmpty, rrules.count == master.component.all("RRULE").count else { return false }
        let ended = rrules.allSatisfy { rule in
            guard rule.until != nil else { return false }
            if allDay {
                return rule.until.map { $0.local.dayNumber < ridLocal.dayNumber } ?? false
            }
            return Self.isPast(rule.until, ridLocal, rules: rules)
        }
        guard ended else { return false }
        // Still an instance when DTSTART or an RDATE names it.
        if allDay {
            if master.timing.start.local.dayNumber == ridLocal.dayNumber { return false }
        } else if instant(master.timing.start, zone: master.timing.zone, local: local) == ridInstant {
            return false
        }
        for p in master.component.all("RDATE") {
            for v in DateValue.parseList(p, limit: limits.maxListValues) ?? [] {
                if allDay || v.isDate {
                    if v.local.dayNumber == ridLocal.dayNumber { return false }
                } else if case .floating(let l) = v {
                    if rules.instant(for: l) == ridInstant { return false }
                } else if instant(v, zones: zones, local: local, floating: master.floating, warnings: &ignored, line: 0)
                    == ridInstant
                {
                    return false
                }
            }
        }
        return true
    }
}
