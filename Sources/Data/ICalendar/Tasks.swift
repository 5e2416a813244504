import CivilDates
import Foundation

/// One VTODO as read (RFC 5545 §3.6.2): what a reminders widget shows of a task.
public struct TaskItem: Sendable, Equatable {
    public var uid: String
    public var title: String
    /// The list the task belongs to: its calendar's X-WR-CALNAME (Thunderbird, Evolution and
    /// Nextcloud all write it on task exports); nil when the file names none.
    public var list: String?
    /// When the task is due: an instant for a DATE-TIME (its TZID, UTC or floating read in the
    /// user's zone), the user's local midnight for a DATE.
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
    /// The next due after `due` by the rule (what completing a repeating task moves DUE to);
    /// nil when the task does not repeat or the rule has ended.
    public var nextDue: DateValue?
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
        var out: [TaskItem] = []
        var count = 0
        for top in document.components {
            let list = top.first("X-WR-CALNAME")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            func walk(_ c: Component) {
                if c.name == "VTODO" {
                    count += 1
                    if out.count < Self.maxTasks {
                        out.append(
                            read(
                                c, list: list?.isEmpty == false ? list : nil, zones: zones, local: local,
                                budget: &budget, warnings: &warnings))
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
        _ c: Component, list: String?, zones: ZoneResolver, local: SystemZone, budget: inout Int,
        warnings: inout [ICalendarWarning]
    ) -> TaskItem {
        let uid = c.first("UID")?.value.trimmingCharacters(in: .whitespaces) ?? ""
        let title = c.first("SUMMARY")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var item = TaskItem(
            uid: uid.isEmpty ? "line-\(c.line)" : String(uid.prefix(255)),
            title: String(title.prefix(500)), list: list.map { String($0.prefix(200)) },
            due: nil, dueIsDate: false, priority: 0, status: nil, completedAt: nil,
            percentComplete: nil, recurrence: nil, nextDue: nil, categories: [], line: c.line)
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
        if let p = c.first("PRIORITY") {
            let text = p.value.trimmingCharacters(in: .whitespaces)
            if let n = Int(text.prefix(3)), text.count <= 3, (0...9).contains(n) {
                item.priority = n
            } else {
                warnings.append(
                    ICalendarWarning(line: p.line, message: "PRIORITY '\(text.prefix(20))' is outside 0…9; ignored"))
            }
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
            let text = p.value.trimmingCharacters(in: .whitespaces)
            if let n = Int(text.prefix(4)), text.count <= 4, (0...100).contains(n) {
                item.percentComplete = n
            } else {
                warnings.append(
                    ICalendarWarning(
                        line: p.line, message: "PERCENT-COMPLETE '\(text.prefix(20))' is outside 0…100; ignored"))
            }
        }
        for p in c.all("CATEGORIES") where item.categories.count < 50 {
            for name in Self.splitList(p.value) where item.categories.count < 50 {
                let t = name.trimmingCharacters(in: .whitespacesAndNewlines)
                if !t.isEmpty { item.categories.append(String(t.prefix(100))) }
            }
        }
        if let p = c.first("RRULE") {
            do {
                let rule = try RecurrenceRule.parse(p.value, limits: limits)
                item.recurrence = String(p.value.prefix(200))
                if let due = dueValue {
                    item.nextDue = Self.next(after: due, rule: rule, limits: limits, budget: &budget)
                }
            } catch {
                warnings.append(ICalendarWarning(line: p.line, message: "\(error); the task is read as not repeating"))
            }
        }
        return item
    }

    /// The occurrence after `due` by `rule` (DUE counts as the first), in `due`'s own form.
    static func next(after due: DateValue, rule: RecurrenceRule, limits: ICalendarLimits, budget: inout Int)
        -> DateValue?
    {
        let start = due.local
        let until = rule.until?.local
        // A year past the start is far enough for every FREQ and INTERVAL the widget shows;
        // a yearly rule with a large INTERVAL simply has no next one in reach.
        let windowEnd = CivilTime.fromLocalSeconds(
            start.localSeconds + 366 * 86_400 * max(1, rule.frequency == .yearly ? rule.interval : 1))
        var expander = RecurrenceExpander(rule: rule, start: start, limits: limits, windowEnd: windowEnd) { l in
            until.map { l > $0 } ?? false
        }
        guard expander.next(budget: &budget) != nil, let n = expander.next(budget: &budget) else { return nil }
        switch due {
        case .date: return .date(n)
        case .utc: return .utc(n)
        case .zoned(_, let tzid): return .zoned(n, tzid: tzid)
        case .floating: return .floating(n)
        }
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
