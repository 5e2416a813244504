import Foundation
import ICalendar
import SharedStore
import Snapshots

/// The reminders sources `weaver reminders` knows: `reminders/sources.json`, plus the last good
/// download of each web source in `reminders/ID.ics` (a refresh while offline still has tasks).
public struct ReminderSources: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var kind: RemindersSnapshot.SourceKind
        /// An absolute file path or an http(s) URL.
        public var source: String
        public var addedAt: Date
        public var lastRefreshAt: Date?
        public var lastSuccessAt: Date?
        public var lastError: String?
        public var itemCount: Int?

        public var isWeb: Bool { SourceLocation.isWeb(source) }
    }

    public var schemaVersion = ReminderSources.currentSchemaVersion
    public var sources: [Entry] = []

    public init() {}
}

/// Reminders from todo.txt files and iCalendar tasks: add, list, remove, refresh (which writes
/// `snapshots/reminders.json`). The same caps and hostile-file rules as calendars: files and
/// answers are capped in size, parsed by bounded parsers, and a source that does not read as
/// tasks is refused when added, with nothing saved.
public struct RemindersService: Sendable {
    public var root: StoreRoot
    public var client: HTTPClient
    public var limits: ICalendarLimits
    public var todoLimits: TodoTxtLimits
    /// Bytes of one downloaded task list (as a calendar's).
    public static let downloadLimit = CalendarService.downloadLimit
    /// Downloads: as calendars (capped, 15 s idle, 60 s in all, two retries).
    public var policy = HTTPPolicy(
        maxBodyBytes: RemindersService.downloadLimit, idleTimeoutSeconds: 15, totalTimeoutSeconds: 60)

    public init(
        root: StoreRoot, client: HTTPClient = HTTPClient(), limits: ICalendarLimits = ICalendarLimits(),
        todoLimits: TodoTxtLimits = TodoTxtLimits()
    ) {
        self.root = root
        self.client = client
        self.limits = limits
        self.todoLimits = todoLimits
    }

    var sources: SourceListFile<ReminderSources> { SourceListFile(root: root, folder: "reminders") }
    func cacheURL(_ id: String) -> URL { sources.cacheURL(id) }
    public static func snapshotURL(in root: StoreRoot) -> URL { SnapshotFile.reminders.url(in: root) }

    public func list(note: (String) -> Void = { _ in }) throws -> [ReminderSources.Entry] {
        try sources.list(note: note)
    }

    func fetch(_ source: String) throws -> Data {
        try SourceLocation.fetch(
            source, client: client, policy: policy, accept: "text/calendar, text/plain;q=0.8, */*;q=0.5",
            limitBytes: max(limits.maxFileBytes, todoLimits.maxFileBytes))
    }

    /// iCalendar when the bytes start (after a byte-order mark and blank lines) with BEGIN:VCALENDAR
    /// or the file is called `.ics`; todo.txt otherwise. Web sources must be iCalendar: a page
    /// that is not (a sign-in page, say) would otherwise read as a todo.txt of HTML lines.
    static func kind(of data: Data, source: String) -> RemindersSnapshot.SourceKind {
        var bytes = data.prefix(64)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let head = String(
            decoding: bytes.drop { $0 == 10 || $0 == 13 || $0 == 32 || $0 == 9 }.prefix(15), as: UTF8.self
        ).uppercased()
        if head.hasPrefix("BEGIN:VCALENDAR") || source.lowercased().hasSuffix(".ics") || SourceLocation.isWeb(source) {
            return .iCalendar
        }
        return .todoTxt
    }

    /// What one source holds, read from its bytes.
    struct Reading {
        var items: [RemindersSnapshot.Item]
        var itemCount: Int
        var warnings: [String]
        var calendarName: String?
    }

