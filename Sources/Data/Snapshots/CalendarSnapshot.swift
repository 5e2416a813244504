import Foundation
import SharedStore

/// `snapshots/calendar.json`: the events that have not ended, soonest first, so each reader picks
/// the next one at its own clock. `weaver calendar refresh` (DataSources) writes it; the
/// `__calendar_*` keys (Variables) and the Next Up and Month templates (WidgetRender) read it.
///
/// `{"schemaVersion":1, "access":"authorized"|"denied", "generatedAt", "timeZone", "horizonDays",
/// "calendars":[…], "lastError"?, "events":[{"title","start","end"?,"isAllDay"?,"location"?,
/// "calendar"?,"startDay"?,"endDay"?,"status"?}]}` with ISO 8601 times (docs/data-sources.md).
public struct CalendarSnapshot: Codable, Sendable, Hashable {
    public static let currentSchemaVersion = 1
    /// Events written and read. The Month template draws a dot on every day with an event, so the
    /// file must reach across a busy month (15 events a day for 31 days is 465); the writer used
    /// to keep 50 (five days of such a calendar) while the readers took 200 and 500.
    public static let maximumEvents = 500

    public struct Event: Codable, Sendable, Hashable {
        public var title: String
        public var start: Date
        /// nil or not after `start`: the event is a moment at `start` (see `effectiveEnd`).
        public var end: Date?
        /// `start` is the day's local midnight; shown as "All day", not as a time.
        public var isAllDay: Bool
        public var location: String?
        /// The name of the calendar it came from.
        public var calendar: String?
        /// All-day events: first and last day, `yyyy-MM-dd`.
        public var startDay: String?
        public var endDay: String?
        public var status: String?

        public init(title: String, start: Date, end: Date? = nil, location: String? = nil, isAllDay: Bool = false) {
            self.title = title
            self.start = start
            self.end = end
            self.location = location
            self.isAllDay = isAllDay
        }

        public init(
            title: String, start: Date, end: Date?, isAllDay: Bool, location: String?, calendar: String?,
            startDay: String?, endDay: String? = nil, status: String? = nil
        ) {
            self.init(title: title, start: start, end: end, location: location, isAllDay: isAllDay)
            self.calendar = calendar
            self.startDay = startDay
            self.endDay = endDay
            self.status = status
        }

        /// When the event is over: its end, or its start when the end is missing or before the
        /// start (the iCalendar reader already reads such events as zero-length).
        public var effectiveEnd: Date { max(start, end ?? start) }

        /// Not over at `now`: a timed event until its end; a moment (no end, or an end not after
        /// its start) until its start has passed, so an event starting exactly now is still next.
        ///
        /// The one rule for "next". Before, the renderer counted a moment as lasting one second
        /// and the variables engine read it as ending at its start; both now use this, which is
        /// also what `weaver calendar refresh` uses to choose which events to keep.
        public func isUpcoming(at now: Date) -> Bool {
            let end = effectiveEnd
            return end > now || (end == start && start >= now)
        }
    }

    public struct CalendarStatus: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public var ok: Bool
        public var error: String?
        public var events: Int
        public var warnings: Int

        public init(id: String, name: String, ok: Bool, error: String?, events: Int, warnings: Int) {
            self.id = id
            self.name = name
            self.ok = ok
            self.error = error
            self.events = events
            self.warnings = warnings
        }
    }

    public var schemaVersion = CalendarSnapshot.currentSchemaVersion
    /// "authorized" from `weaver calendar refresh`: on Linux nothing asks for permission (the
    /// seed's "access is off" state, "denied", only comes from files other programs write).
    public var access = "authorized"
    public var generatedAt: Date?
    public var timeZone: String = ""
    public var horizonDays: Int = 0
    public var calendars: [CalendarStatus] = []
    /// The first error, for the template's "no access" line; nil when every calendar was read.
    public var lastError: String?
    public var events: [Event]

    public init(accessDenied: Bool = false, events: [Event]) {
        self.access = accessDenied ? "denied" : "authorized"
        self.events = events
    }

    public init(
        generatedAt: Date, timeZone: String, horizonDays: Int, calendars: [CalendarStatus], lastError: String?,
        events: [Event]
    ) {
        self.generatedAt = generatedAt
        self.timeZone = timeZone
        self.horizonDays = horizonDays
        self.calendars = calendars
        self.lastError = lastError
        self.events = events
    }

    public var accessDenied: Bool { access == "denied" }

    /// Events that are upcoming at `now` (`Event.isUpcoming`), in the snapshot's order: the timed
    /// ones, and all-day ones only when no timed event is left (the seed's rule). Sorted by start
    /// alone, a day's all-day events (from midnight) would always come before its meetings.
    public func upcoming(at now: Date) -> [Event] { Self.upcoming(events, at: now) }

    public static func upcoming(_ events: [Event], at now: Date) -> [Event] {
        let live = events.filter { $0.isUpcoming(at: now) }
        let timed = live.filter { !$0.isAllDay }
        return timed.isEmpty ? live : timed
    }

    /// The seed's "next" and "second" at `now`.
    public func nextTwo(at now: Date) -> (next: Event?, second: Event?) {
        let ordered = upcoming(at: now)
        return (ordered.first, ordered.dropFirst().first)
    }

    /// The snapshot in `root`, read tolerantly (`SnapshotReader`): events without a title or a
    /// start are skipped, at most `maximumEvents` are read, sorted by start. nil when the file is
    /// absent or unreadable.
    public static func load(from root: StoreRoot) -> CalendarSnapshot? {
        guard let json = SnapshotReader.load(.calendar, in: root) else { return nil }
        var snapshot = CalendarSnapshot(events: [])
        snapshot.access = json["access"]?.stringValue ?? snapshot.access
        snapshot.generatedAt = json["generatedAt"]?.dateValue
        snapshot.timeZone = json["timeZone"]?.stringValue ?? ""
        snapshot.lastError = json["lastError"]?.stringValue
        for item in (json["events"]?.arrayValue ?? []).prefix(maximumEvents) {
            guard let title = item["title"]?.stringValue, let start = item["start"]?.dateValue else { continue }
            snapshot.events.append(
                Event(
                    title: title, start: start, end: item["end"]?.dateValue,
                    isAllDay: item["isAllDay"]?.boolValue ?? false, location: item["location"]?.stringValue,
                    calendar: item["calendar"]?.stringValue, startDay: item["startDay"]?.stringValue,
                    endDay: item["endDay"]?.stringValue, status: item["status"]?.stringValue))
        }
        snapshot.events.sort { $0.start < $1.start }
        return snapshot
    }
}
