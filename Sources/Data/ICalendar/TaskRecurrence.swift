import CivilDates
import Foundation

/// Where completing one instance of a repeating task moves it: DTSTART and DUE to the next
/// instance of its recurrence set, the same distance apart, and the rules rewritten so the
/// series stays the same from there (a COUNT lowered by the instances passed).
public struct TaskAdvance: Sendable, Equatable {
    /// The next instance's DTSTART, in DTSTART's own form; nil when the task has none.
    public var start: DateValue?
    /// The next instance's DUE, in DUE's own form; nil when the task has no DUE property.
    public var due: DateValue?
    /// RRULE properties to rewrite: the 1-based line where each starts, and its new value.
    public var rules: [RuleRewrite]

    public struct RuleRewrite: Sendable, Equatable {
        public var line: Int
        public var value: String
    }
}

/// A repeating task's recurrence set (RFC 5545 §3.8.5): instances step from DTSTART (DUE only
/// when there is no DTSTART, as some clients write), RDATE adds, EXDATE removes, and a VTODO with
/// the same UID and a RECURRENCE-ID edits one instance (its own DUE; done when it is completed
/// or cancelled). Each instance is due at its start plus DUE − DTSTART, or DURATION (§3.8.2.5).
struct TaskRecurrence {
    /// One instance: where it starts on the anchor's wall clock, and its override if edited.
    struct Instance {
        var start: CivilTime
        var instant: Int
        var override: Component?
    }

    let limits: ICalendarLimits
    let zones: ZoneResolver
    let local: SystemZone

    /// The anchor's zone: the wall clock instances step through.
    func rules(for v: DateValue) -> any ZoneRules {
        switch v {
        case .utc: return SystemZone(TimeZone(identifier: "UTC")!)
        case .zoned(_, let tzid): return zones.rules(for: tzid) ?? local
        case .floating, .date: return local
        }
    }

    func instant(_ v: DateValue) -> Int {
        switch v {
        case .utc(let l): return l.localSeconds
        case .zoned(let l, let tzid): return (zones.rules(for: tzid) ?? local).instant(for: l)
        case .floating(let l), .date(let l): return local.instant(for: l)
        }
    }

    /// `v`'s form (date, UTC, zone, floating) at the instant `t`.
    func value(like v: DateValue, at t: Int) -> DateValue {
        switch v {
        case .date: return .date(CivilTime.on(dayNumber: local.local(at: t).dayNumber, secondOfDay: 0))
        case .utc: return .utc(.fromLocalSeconds(t))
        case .zoned(_, let tzid): return .zoned(rules(for: v).local(at: t), tzid: tzid)
        case .floating: return .floating(local.local(at: t))
        }
    }