    /// Reads bytes as the given kind into snapshot items with ids `sourceID:LINE`.
    func read(
        _ data: Data, kind: RemindersSnapshot.SourceKind, sourceID: String, sourceName: String, label: String,
        timeZone: TimeZone
    ) throws -> Reading {
        switch kind {
        case .todoTxt:
            let file = try TodoTxtFile.parse(data, limits: todoLimits)
            let items = file.items.map { Self.item($0, sourceID: sourceID, sourceName: sourceName, timeZone: timeZone) }
            return Reading(items: items, itemCount: file.lineCount, warnings: file.warnings, calendarName: nil)
        case .iCalendar:
            let doc: ICalendarDocument
            do { doc = try ICalendarDocument.parse(data, limits: limits) } catch let e as ICalendarError {
                throw DataSourceError("\(label): \(e)")
            }
            let r = TaskReader(limits: limits, localZone: timeZone).tasks(in: doc)
            let name = doc.components.first?.first("X-WR-CALNAME")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
                .nilIfEmpty
            let items = r.tasks.filter { !$0.isCancelled }.map {
                Self.item($0, sourceID: sourceID, sourceName: sourceName, timeZone: timeZone)
            }
            return Reading(
                items: items, itemCount: r.taskCount, warnings: r.warnings.map(\.description), calendarName: name)
        }
    }

    static func item(_ t: TodoTxtItem, sourceID: String, sourceName: String, timeZone: TimeZone)
        -> RemindersSnapshot.Item
    {
        var due: Date?
        if let d = t.dueDate { due = localMidnight(d, timeZone) }
        var completed: Date?
        if let d = t.completionDate { completed = localMidnight(d, timeZone) }
        return RemindersSnapshot.Item(
            id: "\(sourceID):\(t.line)", source: sourceID, title: t.title, done: t.isDone, due: due,
            dueIsDate: due == nil ? nil : true, dueDay: due == nil ? nil : t.dueDate,
            priority: t.priorityNumber == 0 ? nil : t.priorityNumber, list: t.projects.first ?? sourceName,
            tags: t.contexts.isEmpty ? nil : t.contexts, completedAt: completed,
            repeats: t.extensions.first { $0.key == "rec" }.map { "rec:\($0.value)" })
    }

    static func item(_ t: TaskItem, sourceID: String, sourceName: String, timeZone: TimeZone) -> RemindersSnapshot.Item
    {
        var day: String?
        if t.dueIsDate, let due = t.due {
            var c = Calendar(identifier: .gregorian)
            c.timeZone = timeZone
            let p = c.dateComponents([.year, .month, .day], from: due)
            day = String(format: "%04d-%02d-%02d", p.year ?? 0, p.month ?? 0, p.day ?? 0)
        }
        return RemindersSnapshot.Item(
            id: "\(sourceID):\(t.line)", source: sourceID, title: t.title.isEmpty ? "(untitled)" : t.title,
            done: t.isCompleted,
            due: t.due, dueIsDate: t.due == nil ? nil : t.dueIsDate, dueDay: day,
            priority: t.priority == 0 ? nil : t.priority,
            list: t.list ?? sourceName, tags: t.categories.isEmpty ? nil : t.categories, completedAt: t.completedAt,
            repeats: t.recurrence, uid: t.uid)
    }

    static func localMidnight(_ day: String, _ zone: TimeZone) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        return c.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// Adds a todo.txt file, an .ics file or an .ics address after reading it once: a file that
    /// reads as neither, or a calendar without tasks, is refused and nothing is saved.
    public func add(_ sourceText: String, name: String?, now: Date = Date(), timeZone: TimeZone = .current)
        throws -> (ReminderSources.Entry, itemCount: Int, warnings: [String])
    {
        let source = SourceLocation.normalised(sourceText)
        let data = try fetch(source)
        let kind = Self.kind(of: data, source: source)
        let reading = try read(data, kind: kind, sourceID: "new", sourceName: "", label: sourceText, timeZone: timeZone)
        if kind == .iCalendar && reading.itemCount == 0 {
            throw DataSourceError(
                "\(sourceText) holds no tasks (VTODO); for a calendar of events use 'weaver calendar add'")
        }
        let sourceName = name ?? reading.calendarName ?? SourceLocation.fallbackName(source)
        let added = try sources.add(
            source, name: sourceName, fallbackID: "reminders", data: data,
            check: { entries in
                guard entries.count < RemindersSnapshot.maxSources else {
                    throw DataSourceError(
                        "there are already \(RemindersSnapshot.maxSources) reminders sources; remove one first")
                }
            },
            make: { id in
                ReminderSources.Entry(
                    id: id, name: String(sourceName.prefix(200)), kind: kind, source: source,
                    addedAt: now, itemCount: reading.itemCount)
            })
        return (added, reading.itemCount, reading.warnings)
    }

