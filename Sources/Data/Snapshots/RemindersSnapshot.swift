import Foundation
import SharedStore

/// `snapshots/reminders.json` (`SnapshotFile.reminders`): the tasks of every reminders source (todo.txt files,
/// iCalendar VTODO files and addresses), what the Reminders template, the `__reminders_*` keys and the
/// completion of a reminder read. Written by `weaver reminders refresh`; untrusted when read
/// (capped, every field checked). The rules that decide what a mode shows (overdue, today,
/// soon, priority, stale) are defined here once, so the drawing and the keys cannot disagree.
public struct RemindersSnapshot: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1
    /// Items kept in `items` (open ones first, then the most recently completed).
    public static let maxItems = 500
    /// Sources kept in `sources`.
    public static let maxSources = 100
    /// Older than this, the snapshot is stale: the widget still shows it, but its rows cannot be
    /// pressed (the file may have moved on). The refresh timer runs every 30 minutes, so this is
    /// four missed refreshes.
    public static let staleAfterSeconds: Double = 2 * 3600
    /// "Soon": due after today and within this many days.
    public static let soonDays = 7
    /// "Priority": 1…4 on RFC 5545's scale (todo.txt's A–D), the app's stand-in for "flagged".
    public static let priorityRange = 1...4

    public enum SourceKind: String, Codable, Sendable {
        case todoTxt = "todotxt"
        case iCalendar = "ics"
    }

    public struct Source: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var kind: SourceKind
        /// The absolute path of a file, or the address of a web source.
        public var location: String
        /// Web sources cannot be written: their rows say so instead of completing.
        public var readOnly: Bool
        /// SHA-256 of the bytes this snapshot was made from (local files): completing refuses
        /// when the file's bytes no longer hash to this.
        public var contentSHA256: String?
        public var ok: Bool
        public var error: String?
        public var itemCount: Int

        public init(
            id: String, name: String, kind: SourceKind, location: String, readOnly: Bool, contentSHA256: String?,
            ok: Bool, error: String? = nil, itemCount: Int
        ) {
            self.id = id
            self.name = name
            self.kind = kind
            self.location = location
            self.readOnly = readOnly
            self.contentSHA256 = contentSHA256
            self.ok = ok
            self.error = error
            self.itemCount = itemCount
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        /// `SOURCE:LINE`: the source's id and the item's line (todo.txt) or BEGIN:VTODO line;
        /// unique in a snapshot, and with the content hash enough to find the item's bytes.
        public var id: String
        public var source: String
        public var title: String
        public var done: Bool
        public var due: Date?
        /// Due on a day, at no time (todo.txt's `due:`, iCalendar's DUE;VALUE=DATE): `due` is
        /// that day's local midnight and `dueDay` the day.
        public var dueIsDate: Bool?
        public var dueDay: String?
        /// 1 (highest) … 9; nil for none.
        public var priority: Int?
        /// The calendar's name (iCalendar) or the first `+project` (todo.txt).
        public var list: String?
        /// CATEGORIES (iCalendar) or `@context`s (todo.txt).
        public var tags: [String]?
        public var completedAt: Date?
        /// The RRULE of a repeating task.
        public var repeats: String?
        /// iCalendar UID, to check the item's bytes are the same task's.
        public var uid: String?

        public init(
            id: String, source: String, title: String, done: Bool = false, due: Date? = nil, dueIsDate: Bool? = nil,
            dueDay: String? = nil, priority: Int? = nil, list: String? = nil, tags: [String]? = nil,
            completedAt: Date? = nil, repeats: String? = nil, uid: String? = nil
        ) {
            self.id = id
            self.source = source
            self.title = title
            self.done = done
            self.due = due
            self.dueIsDate = dueIsDate
            self.dueDay = dueDay
            self.priority = priority
            self.list = list
            self.tags = tags
            self.completedAt = completedAt
            self.repeats = repeats
            self.uid = uid
        }

        public var isPriority: Bool { priority.map { RemindersSnapshot.priorityRange.contains($0) } ?? false }
    }

    public var schemaVersion = RemindersSnapshot.currentSchemaVersion
    public var updatedAt: Date
    public var timeZone: String
    public var sources: [Source]
    /// The first source's error; nil when every source was read. A failed last refresh turns
    /// the rows' buttons off, as the app does after a generic error.
    public var lastError: String?
    public var items: [Item]

    public init(updatedAt: Date, timeZone: String, sources: [Source], lastError: String? = nil, items: [Item]) {
        self.updatedAt = updatedAt
        self.timeZone = timeZone
        self.sources = sources
        self.lastError = lastError
        self.items = items
    }

    /// The snapshot in `root`, read tolerantly (`SnapshotReader`): items without an id or a
    /// title are skipped (another program's file may have no ids: `title` then stands in, and
    /// such rows cannot be completed), at most `maxItems`; nil when absent or unreadable.
    public static func load(from root: StoreRoot) -> RemindersSnapshot? {
        guard let json = SnapshotReader.load(.reminders, in: root) else { return nil }
        var sources: [Source] = []
        for s in (json["sources"]?.arrayValue ?? []).prefix(maxSources) {
            guard let id = s["id"]?.stringValue, let kind = s["kind"]?.stringValue.flatMap(SourceKind.init(rawValue:)),
                let location = s["location"]?.stringValue
            else { continue }
            sources.append(
                Source(
                    id: id, name: s["name"]?.stringValue ?? id, kind: kind, location: location,
                    readOnly: s["readOnly"]?.boolValue ?? true, contentSHA256: s["contentSHA256"]?.stringValue,
                    ok: s["ok"]?.boolValue ?? false, error: s["error"]?.stringValue,
                    itemCount: s["itemCount"]?.finiteNumber.map { Int(max(0, min($0, 1e9))) } ?? 0))
        }
        var items: [Item] = []
        for (index, i) in (json["items"]?.arrayValue ?? []).prefix(maxItems).enumerated() {
            guard let title = i["title"]?.stringValue else { continue }
            let priority = i["priority"]?.finiteNumber.flatMap { (1...9).contains($0) ? Int($0) : nil }
            let tags = i["tags"]?.arrayValue?.compactMap(\.stringValue).prefix(50)
            items.append(
                Item(
                    id: i["id"]?.stringValue ?? "item-\(index)", source: i["source"]?.stringValue ?? "",
                    title: String(title.prefix(500)), done: i["done"]?.boolValue ?? false, due: i["due"]?.dateValue,
                    dueIsDate: i["dueIsDate"]?.boolValue, dueDay: i["dueDay"]?.stringValue, priority: priority,
                    list: i["list"]?.stringValue, tags: tags.map(Array.init), completedAt: i["completedAt"]?.dateValue,
                    repeats: i["repeats"]?.stringValue, uid: i["uid"]?.stringValue))
        }
        // A file without its time cannot be trusted to be fresh: the distant past makes it stale.
        return RemindersSnapshot(
            updatedAt: json["updatedAt"]?.dateValue ?? .distantPast,
            timeZone: json["timeZone"]?.stringValue ?? "", sources: sources,
            lastError: json["lastError"]?.stringValue, items: items)
    }

    public func source(_ id: String) -> Source? { sources.first { $0.id == id } }

    /// Stale at `now`: older than `staleAfterSeconds`, or from the future (a clock that moved back).
    public func isStale(at now: Date) -> Bool {
        let age = now.timeIntervalSince(updatedAt)
        return age > Self.staleAfterSeconds || age < -300
    }

    /// Why a row cannot be pressed at `now`, or nil when it can: the snapshot is stale, the last
    /// refresh failed, or the item's source is read-only (a web address) or unknown.
    public func completionBlocked(_ item: Item, at now: Date) -> String? {
        if item.done { return "already completed" }
        if isStale(at: now) { return "the reminders snapshot is out of date; run 'weaver reminders refresh'" }
        if let e = lastError { return "the last refresh failed (\(e))" }
        guard let s = source(item.source) else { return "its source '\(item.source)' is not in the snapshot" }
        if s.readOnly { return "\(s.name) is read from an address and cannot be changed here" }
        if s.contentSHA256 == nil { return "\(s.name) was not read in the last refresh" }
        return nil
    }
}

