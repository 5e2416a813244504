import Foundation
import SharedStore
import Variables

/// The calendar snapshot (`snapshots/calendar.json`) the Next Up template reads:
/// `{"schemaVersion":1, "access":"authorized"|"denied", "events":[{"title","start","end"?,"location"?,"isAllDay"?}]}`
/// with ISO 8601 times. Untrusted: bounded size, every field optional, bad events skipped.
public struct CalendarSnapshot: Sendable, Hashable {
    public struct Event: Sendable, Hashable {
        public var title: String
        public var start: Date
        public var end: Date?
        public var location: String?
        /// `start` is the day's local midnight; shown as "All day", not as a time.
        public var isAllDay: Bool
        public init(title: String, start: Date, end: Date? = nil, location: String? = nil, isAllDay: Bool = false) {
            self.title = title; self.start = start; self.end = end; self.location = location; self.isAllDay = isAllDay
        }
    }

    public var accessDenied: Bool
    public var events: [Event]

    public init(accessDenied: Bool = false, events: [Event]) {
        self.accessDenied = accessDenied
        self.events = events
    }

    public static func load(from root: StoreRoot) -> CalendarSnapshot? {
        guard let json = SnapshotFile.load(root.snapshots.appendingPathComponent("calendar.json")) else { return nil }
        let denied = json["access"].flatMap(SnapshotFile.string) == "denied"
        var events: [Event] = []
        if case .array(let items)? = json["events"] {
            for item in items.prefix(500) {
                guard let title = item["title"].flatMap(SnapshotFile.string),
                      let start = item["start"].flatMap(SnapshotFile.date) else { continue }
                var allDay = false
                if case .bool(let b)? = item["isAllDay"] { allDay = b }
                events.append(Event(title: title, start: start, end: item["end"].flatMap(SnapshotFile.date),
                                    location: item["location"].flatMap(SnapshotFile.string), isAllDay: allDay))
            }
        }
        return CalendarSnapshot(accessDenied: denied, events: events.sorted { $0.start < $1.start })
    }

    /// Events that have not ended at `now`, soonest first: the timed ones, and all-day ones only
    /// when no timed event is left (the seed's rule, and the `__calendar_*` keys'). Sorted by start
    /// alone, a day's all-day events (from midnight) would always come before its meetings.
    public func upcoming(at now: Date) -> [Event] {
        let live = events.filter { ($0.end ?? $0.start.addingTimeInterval(1)) > now }
        let timed = live.filter { !$0.isAllDay }
        return timed.isEmpty ? live : timed
    }
}

/// The reminders snapshot (`snapshots/reminders.json`):
/// `{"schemaVersion":1, "items":[{"title","done"?,"due"?}]}`.
public struct RemindersSnapshot: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public var title: String
        public var done: Bool
        public var due: Date?
        public init(title: String, done: Bool = false, due: Date? = nil) { self.title = title; self.done = done; self.due = due }
    }
    public var items: [Item]
    public var updatedAt: Date?
    public init(items: [Item], updatedAt: Date? = nil) { self.items = items; self.updatedAt = updatedAt }

    public static func load(from root: StoreRoot) -> RemindersSnapshot? {
        guard let json = SnapshotFile.load(root.snapshots.appendingPathComponent("reminders.json")) else { return nil }
        var items: [Item] = []
        if case .array(let list)? = json["items"] {
            for item in list.prefix(500) {
                guard let title = item["title"].flatMap(SnapshotFile.string) else { continue }
                var done = false
                if case .bool(let b)? = item["done"] { done = b }
                items.append(Item(title: title, done: done, due: item["due"].flatMap(SnapshotFile.date)))
            }
        }
        return RemindersSnapshot(items: items, updatedAt: json["updatedAt"].flatMap(SnapshotFile.date))
    }
}

enum SnapshotFile {
    static let limits = JSONLimits(maxDepth: 8, maxValueCount: 50_000, maxStringBytes: 64 << 10)
    static let maximumBytes = 1 << 20

    /// What reading a snapshot file found.
    enum Reading {
        case absent
        case object(JSONValue)
        /// There, but not a JSON object within the limits; why.
        case unreadable(String)
    }

    static func read(_ url: URL) -> Reading {
        let data: Data
        do {
            guard let read = try FileSystem.read(url, limit: maximumBytes) else { return .absent }
            data = read
        } catch {
            return .unreadable("\(error)")
        }
        do {
            let value = try JSONValue.parse(data, limits: limits)
            guard case .object = value else { return .unreadable("not a JSON object") }
            return .object(value)
        } catch {
            return .unreadable("not valid JSON (\(error))")
        }
    }

    static func load(_ url: URL) -> JSONValue? {
        if case .object(let value) = read(url) { return value }
        return nil
    }

    /// Why the snapshot at `url` cannot be read; nil when it is absent or reads as a JSON object.
    static func problem(_ url: URL) -> String? {
        if case .unreadable(let reason) = read(url) { return reason }
        return nil
    }

    static func string(_ v: JSONValue) -> String? {
        if case .string(let s) = v { return s }
        return nil
    }

    /// A finite number.
    static func number(_ v: JSONValue) -> Double? {
        if case .number(let n) = v, n.isFinite { return n }
        return nil
    }

    static func date(_ v: JSONValue) -> Date? {
        guard case .string(let s) = v else { return nil }
        return DateParsing.parse(s, now: Date(timeIntervalSince1970: 0), timeZone: TimeZone(identifier: "UTC")!)
    }
}
