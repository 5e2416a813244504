import CivilDates
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
    /// Written without a zone and read in the user's zone (no X-WR-TIMEZONE named the calendar's).
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
        /// The document read: from `occurrences(inFile:)` the file less its events (the
        /// calendars' own properties, such as X-WR-CALNAME, and their time zones).
        public var outline: ICalendarDocument
    }

    struct Timing {
        var start: DateValue
        /// The wall clock instances step through: the TZID's zone, UTC, the calendar's zone for
        /// floating times; nil for all-day events (dates are the user's).
        var zone: (any ZoneRules)?
        /// Length: whole days (all-day, or DURATION days kept as calendar days) plus seconds.
        var days: Int
        var seconds: Int
        /// All-day events whose DTEND came before DTSTART start this many days before the date.
        var dayShift = 0
    }

    /// One VEVENT as read: when it starts, how long it lasts, and what it shows.
    struct Reading {
        var component: Component
        var uid: String
        var timing: Timing
        var base: Occurrence
        /// Where this event's calendar reads floating times.
        var floating: any ZoneRules
    }

    /// A RECURRENCE-ID: the instance an override replaces (and with RANGE=THISANDFUTURE, the
    /// instances after it that take its changes).
    struct Override {
        var value: DateValue
        var line: Int
        var thisAndFuture: Bool
        /// nil when the override is cancelled.
        var reading: Reading?
        var floating: any ZoneRules
    }

    /// A THISANDFUTURE override seen from its series: from `key` (an instant, or a day for an
    /// all-day series) on, instances move by `shift` (wall-clock seconds, or days) and take the
    /// override's length and text; nil `reading` cancels them.
    struct Future {
        var key: Int
        var shift: Int
        var reading: Reading?
    }

    /// Occurrences that overlap [from, to), sorted by start. STATUS:CANCELLED events and
    /// instances are left out; EXDATE removes instances; RECURRENCE-ID overrides replace them
    /// (RANGE=THISANDFUTURE ones also change every later instance). Of several versions of one
    /// UID and RECURRENCE-ID only the newest counts. Floating times are read in the calendar's
    /// X-WR-TIMEZONE when it names a known zone, else in the user's. With `keepingSoonest`, only
    /// that many are kept (the soonest), and memory stays bounded by it whatever the file holds.
    public func occurrences(
        in document: ICalendarDocument, from: Date, to: Date, keepingSoonest: Int? = nil
    ) -> Result {
        occurrences(from: from, to: to, keepingSoonest: keepingSoonest) { body in
            for (index, top) in document.components.enumerated() {
                func walk(_ c: Component) {
                    if c.name == "VEVENT" { body(c, index) }
                    for child in c.components { walk(child) }
                }
                walk(top)
            }
            return document
        }
    }

    /// The same occurrences and warnings as `occurrences(in: ICalendarDocument.parse(data))`,
    /// read as the file streams past: each event is read, expanded into the kept soonest and let
    /// go when its END line is read, so the file is never held as a tree (a 32 MiB file of
    /// 180,000 events took 700 MB as one). The file is read twice: first for which version of
    /// each event counts, the overrides and the time zones, then for the series. The result's
    /// `outline` is the file less its events. Errors are the parser's.
    public func occurrences(
        inFile data: Data, from: Date, to: Date, keepingSoonest: Int? = nil
    ) throws -> Result {
        try occurrences(from: from, to: to, keepingSoonest: keepingSoonest) { body in
            try ICalendarDocument.parse(data, limits: limits) { c, around, topIndex in
                // The outermost VEVENT is taken whole (with any nested in it, as the tree reader
                // finds them); what else sits in a calendar is dropped unless it defines a zone.
                if c.name == "VEVENT", !around.contains(where: { $0.name == "VEVENT" }) {
                    func walk(_ c: Component) {
                        if c.name == "VEVENT" { body(c, topIndex) }
                        for child in c.components { walk(child) }
                    }
                    walk(c)
                    return true
                }
                func definesZone(_ c: Component) -> Bool {
                    c.name == "VTIMEZONE" || c.components.contains(where: definesZone)
                }
                return around.count == 1 && !definesZone(c)
            }
        }
    }

    /// The expansion over any source of events: `pass` calls its argument with every VEVENT in
    /// file order (with the index of the top-level component it is in, nil when top-level
    /// itself) and returns the document its time zones and calendar properties are read from.
    /// It is called twice.
    func occurrences(
        from: Date, to: Date, keepingSoonest: Int?,
        events pass: (_ body: (_ event: Component, _ topIndex: Int?) -> Void) throws -> ICalendarDocument
    ) rethrows -> Result {
        // Several versions of one event (Google and Outlook exports keep them): per UID and
        // RECURRENCE-ID the newest counts: highest SEQUENCE, then DTSTAMP, then LAST-MODIFIED,
        // then the later in the file.
        func versionKey(_ e: Component) -> String? {
            guard let uid = e.first("UID")?.value else { return nil }
            guard let rid = e.first("RECURRENCE-ID") else { return uid }
            return uid + "\u{1}" + (rid.parameter("TZID") ?? "") + "\u{1}"
                + rid.value.trimmingCharacters(in: .whitespaces)
        }
        func rank(_ e: Component) -> (Int, Int, Int) {
            let sequence =
                e.first("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces).prefix(18)) } ?? 0
            func stamp(_ name: String) -> Int {
                e.first(name).flatMap {
                    DateValue.parse(Substring($0.value), tzid: nil, valueType: nil)?.local.localSeconds
                } ?? Int.min
            }
            return (sequence, stamp("DTSTAMP"), stamp("LAST-MODIFIED"))
        }
        func uid(_ e: Component) -> String { e.first("UID")?.value ?? "line-\(e.line)" }
        func isCancelled(_ e: Component) -> Bool { e.first("STATUS")?.value.uppercased() == "CANCELLED" }

        // First pass: the newest version of each key, and the overrides (few in any file) whole,
        // to be applied when their series is expanded. Series are not held.
        var newest: [String: (index: Int, rank: (Int, Int, Int))] = [:]
        var overrideEvents: [String: (index: Int, event: Component, topIndex: Int?)] = [:]
        var eventCount = 0
        let document = try pass { e, topIndex in
            let index = eventCount
            eventCount += 1
            let key = versionKey(e)
            if let key {
                let r = rank(e)
                if let n = newest[key], n.rank > r { return }
                newest[key] = (index, r)
            }
            // Without a UID an override has no older versions: its own place is its key.
            if e.first("RECURRENCE-ID") != nil { overrideEvents[key ?? "\u{2}\(index)"] = (index, e, topIndex) }
        }

        var warnings = document.warnings
        var budget = limits.maxPeriodsPerFile
        let zones = ZoneResolver(document: document, limits: limits, budget: &budget)
        let local = SystemZone(localZone)

        // The zone each calendar's floating times are read in (Google writes the calendar's zone
        // only in X-WR-TIMEZONE).
        let floatings = document.components.map { top -> (zone: any ZoneRules, isLocal: Bool) in
            guard top.name == "VCALENDAR", let x = top.first("X-WR-TIMEZONE") else { return (local, true) }
            let name = x.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let z = zones.rules(for: name) { return (z, false) }
            if !name.isEmpty {
                warnings.append(
                    ICalendarWarning(
                        line: x.line,
                        message:
                            """
                            X-WR-TIMEZONE '\(name.prefix(64))' is not a known time zone; floating times are \
                            read in the user's zone
                            """
                    ))
            }
            return (local, true)
        }
        func floating(_ topIndex: Int?) -> (zone: any ZoneRules, isLocal: Bool) {
            guard let topIndex else { return (local, true) }
            return floatings[topIndex]
        }
        // An event as read for both passes: nil when it is cancelled.
        func readUnlessCancelled(_ e: Component, _ f: (zone: any ZoneRules, isLocal: Bool)) -> Reading? {
            isCancelled(e)
                ? nil
                : read(
                    e, uid: uid(e), floating: f.zone, floatingIsLocal: f.isLocal, zones: zones, local: local,
                    warnings: &warnings)
        }

        var overrides: [String: [Override]] = [:]
        var overrideReadings: [Reading] = []
        for (_, o) in overrideEvents.sorted(by: { $0.value.index < $1.value.index }) {
            let e = o.event, f = floating(o.topIndex)
            guard let rid = e.first("RECURRENCE-ID") else { continue }
            let reading = readUnlessCancelled(e, f)
            if let v = DateValue.parse(
                Substring(rid.value), tzid: rid.parameter("TZID"), valueType: rid.parameter("VALUE"))
            {
                overrides[uid(e), default: []].append(
                    Override(
                        value: v, line: rid.line,
                        thisAndFuture: rid.parameter("RANGE")?.uppercased() == "THISANDFUTURE",
                        reading: reading, floating: f.zone))
            } else {
                warnings.append(
                    ICalendarWarning(
                        line: rid.line,
                        message:
                            """
                            RECURRENCE-ID '\(rid.value.prefix(40))' is not a date or date-time; the event is \
                            shown on its own
                            """
                    ))
            }
            if let reading { overrideReadings.append(reading) }
        }
        overrideEvents = [:]

        // Second pass: each series is read, expanded and let go; the series of an overridden UID
        // is kept to check its overrides against.
        let fromSeconds = Int(from.timeIntervalSince1970.rounded(.down))
        let toSeconds = Int(to.timeIntervalSince1970.rounded(.up))
        var state = ExpansionState(budget: budget, kept: SoonestOccurrences(limit: keepingSoonest))
        var series: [String: Reading?] = [:]
        var index = 0
        _ = try pass { e, topIndex in
            defer { index += 1 }
            if let key = versionKey(e), newest[key]?.index != index { return }  // an older version
            guard e.first("RECURRENCE-ID") == nil else { return }
            let f = floating(topIndex)
            let reading = readUnlessCancelled(e, f)
            if overrides[uid(e)] != nil { series[uid(e)] = .some(reading) }
            guard let reading else { return }
            expand(
                reading, overrides: overrides[reading.uid] ?? [], fromSeconds: fromSeconds, toSeconds: toSeconds,
                zones: zones, local: local, state: &state, warnings: &warnings)
        }
        // An override its series has since dropped is left out (what it says about itself was
        // said when the series was expanded).
        for r in overrideReadings {
            if let rid = r.component.first("RECURRENCE-ID"), let master = series[r.uid] ?? nil,
                let value = DateValue.parse(
                    Substring(rid.value), tzid: rid.parameter("TZID"), valueType: rid.parameter("VALUE")),
                seriesExcludes(master, recurrenceID: value, ridFloating: r.floating, zones: zones, local: local)
            {
                continue
            }
            expand(
                r, overrides: [], fromSeconds: fromSeconds, toSeconds: toSeconds, zones: zones, local: local,
                state: &state, warnings: &warnings)
        }
        let out = state.kept.sorted()
        // In file order, so the parser's and the events' warnings read as one list.
        let ordered = warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(
            \.element)
        return Result(occurrences: out, warnings: ordered, eventCount: eventCount, outline: document)
    }

    /// Reads DTSTART, the length (DTEND, else DURATION) and the text of one event. Nil, with a
    /// warning, when it has no usable DTSTART. A DTEND or DURATION that cannot be used is said.
    func read(
        _ e: Component, uid: String, floating: any ZoneRules, floatingIsLocal: Bool,
        zones: ZoneResolver, local: SystemZone, warnings: inout [ICalendarWarning]
    ) -> Reading? {
        guard let dtstart = e.first("DTSTART") else {
            warnings.append(ICalendarWarning(line: e.line, message: "VEVENT without DTSTART; skipped"))
            return nil
        }
        guard
            let start = DateValue.parse(
                Substring(dtstart.value), tzid: dtstart.parameter("TZID"), valueType: dtstart.parameter("VALUE"))
        else {
            warnings.append(
                ICalendarWarning(
                    line: dtstart.line,
                    message: "DTSTART '\(dtstart.value.prefix(40))' is not a date or date-time; event skipped"))
            return nil
        }
        var zone: (any ZoneRules)?
        switch start {
        case .utc: zone = SystemZone(TimeZone(identifier: "UTC")!)
        case .zoned(_, let tzid):
            zone = zones.rules(for: tzid)
            if zone == nil {
                warnings.append(
                    ICalendarWarning(
                        line: dtstart.line, message: "unknown time zone '\(tzid.prefix(64))'; read as local time"))
                zone = local
            }
        case .floating: zone = floating
        case .date: zone = nil
        }
        // Length: DTEND, else DURATION, else a day (all-day) or nothing (timed).
        var days = start.isDate ? 1 : 0, seconds = 0, dayShift = 0
        let fallback = start.isDate ? "one day" : "zero-length"
        var durationCounts = true
        if let dtend = e.first("DTEND") {
            let shownEnd = dtend.value.trimmingCharacters(in: .whitespaces).prefix(40)
            let shownStart = dtstart.value.trimmingCharacters(in: .whitespaces).prefix(40)
            if let end = DateValue.parse(
                Substring(dtend.value), tzid: dtend.parameter("TZID"), valueType: dtend.parameter("VALUE"))
            {
                durationCounts = false
                if start.isDate {
                    let difference = end.local.dayNumber - start.local.dayNumber
                    if difference > 0 {
                        days = difference
                    } else if difference == 0 {
                        warnings.append(
                            ICalendarWarning(
                                line: dtend.line,
                                message: "DTEND \(shownEnd) equals DTSTART on an all-day event; read as one day"))
                    } else {
                        // What the peer libraries do: the two dates were written the wrong way round.
                        warnings.append(
                            ICalendarWarning(
                                line: dtend.line,
                                message: "DTEND \(shownEnd) is before DTSTART \(shownStart); the two are swapped"))
                        days = -difference
                        dayShift = difference
                    }
                } else if let s = instant(start, zone: zone, local: local),
                    let t = instant(
                        end, zones: zones, local: local, floating: floating, warnings: &warnings, line: dtend.line)
                {
                    days = 0
                    if t >= s {
                        seconds = t - s
                    } else {
                        warnings.append(
                            ICalendarWarning(
                                line: dtend.line,
                                message:
                                    """
                                    DTEND \(shownEnd) is before DTSTART \(shownStart); the event is read as \
                                    zero-length
                                    """
                            ))
                    }
                }
            } else {
                let hasDuration = e.first("DURATION") != nil
                warnings.append(
                    ICalendarWarning(
                        line: dtend.line,
                        message: "DTEND '\(shownEnd)' is not a date or date-time; "
                            + (hasDuration ? "DURATION is used" : "the event is read as \(fallback)")))
            }
        }
        if durationCounts, let d = e.first("DURATION") {
            if let parsed = DurationValue.parse(d.value) {
                days = max(0, parsed.days)
                seconds = max(0, parsed.seconds)
                if start.isDate && days == 0 { days = 1 }
            } else {
                warnings.append(
                    ICalendarWarning(
                        line: d.line,
                        message:
                            """
                            DURATION '\(d.value.trimmingCharacters(in: .whitespaces).prefix(40))' is not a \
                            duration such as PT1H; the event is read as \(fallback)
                            """
                    ))
            }
        }
        let timing = Timing(start: start, zone: zone, days: days, seconds: seconds, dayShift: dayShift)
        let title = e.first("SUMMARY")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var isFloating = false
        if case .floating = start { isFloating = floatingIsLocal }
        let base = Occurrence(
            uid: uid, title: title.isEmpty ? "Untitled" : String(title.prefix(1000)),
            location: e.first("LOCATION").map { String($0.text.prefix(1000)) }.flatMap { $0.isEmpty ? nil : $0 },
            start: Date(), end: Date(), isAllDay: start.isDate, startDay: nil, endDay: nil,
            status: e.first("STATUS")?.value.uppercased(), isFloating: isFloating)
        return Reading(component: e, uid: uid, timing: timing, base: base, floating: floating)
    }

    /// What one expansion of a file carries from event to event: the steps left, whether running
    /// out was said, and the occurrences kept.
    struct ExpansionState {
        var budget: Int
        var budgetWarned = false
        var kept: SoonestOccurrences
    }

    /// The occurrences of one event in the window, into `state.kept`: DTSTART, every RRULE (their
    /// union), RDATE (periods bring their own length), less EXDATE and the instances `overrides`
    /// replace.
    func expand(
        _ r: Reading, overrides: [Override], fromSeconds: Int, toSeconds: Int, zones: ZoneResolver,
        local: SystemZone, state: inout ExpansionState, warnings: inout [ICalendarWarning]
    ) {
        let e = r.component
        let timing = r.timing
        let start = timing.start
        let zone = timing.zone
        let rules: any ZoneRules = zone ?? local
        let isOverride = e.first("RECURRENCE-ID") != nil

        // What the overrides replace, in this series' terms: instants for a timed series, dates
        // for an all-day one (Outlook writes a date-time RECURRENCE-ID there: its date counts).
        var replaced: Set<Int> = [], replacedDays: Set<Int> = []
        var futures: [Future] = []
        for o in overrides {
            // A THISANDFUTURE override that turns a timed series all-day (or back) changes only
            // its own instance: shifting the others would mix the two kinds.
            let carriesOn = o.thisAndFuture && (o.reading.map { $0.timing.start.isDate == start.isDate } ?? true)
            if start.isDate || o.value.isDate {
                let day = o.value.local.dayNumber
                replacedDays.insert(day)
                guard carriesOn else { continue }
                if start.isDate {
                    futures.append(
                        Future(
                            key: day, shift: o.reading.map { $0.timing.start.local.dayNumber - day } ?? 0,
                            reading: o.reading))
                } else {
                    // A DATE RECURRENCE-ID on a timed series names that day's instance.
                    let at = rules.instant(for: .on(dayNumber: day, secondOfDay: start.local.secondOfDay))
                    futures.append(timedFuture(from: at, o, rules: rules, local: local))
                }
            } else if let t = instant(
                o.value, zones: zones, local: local, floating: o.floating, warnings: &warnings, line: o.line)
            {
                replaced.insert(t)
                if carriesOn {
                    futures.append(timedFuture(from: t, o, rules: rules, local: local))
                }
            }
        }
        futures.sort { $0.key < $1.key }
        // The THISANDFUTURE override in force at `key`: the last one at or before it.
        func future(at key: Int) -> Future? {
            var lo = 0, hi = futures.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if futures[mid].key <= key { lo = mid + 1 } else { hi = mid }
            }
            return lo == 0 ? nil : futures[lo - 1]
        }
        // Moved or longer instances can reach into the window from further away.
        let unit = start.isDate ? 86_400 : 1
        let slack = futures.reduce(0) { m, f in
            max(m, abs(f.shift) * unit + (f.reading.map { $0.timing.days * 86_400 + $0.timing.seconds } ?? 0))
        }

        // EXDATE: instants for timed events, dates for all-day ones (or a DATE EXDATE).
        let excluded = exclusions(of: r, zones: zones, local: local, warnings: &warnings)
        let exInstants = excluded.instants, exDays = excluded.days
        var seen: Set<Int> = []
        // Each instance is kept or dropped as it is made (wall clock in the event's zone and, for
        // an RDATE period, its own length): nothing is gathered beyond what `state.kept` keeps.
        func emit(_ l: CivilTime, _ period: (days: Int, seconds: Int)?) {
            var o = r.base
            if start.isDate {
                let instanceDay = l.dayNumber
                if exDays.contains(instanceDay) || replacedDays.contains(instanceDay)
                    || !seen.insert(instanceDay).inserted
                {
                    return
                }
                var day = instanceDay + timing.dayShift
                var days = timing.days
                if let f = future(at: instanceDay) {
                    guard let fr = f.reading else { return }  // cancelled from there on
                    day = instanceDay + f.shift + fr.timing.dayShift
                    days = fr.timing.days
                    o = fr.base
                    o.uid = r.uid
                }
                let s = local.instant(for: .on(dayNumber: day, secondOfDay: 0))
                let endDay = day + max(1, days)
                let en = local.instant(for: .on(dayNumber: endDay, secondOfDay: 0))
                o.start = Date(timeIntervalSince1970: TimeInterval(s))
                o.end = Date(timeIntervalSince1970: TimeInterval(en))
                o.startDay = CivilTime.on(dayNumber: day, secondOfDay: 0).isoDate
                o.endDay = CivilTime.on(dayNumber: endDay - 1, secondOfDay: 0).isoDate
            } else {
                let instance = rules.instant(for: l)
                if exInstants.contains(instance) || exDays.contains(l.dayNumber) { return }
                if replaced.contains(instance) || replacedDays.contains(l.dayNumber) || !seen.insert(instance).inserted
                {
                    return
                }
                var shown = l
                var length = (days: timing.days, seconds: timing.seconds)
                if let f = future(at: instance) {
                    guard let fr = f.reading else { return }  // cancelled from there on
                    shown = .fromLocalSeconds(l.localSeconds + f.shift)
                    length = (fr.timing.days, fr.timing.seconds)
                    o = fr.base
                    o.uid = r.uid
                }
                if let period { length = period }
                // Calendar days of the length are added on the wall clock, seconds on the timeline.
                let s = rules.instant(for: shown)
                let endLocal = CivilTime.on(
                    dayNumber: shown.dayNumber + length.days, secondOfDay: shown.secondOfDay)
                let en = rules.instant(for: endLocal) + length.seconds
                o.start = Date(timeIntervalSince1970: TimeInterval(s))
                o.end = Date(timeIntervalSince1970: TimeInterval(max(s, en)))
            }
            let s = Int(o.start.timeIntervalSince1970), en = Int(o.end.timeIntervalSince1970)
            // Overlaps the window (a zero-length event counts at its start).
            if s < toSeconds && (en > fromSeconds || (en == s && s >= fromSeconds)) { state.kept.add(o) }
        }
        // Once the soonest occurrences are known, instances later than the latest kept cannot
        // be kept: a rule (stepping in order) stops there. Moved instances, lengths and zone
        // offsets are allowed for.
        let margin = slack + (abs(timing.dayShift) + 2) * 86_400
        func isPastKept(_ l: CivilTime) -> Bool {
            guard let cutoff = state.kept.cutoffSeconds else { return false }
            return rules.instant(for: l) - margin > cutoff
        }
        // Once per file: every later event would say the same.
        func warnBudgetSpent(line: Int, missing: String) {
            guard !state.budgetWarned else { return }
            state.budgetWarned = true
            let message = """
                the file's recurrence budget (\(limits.maxPeriodsPerFile) steps) ran out; later \(missing) may be \
                missing
                """
            warnings.append(ICalendarWarning(line: line, message: message))
        }

        // Instances that cannot reach the window are only counted.
        let windowEnd = CivilTime.fromLocalSeconds(toSeconds + slack + 14 * 3600 + 86_400)
        let length = timing.days * 86_400 + timing.seconds
        let windowStart = CivilTime.fromLocalSeconds(fromSeconds - length - slack - 14 * 3600 - 86_400)

        // Instance start times (wall clock in the event's zone) and, for RDATE periods, their length.
        let rrules = isOverride ? [] : e.all("RRULE")
        if rrules.isEmpty { emit(start.local, nil) }
        var produced = 0
        for rrule in rrules where produced < limits.maxOccurrencesPerEvent {
            do {
                let rule = try RecurrenceRule.parse(rrule.value, limits: limits)
                let z = zone
                var expander = RecurrenceExpander(
                    rule: rule, start: start.local, limits: limits, windowEnd: windowEnd, windowStart: windowStart,
                    isPastUntil: { l in Self.isPast(rule.until, l, rules: z ?? local) })
                while let next = expander.next(budget: &state.budget) {
                    // Only those that can overlap the window are kept; the rest are counted.
                    guard next >= windowStart else { continue }
                    if isPastKept(next) { break }
                    emit(next, nil)
                    produced += 1
                    if produced >= limits.maxOccurrencesPerEvent {
                        warnings.append(
                            ICalendarWarning(
                                line: rrule.line,
                                message:
                                    """
                                    more than \(limits.maxOccurrencesPerEvent) occurrences in the window; the rest \
                                    are left out
                                    """
                            ))
                        break
                    }
                }
                if state.budget <= 0 { warnBudgetSpent(line: rrule.line, missing: "events") }
            } catch {
                let consequence = rrules.count == 1 ? "only the first occurrence is shown" : "this RRULE is ignored"
                warnings.append(ICalendarWarning(line: rrule.line, message: "\(error); \(consequence)"))
                emit(start.local, nil)
            }
        }
        // RDATE values count against the same limits as a rule's steps: each value read costs a
        // step of the file's budget, each one in the window an occurrence of the event.
        rdates: for p in e.all("RDATE") where !isOverride {
            guard state.budget > 0 else {
                warnBudgetSpent(line: p.line, missing: "RDATE values and events")
                break
            }
            guard let values = DateValue.parsePeriodList(p, limit: limits.maxListValues) else {
                warnings.append(ICalendarWarning(line: p.line, message: "RDATE could not be read; ignored"))
                continue
            }
            state.budget -= values.count
            for (v, end) in values {
                // RDATE values in another zone (or UTC) are converted to the event's wall clock.
                let at: CivilTime
                switch v {
                case .date(let l), .floating(let l):
                    at = CivilTime.on(
                        dayNumber: l.dayNumber, secondOfDay: v.isDate ? start.local.secondOfDay : l.secondOfDay)
                default:
                    guard
                        let t = instant(
                            v, zones: zones, local: local, floating: r.floating, warnings: &warnings, line: p.line)
                    else { continue }
                    at = rules.local(at: t)
                }
                // A period (RFC 5545 §3.8.5.2) gives this instance its own length.
                var length: (days: Int, seconds: Int)?
                if !start.isDate, !v.isDate, let end {
                    switch end {
                    case .duration(let d, let s):
                        if d >= 0 && s >= 0 { length = (d, s) }
                    case .end(let endValue):
                        let s = rules.instant(for: at)
                        let t: Int?
                        if case .floating(let l) = endValue {
                            t = rules.instant(for: l)
                        } else {
                            t = instant(
                                endValue, zones: zones, local: local, floating: r.floating, warnings: &warnings,
                                line: p.line)
                        }
                        if let t, t >= s { length = (0, t - s) }
                    }
                    if length == nil {
                        warnings.append(
                            ICalendarWarning(
                                line: p.line,
                                message: "an RDATE period ends before it starts; the event's own length is used"))
                    }
                }
                guard at >= windowStart, !isPastKept(at) else { continue }
                produced += 1
                if produced > limits.maxOccurrencesPerEvent {
                    warnings.append(
                        ICalendarWarning(
                            line: p.line,
                            message:
                                """
                                more than \(limits.maxOccurrencesPerEvent) occurrences in the window; the rest \
                                are left out
                                """
                        ))
                    break rdates
                }
                emit(at, length)
            }
        }
    }

    /// A timed series' view of a THISANDFUTURE override at `at`: the shift of its start on the
    /// series' wall clock (so 09:00 → 10:00 stays 10:00 after a daylight-saving change).
    func timedFuture(from at: Int, _ o: Override, rules: any ZoneRules, local: SystemZone) -> Future {
        guard let or = o.reading else { return Future(key: at, shift: 0, reading: nil) }
        let moved = instant(or.timing.start, zone: or.timing.zone, local: local) ?? at
        return Future(
            key: at, shift: rules.local(at: moved).localSeconds - rules.local(at: at).localSeconds, reading: or)
    }

    /// A value whose zone is already resolved (`zone`: the TZID's, or the floating zone).
    func instant(_ v: DateValue, zone: (any ZoneRules)?, local: SystemZone) -> Int? {
        switch v {
        case .utc(let l): return l.localSeconds
        case .zoned(let l, _), .floating(let l): return (zone ?? local).instant(for: l)
        case .date(let l): return local.instant(for: l)
        }
    }

    /// A value read on its own: its TZID resolved here, floating times in `floating`.
    func instant(
        _ v: DateValue, zones: ZoneResolver, local: SystemZone, floating: any ZoneRules,
        warnings: inout [ICalendarWarning], line: Int
    ) -> Int? {
        switch v {
        case .utc(let l): return l.localSeconds
        case .zoned(let l, let tzid):
            guard let z = zones.rules(for: tzid) else {
                warnings.append(
                    ICalendarWarning(line: line, message: "unknown time zone '\(tzid.prefix(64))'; read as local time"))
                return local.instant(for: l)
            }
            return z.instant(for: l)
        case .floating(let l): return floating.instant(for: l)
        case .date(let l): return local.instant(for: l)
        }
    }
}