    /// Up to `maxInstances` instances from `anchor` on (earlier RDATEs are the past), in order,
    /// EXDATEs removed. Each RRULE steps at most `limits.maxPeriodsPerRule` periods and the
    /// shared `budget`.
    func instances(
        of c: Component, anchor: DateValue, parsedRules: [(line: Int, rule: RecurrenceRule)],
        overrides: [Component], maxInstances: Int, budget: inout Int
    ) -> [Instance] {
        let zone = rules(for: anchor)
        let allDay = anchor.isDate
        func key(_ l: CivilTime) -> Int { allDay ? l.dayNumber : zone.instant(for: l) }
        func key(_ v: DateValue) -> Int? {
            if allDay || v.isDate { return v.local.dayNumber }
            if case .floating(let l) = v { return zone.instant(for: l) }
            return instant(v)
        }
        var starts: [CivilTime] = []
        // Far enough for every rule's next instance; a rule with nothing there has ended for the widget.
        let horizon = CivilTime.fromLocalSeconds(anchor.local.localSeconds + 10 * 366 * 86_400)
        for (_, rule) in parsedRules {
            var expander = RecurrenceExpander(
                rule: rule, start: anchor.local, limits: limits, windowEnd: horizon,
                isPastUntil: { EventExpander.isPast(rule.until, $0, rules: zone) })
            var n = 0
            while n < maxInstances, let next = expander.next(budget: &budget) {
                starts.append(next)
                n += 1
            }
        }
        if parsedRules.isEmpty { starts.append(anchor.local) }
        for p in c.all("RDATE") {
            for v in DateValue.parseList(p, limit: limits.maxListValues) ?? [] {
                budget -= 1
                let l: CivilTime
                switch v {
                case .date(let d): l = .on(dayNumber: d.dayNumber, secondOfDay: anchor.local.secondOfDay)
                case .floating(let f): l = f
                default: l = zone.local(at: instant(v))
                }
                if l >= anchor.local { starts.append(l) }
            }
        }
        var excluded: Set<Int> = []
        var excludedDays: Set<Int> = []
        for p in c.all("EXDATE") {
            for v in DateValue.parseList(p, limit: limits.maxListValues) ?? [] {
                if v.isDate { excludedDays.insert(v.local.dayNumber) } else if let k = key(v) { excluded.insert(k) }
            }
        }
        var edited: [Int: Component] = [:]
        for o in overrides {
            guard let rid = o.first("RECURRENCE-ID"),
                let v = DateValue.parse(
                    Substring(rid.value), tzid: rid.parameter("TZID"), valueType: rid.parameter("VALUE")),
                let k = key(v)
            else { continue }
            edited[k] = o
        }
        starts.sort()
        var out: [Instance] = []
        var seen: Set<Int> = []
        for l in starts where out.count < maxInstances {
            let k = key(l)
            guard !excluded.contains(k), !excludedDays.contains(l.dayNumber), seen.insert(k).inserted else { continue }
            out.append(Instance(start: l, instant: zone.instant(for: l), override: edited[k]))
        }
        return out
    }

