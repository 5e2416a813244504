import Foundation

/// One VTODO as read (RFC 5545 §3.6.2): what a reminders widget shows of a task.
public struct TaskItem: Sendable, Equatable {
    public var uid: String
    public var title: String
    /// The list the task belongs to: its calendar's X-WR-CALNAME (Thunderbird, Evolution and
    /// Nextcloud all write it on task exports); nil when the file names none.
    public var list: String?
    /// When the task is due: an instant for a DATE-TIME (its TZID, UTC or floating read in the
    /// user's zone), the user's local midnight for a DATE. Without DUE, DTSTART + DURATION
    /// (RFC 5545 §3.8.2.5). A repeating task's is its current instance's: the first of its
    /// recurrence set not excluded (EXDATE) nor done in an edited instance, which may set its own.
    public var due: Date?
    /// DUE was a DATE (`DUE;VALUE=DATE:20260124`): the task is due on that day, at no time.
    public var dueIsDate: Bool
    /// 1 (highest) … 9 (lowest); 0 or nil when the file says none (RFC 5545 §3.8.1.9).
    public var priority: Int
    /// NEEDS-ACTION, IN-PROCESS, COMPLETED or CANCELLED, upper-cased, when the file says so.
    public var status: String?
    public var completedAt: Date?
    /// 0…100 when the file says so.
    public var percentComplete: Int?
    /// The RRULE text when the task repeats and the rule is one the expander reads.
    public var recurrence: String?
    /// The next instance's due (an edited instance's own DUE when it sets one), in DUE's form
    /// (DTSTART's when the due comes from DURATION); nil when the task does not repeat, has no
    /// due date or the recurrence set has ended.
    public var nextDue: DateValue?
    /// What completing this task writes when it repeats: DTSTART and DUE moved to the next
    /// instance together; nil when it does not repeat or this is its last instance.
    public var advance: TaskAdvance?
    /// CATEGORIES values, every CATEGORIES line's, in order, without empty ones.
    public var categories: [String]
    /// The line of BEGIN:VTODO (what identifies the task in a file that has not changed).
    public var line: Int

    /// COMPLETED status, a COMPLETED date or 100 percent (clients write any one of them).
    public var isCompleted: Bool {
        status == "COMPLETED" || completedAt != nil || percentComplete == 100
    }
    public var isCancelled: Bool { status == "CANCELLED" }
}

/// Reads the VTODOs of a parsed calendar. Bounded like the events: the parser's limits, a
/// maximum count, and one shared budget for the repeating tasks' rules.
public struct TaskReader {
    public var limits: ICalendarLimits
    /// Where floating times and DATE values are read (the user's zone).
    public var localZone: TimeZone
    /// Tasks kept from one file; more are counted and warned about.
    public static let maxTasks = 5_000

    public init(limits: ICalendarLimits = ICalendarLimits(), localZone: TimeZone) {
        self.limits = limits
        self.localZone = localZone
    }

    public struct Result: Sendable {
        public var tasks: [TaskItem]
        public var warnings: [ICalendarWarning]
        /// VTODOs in the file, including the ones past `maxTasks`.
        public var taskCount: Int
    }

    /// Every VTODO in file order. A value that cannot be read (a DUE that is not a date, a
    /// PRIORITY outside 0…9) is warned about and left out; the task still counts.
    public func tasks(in document: ICalendarDocument) -> Result {
        var warnings = document.warnings
        var budget = limits.maxPeriodsPerFile
        let zones = ZoneResolver(document: document, limits: limits, budget: &budget)
        let local = SystemZone(localZone)
        // Edited instances of a repeating task (same UID, a RECURRENCE-ID) belong to its series,
        // not the list; one whose series is not in the file is a task of its own.
        var masters: Set<String> = []
        var edits: [String: [Component]] = [:]
        for c in document.all("VTODO") {
            let uid = c.first("UID")?.value.trimmingCharacters(in: .whitespaces) ?? ""
            guard !uid.isEmpty else { continue }
            if c.first("RECURRENCE-ID") == nil { masters.insert(uid) } else { edits[uid, default: []].append(c) }
        }
        var out: [TaskItem] = []
        var count = 0
        for top in document.components {
            let list = top.first("X-WR-CALNAME")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            func walk(_ c: Component) {
                if c.name == "VTODO" {
                    count += 1
                    let uid = c.first("UID")?.value.trimmingCharacters(in: .whitespaces) ?? ""
                    if c.first("RECURRENCE-ID") != nil && masters.contains(uid) { return }
                    if out.count < Self.maxTasks {
                        out.append(
                            read(
                                c, list: list?.isEmpty == false ? list : nil, edits: edits[uid] ?? [], zones: zones,
                                local: local, budget: &budget, warnings: &warnings))
                    }
                    return
                }
                for child in c.components { walk(child) }
            }
            walk(top)
        }
        if count > Self.maxTasks {
            warnings.append(
                ICalendarWarning(line: 0, message: "\(count) tasks; only the first \(Self.maxTasks) are read"))
        }
        return Result(tasks: out, warnings: warnings.sorted { $0.line < $1.line }, taskCount: count)
    }

