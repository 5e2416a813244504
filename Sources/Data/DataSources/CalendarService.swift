import Foundation
import ICalendar
import SharedStore
import SizeLimits
import Snapshots

/// The calendars `weaver calendar` knows: `calendars/sources.json`, plus the last good download
/// of each web calendar in `calendars/ID.ics` (so a refresh while offline still has events).
public struct CalendarSources: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        /// An absolute file path or an http(s) URL.
        public var source: String
        public var addedAt: Date
        public var lastRefreshAt: Date?
        public var lastSuccessAt: Date?
        public var lastError: String?
        public var eventCount: Int?

        public var isWeb: Bool { source.hasPrefix("http://") || source.hasPrefix("https://") }
    }

    public var schemaVersion = CalendarSources.currentSchemaVersion
    public var calendars: [Entry] = []

    public init() {}
}

/// The calendar snapshot's earlier name here; the type is Snapshots' `CalendarSnapshot`.
public typealias NextUpSnapshot = CalendarSnapshot

extension CalendarSnapshot {
    public static func url(in root: StoreRoot) -> URL { SnapshotFile.calendar.url(in: root) }
}

public struct CalendarService: Sendable {
    public var root: StoreRoot
    public var client: HTTPClient
    public var limits: ICalendarLimits
    /// Bytes of one downloaded calendar: the same limit as a file added from disk or uploaded.
    public static let downloadLimit = SizeLimit.dataSourceFile.bytes
    /// How far ahead events are looked for.
    public static let horizonDays = 366

    /// Downloads: capped at `downloadLimit`, 15 s without a byte or 60 s in all, two retries.
    public var policy = HTTPPolicy(
        maxBodyBytes: CalendarService.downloadLimit, idleTimeoutSeconds: 15, totalTimeoutSeconds: 60)

    public init(root: StoreRoot, client: HTTPClient = HTTPClient(), limits: ICalendarLimits = ICalendarLimits()) {
        self.root = root
        self.client = client
        self.limits = limits
    }

    var sources: SourceListFile<CalendarSources> { SourceListFile(root: root, folder: "calendars") }
    func cacheURL(_ id: String) -> URL { sources.cacheURL(id) }

    public func list(note: (String) -> Void = { _ in }) throws -> [CalendarSources.Entry] {
        try sources.list(note: note)
    }

    /// `webcal://` is how many sites link calendars: it means https (`SourceLocation`).
    public static func normalisedSource(
        _ text: String, relativeTo cwd: String = FileManager.default.currentDirectoryPath
    ) -> String {
        SourceLocation.normalised(text, relativeTo: cwd)
    }

    /// Reads a calendar's bytes: a file, or a download (kept as the cache on success).
    func fetch(_ source: String, cacheAs id: String?) throws -> Data {
        try SourceLocation.fetch(
            source, client: client, policy: policy, accept: "text/calendar, */*;q=0.5", limitBytes: limits.maxFileBytes)
    }

    /// Adds a calendar after reading it once: a file that is not a calendar, or an address that
    /// does not answer with one, is refused and nothing is saved. The warnings are those a
    /// refresh would give (the parser's and the events'), so a bad DTEND is said when it can
    /// still be fixed, not only later.
    public func add(_ sourceText: String, name: String?, now: Date = Date(), timeZone: TimeZone = .current) throws -> (
        CalendarSources.Entry, eventCount: Int, warnings: [ICalendarWarning]
    ) {
        let source = Self.normalisedSource(sourceText)
        let data = try fetch(source, cacheAs: nil)
        let read: EventExpander.Result
        do {
            read = try EventExpander(limits: limits, localZone: timeZone)
                .occurrences(
                    inFile: data, from: now, to: now.addingTimeInterval(Double(Self.horizonDays) * 86_400),
                    keepingSoonest: CalendarSnapshot.maximumEvents)
        } catch let e as ICalendarError {
            throw DataSourceError("\(sourceText): \(e)")
        }
        let calendarName =
            name ?? read.outline.components.first?.first("X-WR-CALNAME")?.text.trimmingCharacters(
                in: .whitespacesAndNewlines
            )
            .nilIfEmpty
            ?? (URL(string: source)?.host.flatMap { source.hasPrefix("http") ? $0 : nil }
                ?? URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent)
        let added = try sources.add(source, name: calendarName, fallbackID: "calendar", data: data) { id in
            CalendarSources.Entry(
                id: id, name: String(calendarName.prefix(200)), source: source, addedAt: now,
                eventCount: read.eventCount)
        }
        return (added, read.eventCount, read.warnings)
    }