    /// Whether an override marks its instance done (completed or cancelled).
    static func isDone(_ o: Component?) -> Bool {
        guard let o else { return false }
        let status = o.first("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased()
        let percent = o.first("PERCENT-COMPLETE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
        return status == "COMPLETED" || status == "CANCELLED" || o.first("COMPLETED") != nil || percent == 100
    }

    /// A RRULE value with COUNT set to `count` (the other parts as written).
    static func rewrite(_ text: String, count: Int?, explicit: [String: String]) -> String {
        var parts = text.split(separator: ";").map(String.init)
        if let count {
            if let i = parts.firstIndex(where: { $0.uppercased().hasPrefix("COUNT=") }) {
                parts[i] = "COUNT=\(count)"
            }
        }
        for (name, value) in explicit.sorted(by: { $0.key < $1.key })
        where !parts.contains(where: { $0.uppercased().hasPrefix(name + "=") }) {
            parts.append("\(name)=\(value)")
        }
        return parts.joined(separator: ";")
    }
}

/// A task's DTSTART, DUE and DURATION, and what they make of each instance's due.
struct TaskSchedule {
    var start: DateValue?
    var due: DateValue?
    var duration: (days: Int, seconds: Int)?
    var recurrence: TaskRecurrence

    /// `v` in its own form at the wall-clock time `l`.
    static func with(_ v: DateValue, local l: CivilTime) -> DateValue {
        switch v {
        case .date: return .date(.on(dayNumber: l.dayNumber, secondOfDay: 0))
        case .utc: return .utc(l)
        case .zoned(_, let tzid): return .zoned(l, tzid: tzid)
        case .floating: return .floating(l)
        }
    }

    static func sameForm(_ a: DateValue, _ b: DateValue) -> Bool {
        switch (a, b) {
        case (.date, .date), (.utc, .utc), (.floating, .floating): return true
        case (.zoned(_, let x), .zoned(_, let y)): return x == y
        default: return false
        }
    }

    /// The due of an instance that starts at `l` (on the anchor's wall clock; nil: the task's own
    /// start), as written: the distance DUE − DTSTART kept on the wall clock when both are in one
    /// form, on the timeline otherwise; DURATION's days on the wall clock, its seconds after.
    func dueValue(forStart l: CivilTime?) -> DateValue? {
        if let start, let due {
            let l = l ?? start.local
            if Self.sameForm(start, due) {
                let distance = due.local.localSeconds - start.local.localSeconds
                return Self.with(due, local: .fromLocalSeconds(l.localSeconds + distance))
            }
            let t = recurrence.rules(for: start).instant(for: l) + recurrence.instant(due) - recurrence.instant(start)
            return recurrence.value(like: due, at: t)
        }
        if let start, let duration {
            let l = l ?? start.local
            let shifted = CivilTime.on(dayNumber: l.dayNumber + duration.days, secondOfDay: l.secondOfDay)
            if duration.seconds == 0 { return Self.with(start, local: shifted) }
            let t = recurrence.rules(for: start).instant(for: shifted) + duration.seconds
            return recurrence.value(like: start, at: t)
        }
        if let due { return l.map { Self.with(due, local: $0) } ?? due }
        return nil
    }

    func dueInstant(startingAt l: CivilTime?) -> Int? { dueValue(forStart: l).map(recurrence.instant) }

    /// An instance's due: an edited instance's own DUE (or its DTSTART at the task's distance).
    func dueValue(of i: TaskRecurrence.Instance) -> DateValue? {
        if let o = i.override {
            func value(_ name: String) -> DateValue? {
                o.first(name).flatMap {
                    DateValue.parse(Substring($0.value), tzid: $0.parameter("TZID"), valueType: $0.parameter("VALUE"))
                }
            }
            if let d = value("DUE") { return d }
            if let s = value("DTSTART"), let anchor = start ?? due {
                let l = recurrence.rules(for: anchor).local(at: recurrence.instant(s))
                return dueValue(forStart: anchor.isDate ? s.local : l)
            }
        }
        return dueValue(forStart: i.start)
    }

    func dueInstant(of i: TaskRecurrence.Instance) -> Int? { dueValue(of: i).map(recurrence.instant) }

    /// DTSTART and DUE moved to `next` (its place in the series, not an edit's: the edit keeps
    /// naming it by RECURRENCE-ID), and each rule rewritten so that stepping from the new DTSTART
    /// gives the same instances as before: a COUNT less the instances passed; when `next` is
    /// not one of the rule's own (an RDATE), what the rule took from the old DTSTART written out.
    func advance(
        to next: TaskRecurrence.Instance, anchor: DateValue, rules: [(line: Int, rule: RecurrenceRule)],
        component c: Component, limits: ICalendarLimits, budget: inout Int
    ) -> TaskAdvance {
        var out = TaskAdvance(
            start: start.map { Self.with($0, local: next.start) },
            due: due.map { start == nil ? Self.with($0, local: next.start) : dueValue(forStart: next.start) ?? $0 },
            rules: [])
        let zone = recurrence.rules(for: anchor)
        for (line, rule) in rules {
            var expander = RecurrenceExpander(
                rule: rule, start: anchor.local, limits: limits, windowEnd: next.start,
                isPastUntil: { EventExpander.isPast(rule.until, $0, rules: zone) })
            var before = 0
            var isInstance = false
            while let l = expander.next(budget: &budget) {
                if l < next.start { before += 1 } else if l == next.start { isInstance = true }
            }
            var explicit: [String: String] = [:]
            if !isInstance {
                let a = anchor.local
                let day = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][a.weekday]
                switch rule.frequency {
                case .weekly where rule.byDay.isEmpty: explicit["BYDAY"] = day
                case .monthly where rule.byDay.isEmpty && rule.byMonthDay.isEmpty: explicit["BYMONTHDAY"] = "\(a.day)"
                case .yearly:
                    if rule.byMonth.isEmpty { explicit["BYMONTH"] = "\(a.month)" }
                    if rule.byDay.isEmpty && rule.byMonthDay.isEmpty { explicit["BYMONTHDAY"] = "\(a.day)" }
                default: break
                }
            }
            let count = rule.count.map { max(1, $0 - before + (isInstance ? 0 : 1)) }
            guard count != rule.count || !explicit.isEmpty,
                let text = c.all("RRULE").first(where: { $0.line == line })?.value
            else { continue }
            out.rules.append(.init(line: line, value: TaskRecurrence.rewrite(text, count: count, explicit: explicit)))
        }
        return out
    }
}