    func read(
        _ c: Component, list: String?, edits: [Component] = [], zones: ZoneResolver, local: SystemZone,
        budget: inout Int, warnings: inout [ICalendarWarning]
    ) -> TaskItem {
        let uid = c.first("UID")?.value.trimmingCharacters(in: .whitespaces) ?? ""
        let title = c.first("SUMMARY")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var item = TaskItem(
            uid: uid.isEmpty ? "line-\(c.line)" : String(uid.prefix(255)),
            title: String(title.prefix(500)), list: list.map { String($0.prefix(200)) },
            due: nil, dueIsDate: false, priority: 0, status: nil, completedAt: nil,
            percentComplete: nil, recurrence: nil, nextDue: nil, advance: nil, categories: [], line: c.line)
        var dueValue: DateValue?
        if let p = c.first("DUE") {
            if let v = DateValue.parse(Substring(p.value), tzid: p.parameter("TZID"), valueType: p.parameter("VALUE")) {
                dueValue = v
                item.due = instant(v, zones: zones, local: local, warnings: &warnings, line: p.line)
                item.dueIsDate = v.isDate
            } else {
                warnings.append(
                    ICalendarWarning(
                        line: p.line,
                        message: "DUE '\(p.value.prefix(40))' is not a date or date-time; the task has no due date"))
            }
        }
        if let p = c.first("PRIORITY"), let n = Self.wholeNumber(p, in: 0...9, maxCharacters: 3, warnings: &warnings) {
            item.priority = n
        }
        if let p = c.first("STATUS") {
            let s = p.value.trimmingCharacters(in: .whitespaces).uppercased()
            if ["NEEDS-ACTION", "IN-PROCESS", "COMPLETED", "CANCELLED"].contains(s) {
                item.status = s
            } else {
                warnings.append(
                    ICalendarWarning(
                        line: p.line,
                        message:
                            """
                            STATUS '\(s.prefix(20))' is not a task status (NEEDS-ACTION, IN-PROCESS, COMPLETED, \
                            CANCELLED); ignored
                            """
                    ))
            }
        }
        if let p = c.first("COMPLETED") {
            if let v = DateValue.parse(Substring(p.value), tzid: p.parameter("TZID"), valueType: p.parameter("VALUE")) {
                item.completedAt = instant(v, zones: zones, local: local, warnings: &warnings, line: p.line)
            } else {
                warnings.append(
                    ICalendarWarning(
                        line: p.line, message: "COMPLETED '\(p.value.prefix(40))' is not a date-time; ignored"))
            }
        }
        if let p = c.first("PERCENT-COMPLETE") {
            item.percentComplete = Self.wholeNumber(p, in: 0...100, maxCharacters: 4, warnings: &warnings)
        }
        for p in c.all("CATEGORIES") where item.categories.count < 50 {
            for name in Self.splitList(p.value) where item.categories.count < 50 {
                let t = name.trimmingCharacters(in: .whitespacesAndNewlines)
                if !t.isEmpty { item.categories.append(String(t.prefix(100))) }
            }
        }
        var startValue: DateValue?
        if let p = c.first("DTSTART") {
            startValue = DateValue.parse(
                Substring(p.value), tzid: p.parameter("TZID"), valueType: p.parameter("VALUE"))
            if startValue == nil {
                warnings.append(
                    ICalendarWarning(
                        line: p.line, message: "DTSTART '\(p.value.prefix(40))' is not a date or date-time; ignored"))
            }
        }
        var duration: (days: Int, seconds: Int)?
        if dueValue == nil, let p = c.first("DURATION") {
            duration = DurationValue.parse(p.value)
            if duration == nil {
                warnings.append(
                    ICalendarWarning(
                        line: p.line, message: "DURATION '\(p.value.prefix(40))' is not a duration; ignored"))
            }
        }
        let schedule = TaskSchedule(
            start: startValue, due: dueValue, duration: duration,
            recurrence: TaskRecurrence(limits: limits, zones: zones, local: local))
        if dueValue == nil, let at = schedule.dueInstant(startingAt: nil) {
            item.due = Date(timeIntervalSince1970: TimeInterval(at))
            item.dueIsDate = startValue?.isDate == true && (duration?.seconds ?? 0) == 0
        }
        let rrules = c.all("RRULE")
        guard !rrules.isEmpty || !c.all("RDATE").isEmpty else { return item }
        var parsed: [(line: Int, rule: RecurrenceRule)] = []
        for p in rrules {
            do {
                parsed.append((p.line, try RecurrenceRule.parse(p.value, limits: limits)))
            } catch {
                warnings.append(ICalendarWarning(line: p.line, message: "\(error); the task is read as not repeating"))
                return item
            }
        }
        guard let anchor = startValue ?? dueValue else {
            warnings.append(
                ICalendarWarning(
                    line: (rrules.first ?? c.all("RDATE")[0]).line,
                    message: "the task repeats but has neither DTSTART nor DUE; read as not repeating"))
            return item
        }
        item.recurrence = rrules.first.map { String($0.value.prefix(200)) } ?? "RDATE"
        let instances = schedule.recurrence.instances(
            of: c, anchor: anchor, parsedRules: parsed, overrides: edits, maxInstances: 1_000, budget: &budget)
        let open = instances.filter { !TaskRecurrence.isDone($0.override) }
        guard let current = open.first else { return item }
        if let at = schedule.dueInstant(of: current) {
            item.due = Date(timeIntervalSince1970: TimeInterval(at))
        }
        if let summary = current.override?.first("SUMMARY")?.text.trimmingCharacters(in: .whitespacesAndNewlines),
            !summary.isEmpty
        {
            item.title = String(summary.prefix(500))
        }
        guard open.count > 1 else { return item }
        let next = open[1]
        item.nextDue = schedule.dueValue(of: next)
        item.advance = schedule.advance(
            to: next, anchor: anchor, rules: parsed, component: c, limits: limits, budget: &budget)
        return item
    }