    /// Removes by id or name; the file itself is left alone.
    public func remove(_ key: String) throws -> ReminderSources.Entry {
        try sources.remove(key, noun: "reminders source")
    }

    public typealias RefreshReport = SourceRefreshReport<RemindersSnapshot>

    /// One source read for the snapshot: its status and items.
    func readForSnapshot(_ entry: ReminderSources.Entry, now: Date, timeZone: TimeZone, notes: inout [String])
        -> (RemindersSnapshot.Source, [RemindersSnapshot.Item])
    {
        var (data, failure) = SourceLocation.readForRefresh(
            entry.source, name: entry.name, cache: cacheURL(entry.id),
            cacheLimitBytes: limits.maxFileBytes, now: now, notes: &notes, fetch: fetch)
        var items: [RemindersSnapshot.Item] = []
        var count = 0
        if let bytes = data {
            do {
                let r = try read(
                    bytes, kind: entry.kind, sourceID: entry.id, sourceName: entry.name, label: entry.source,
                    timeZone: timeZone)
                items = r.items
                count = r.itemCount
                for w in r.warnings.prefix(5) { notes.append("\(entry.name): \(w)") }
                if r.warnings.count > 5 { notes.append("\(entry.name): \(r.warnings.count - 5) more warnings") }
            } catch {
                let text = "\(error)"
                notes.append("\(entry.name): \(text)")
                failure = failure ?? text
                data = nil
            }
        }
        // Only a local file read now can be completed: its hash is what a completion checks.
        let hash = !entry.isWeb && failure == nil ? data.map(SHA256.hex) : nil
        let status = RemindersSnapshot.Source(
            id: entry.id, name: entry.name, kind: entry.kind, location: entry.source,
            readOnly: entry.isWeb, contentSHA256: hash, ok: failure == nil, error: failure,
            itemCount: count)
        return (status, items)
    }

    /// Open items first (file order), then done ones, newest completion first; at most `maxItems`.
    static func capped(_ items: [RemindersSnapshot.Item]) -> [RemindersSnapshot.Item] {
        let open = items.filter { !$0.done }
        let done = items.filter(\.done).enumerated().sorted {
            ($0.element.completedAt ?? .distantPast, -$0.offset) > ($1.element.completedAt ?? .distantPast, -$1.offset)
        }.map(\.element)
        return Array((open + done).prefix(RemindersSnapshot.maxItems))
    }

    /// Reads every source and writes `snapshots/reminders.json`. A source that cannot be read
    /// keeps its last good download (web) and is reported; the others still count.
    public func refresh(now: Date = Date(), timeZone: TimeZone = .current) throws -> RefreshReport {
        let entries = try list()
        var notes: [String] = []
        var statuses: [RemindersSnapshot.Source] = []
        var items: [RemindersSnapshot.Item] = []
        for entry in entries {
            let (status, read) = readForSnapshot(entry, now: now, timeZone: timeZone, notes: &notes)
            statuses.append(status)
            items += read
        }
        let snapshot = RemindersSnapshot(
            updatedAt: now, timeZone: timeZone.identifier, sources: statuses,
            lastError: statuses.first { !$0.ok }.map { "\($0.name): \($0.error ?? "")" },
            items: Self.capped(items))
        try write(snapshot)
        var outcomes: [String: SourceListFile<ReminderSources>.Outcome] = [:]
        for u in statuses where outcomes[u.id] == nil { outcomes[u.id] = .init(error: u.error, count: u.itemCount) }
        try sources.recordRefresh(now: now, outcomes: outcomes, count: \.itemCount)
        return RefreshReport(snapshot: snapshot, notes: notes)
    }

    func write(_ snapshot: RemindersSnapshot) throws {
        let data = try JSONDocument<RemindersSnapshot>.encoder().encode(snapshot)
        try FileSystem.atomicWrite(data + Data("\n".utf8), to: Self.snapshotURL(in: root))
    }
}