/// The day-based rules, at a clock and in a zone.
public struct ReminderDays: Sendable {
    public var now: Date
    public var calendar: Calendar

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        calendar = c
    }

    var startOfToday: Date { calendar.startOfDay(for: now) }
    var startOfTomorrow: Date { calendar.date(byAdding: .day, value: 1, to: startOfToday)! }

    /// Open and past due: a timed item whose time has passed, a dated item from before today.
    public func isOverdue(_ i: RemindersSnapshot.Item) -> Bool {
        guard !i.done, let due = i.due else { return false }
        return i.dueIsDate == true ? due < startOfToday : due < now
    }

    /// Due some time today (the day of `now` in the zone).
    public func isDueToday(_ i: RemindersSnapshot.Item) -> Bool {
        guard let due = i.due else { return false }
        return due >= startOfToday && due < startOfTomorrow
    }

    /// Due after today and within `soonDays` days.
    public func isSoon(_ i: RemindersSnapshot.Item) -> Bool {
        guard let due = i.due else { return false }
        let end = calendar.date(byAdding: .day, value: RemindersSnapshot.soonDays + 1, to: startOfToday)!
        return due >= startOfTomorrow && due < end
    }

    /// Completed today (a done item without a date counts: it was done when it was read).
    public func isCompletedToday(_ i: RemindersSnapshot.Item) -> Bool {
        guard i.done else { return false }
        guard let at = i.completedAt else { return false }
        return at >= startOfToday && at < startOfTomorrow
    }

    /// Soonest first; undated last; then priority (1 first, none last), then title.
    public func ordered(_ items: [RemindersSnapshot.Item]) -> [RemindersSnapshot.Item] {
        items.sorted { a, b in
            let da = a.due ?? .distantFuture, db = b.due ?? .distantFuture
            if da != db { return da < db }
            let pa = a.priority ?? 10, pb = b.priority ?? 10
            if pa != pb { return pa < pb }
            return a.title < b.title
        }
    }
}