    /// `p`'s whole number within `range`, written in at most `maxCharacters`; anything else is
    /// warned about and ignored (nil).
    static func wholeNumber(
        _ p: Property, in range: ClosedRange<Int>, maxCharacters: Int, warnings: inout [ICalendarWarning]
    ) -> Int? {
        let text = p.value.trimmingCharacters(in: .whitespaces)
        if let n = Int(text.prefix(maxCharacters)), text.count <= maxCharacters, range.contains(n) { return n }
        let allowed = "\(range.lowerBound)…\(range.upperBound)"
        warnings.append(
            ICalendarWarning(line: p.line, message: "\(p.name) '\(text.prefix(20))' is outside \(allowed); ignored"))
        return nil
    }

    /// A TEXT list: commas split, `\,` does not.
    static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for ch in value {
            if escaping {
                current.append("\\")
                current.append(ch)
                escaping = false
                continue
            }
            if ch == "\\" {
                escaping = true
                continue
            }
            if ch == "," {
                parts.append(Property.unescapeText(current))
                current = ""
                continue
            }
            current.append(ch)
        }
        parts.append(Property.unescapeText(current))
        return parts
    }

    func instant(_ v: DateValue, zones: ZoneResolver, local: SystemZone, warnings: inout [ICalendarWarning], line: Int)
        -> Date
    {
        let seconds: Int
        switch v {
        case .utc(let l): seconds = l.localSeconds
        case .zoned(let l, let tzid):
            if let z = zones.rules(for: tzid) {
                seconds = z.instant(for: l)
            } else {
                warnings.append(
                    ICalendarWarning(line: line, message: "unknown time zone '\(tzid.prefix(64))'; read as local time"))
                seconds = local.instant(for: l)
            }
        case .floating(let l), .date(let l): seconds = local.instant(for: l)
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