    /// Removes by id or name; returns the removed entry.
    public func remove(_ key: String) throws -> CalendarSources.Entry {
        try sources.remove(key, noun: "calendar")
    }

    public typealias RefreshReport = SourceRefreshReport<CalendarSnapshot>

    /// Reads every calendar and writes `snapshots/calendar.json`. A calendar that cannot be read
    /// keeps contributing its last good download (web) and is reported; the others still count.
    public func refresh(now: Date = Date(), timeZone: TimeZone = .current) throws -> RefreshReport {
        let entries = try list()
        var occurrences: [(Occurrence, String)] = []
        var statuses: [CalendarSnapshot.CalendarStatus] = []
        var notes: [String] = []
        var outcomes: [String: SourceListFile<CalendarSources>.Outcome] = [:]
        let expander = EventExpander(limits: limits, localZone: timeZone)
        for entry in entries {
            let (data, readFailure) = SourceLocation.readForRefresh(
                entry.source, name: entry.name, cache: cacheURL(entry.id),
                cacheLimitBytes: limits.maxFileBytes, now: now, notes: &notes
            ) {
                try fetch($0, cacheAs: entry.id)
            }
            var failure = readFailure
            var count = 0, warningCount = 0
            if let data {
                do {
                    // From `now`: the window's overlap rule is `isUpcoming`'s, so the soonest kept
                    // are the snapshot's. Read streaming, so memory follows the snapshot and the
                    // file's bytes (up to 32 MiB), not a tree of the file.
                    let r = try expander.occurrences(
                        inFile: data, from: now, to: now.addingTimeInterval(Double(Self.horizonDays) * 86_400),
                        keepingSoonest: CalendarSnapshot.maximumEvents)
                    count = r.eventCount
                    warningCount = r.warnings.count
                    for w in r.warnings.prefix(5) { notes.append("\(entry.name): \(w)") }
                    if r.warnings.count > 5 { notes.append("\(entry.name): \(r.warnings.count - 5) more warnings") }
                    occurrences += r.occurrences.map { ($0, entry.name) }
                } catch {
                    let text = "\(entry.source): \(error)"
                    notes.append("\(entry.name): \(text)")
                    failure = failure ?? text
                }
            }
            statuses.append(
                .init(
                    id: entry.id, name: entry.name, ok: failure == nil, error: failure, events: count,
                    warnings: warningCount))
            outcomes[entry.id] = .init(error: failure, count: count)
        }
        occurrences.sort { ($0.0.start, $0.0.end, $0.0.title) < ($1.0.start, $1.0.end, $1.0.title) }
        // Only what is upcoming at `now` is kept, by the snapshot's own rule.
        let events = occurrences.lazy.map { o, name in
            CalendarSnapshot.Event(
                title: o.title, start: o.start, end: o.end, isAllDay: o.isAllDay, location: o.location,
                calendar: name, startDay: o.startDay, endDay: o.endDay, status: o.status)
        }.filter { $0.isUpcoming(at: now) }.prefix(CalendarSnapshot.maximumEvents)
        let snapshot = CalendarSnapshot(
            generatedAt: now, timeZone: timeZone.identifier, horizonDays: Self.horizonDays,
            calendars: statuses, lastError: statuses.first { !$0.ok }?.error, events: Array(events))
        let data = try JSONDocument<CalendarSnapshot>.encoder().encode(snapshot)
        try FileSystem.atomicWrite(data + Data("\n".utf8), to: CalendarSnapshot.url(in: root))
        try sources.recordRefresh(now: now, outcomes: outcomes, count: \.eventCount)
        return RefreshReport(snapshot: snapshot, notes: notes)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
