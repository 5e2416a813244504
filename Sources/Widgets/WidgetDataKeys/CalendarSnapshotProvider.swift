import CivilDates
import Foundation
import SharedStore
import Snapshots
import TemplateLanguage

/// `__calendar_*` keys from `snapshots/calendar.json`, written by `weaver calendar refresh`
/// (schema in docs/data-sources.md). The seed has no calendar keys; these carry what its Next Up
/// template shows (notes §5): title, countdown wording, time range, location, the event after.
///
/// Events are chosen at render time from the snapshot's `events` list, so a snapshot written
/// an hour ago still shows the right next event: those that ended before the render clock are
/// skipped. Timed events come first; all-day events are "next" only when no timed event is
/// left, and today's all-day events have their own keys.
public struct CalendarSnapshotProvider: DictionaryKeySource {
    /// The snapshot's event (Snapshots' `CalendarSnapshot.Event`); the keys use its `effectiveEnd`.
    public typealias Event = CalendarSnapshot.Event

    public var generatedAt: Date?
    public var upcoming: [Event]
    public var lastError: String?
    let prefix = "__calendar_"

    public init(generatedAt: Date?, upcoming: [Event], lastError: String? = nil) {
        self.generatedAt = generatedAt
        self.upcoming = upcoming
        self.lastError = lastError
    }

    public static func load(from root: StoreRoot) -> CalendarSnapshotProvider? {
        CalendarSnapshot.load(from: root).map {
            CalendarSnapshotProvider(generatedAt: $0.generatedAt, upcoming: $0.events, lastError: $0.lastError)
        }
    }

    /// The next and the following event at `now` (`CalendarSnapshot`'s rule).
    func pick(at now: Date) -> (next: Event?, second: Event?) {
        let ordered = CalendarSnapshot.upcoming(upcoming, at: now)
        return (ordered.first, ordered.dropFirst().first)
    }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var v: [String: String] = [:]
        let now = context.now
        if let at = generatedAt { v["__calendar_updated_iso"] = CivilTime.isoUTC(at, fractionalSeconds: false) }
        if let lastError, !lastError.isEmpty { v["__calendar_error"] = lastError }
        let today = CivilTime.local(now, in: context.timeZone)
        let todayStart = today.startOfDay(in: context.timeZone)
        let tomorrowStart = CivilTime.local(todayStart.addingTimeInterval(36 * 3600), in: context.timeZone).startOfDay(
            in: context.timeZone)
        let live = upcoming.filter { $0.effectiveEnd > now }
        let timedToday = live.filter { !$0.isAllDay && $0.start < tomorrowStart }
        v["__calendar_today_count"] = String(timedToday.count)
        let allDayToday = live.filter { $0.isAllDay && $0.start < tomorrowStart }
        v["__calendar_all_day_today"] = allDayToday.map(\.title).joined(separator: ", ")
        v["__calendar_all_day_today_count"] = String(allDayToday.count)
        let (next, second) = pick(at: now)
        v["__calendar_has_next"] = next == nil ? "false" : "true"
        if let next { describe(next, as: "next", into: &v, context: context, formatters: formatters) }
        if let second { describe(second, as: "second", into: &v, context: context, formatters: formatters) }
        return v
    }

    /// "10:15–11:00" (en_GB) or "10:15 AM–11:00 AM" (en_US): the locale's short time at both
    /// ends, only the start when there is no end. `__calendar_*_range` and the Next Up widget
    /// both say it this way.
    static func timeRange(start: Date, end: Date?, formatters: FormatterCache) -> String {
        let shortTime = formatters.date(
            pattern: DateFormatter.dateFormat(fromTemplate: "jmm", options: 0, locale: formatters.locale) ?? "HH:mm")
        guard let end else { return shortTime.string(from: start) }
        return "\(shortTime.string(from: start))–\(shortTime.string(from: end))"
    }

    func describe(
        _ e: Event, as name: String, into v: inout [String: String], context: RenderContext, formatters: FormatterCache
    ) {
        let key = "__calendar_\(name)_"
        let now = context.now
        v[key + "title"] = e.title
        if let l = e.location, !l.isEmpty { v[key + "location"] = l }
        if let c = e.calendar { v[key + "calendar"] = c }
        v[key + "all_day"] = e.isAllDay ? "true" : "false"
        v[key + "start_iso"] = CivilTime.isoUTC(e.start, fractionalSeconds: false)
        v[key + "end_iso"] = CivilTime.isoUTC(e.effectiveEnd, fractionalSeconds: false)
        v[key + "start"] = CivilTime.local(e.start, in: context.timeZone).hourMinute
        v[key + "end"] = CivilTime.local(e.effectiveEnd, in: context.timeZone).hourMinute
        v[key + "range"] =
            e.isAllDay ? "All day" : Self.timeRange(start: e.start, end: e.effectiveEnd, formatters: formatters)
        let seconds = e.start.timeIntervalSince(now)
        v[key + "in_min"] = String(max(0, Int((seconds / 60).rounded(.up))))
        let end = e.effectiveEnd
        v[key + "ongoing"] = (seconds <= 0 && end > now) ? "true" : "false"
        if seconds <= 0 && end > now {
            v[key + "ends_in_min"] = String(max(0, Int((end.timeIntervalSince(now) / 60).rounded(.up))))
        }
        v[key + "countdown"] = Self.shortCountdown(to: e.start, now: now, context: context, formatters: formatters)
        v[key + "label"] = Self.countdownLabel(to: e.start, now: now, context: context, formatters: formatters)
        v[key + "header"] = (name == "next" && seconds < 86_400) ? "Next Up" : "Next"
    }

    /// Calendar days from today to the start's day, in the render zone.
    static func dayDifference(_ start: Date, now: Date, in zone: TimeZone) -> Int {
        CivilTime.local(start, in: zone).dayNumber - CivilTime.local(now, in: zone).dayNumber
    }

    /// Notes §5: Now · Nm · Nh · Nd (calendar days, under 14) · "MMM d".
    static func shortCountdown(to start: Date, now: Date, context: RenderContext, formatters: FormatterCache) -> String
    {
        let dt = start.timeIntervalSince(now)
        if dt <= 0 { return "Now" }
        let minutes = Int(dt / 60)
        if minutes < 60 { return "\(minutes)m" }
        if minutes / 60 < 24 { return "\(minutes / 60)h" }
        let days = max(1, dayDifference(start, now: now, in: context.timeZone))
        if days < 14 { return "\(days)d" }
        return formatters.date(
            pattern: DateFormatter.dateFormat(fromTemplate: "MMMd", options: 0, locale: context.locale)
        ).string(from: start)
    }

    /// Notes §5: Now · Soon · In N min · In N hr · Tomorrow · In N days · On EEE MMM d.
    static func countdownLabel(to start: Date, now: Date, context: RenderContext, formatters: FormatterCache) -> String
    {
        let dt = start.timeIntervalSince(now)
        if dt <= 0 { return "Now" }
        let minutes = Int(dt / 60)
        if minutes <= 1 { return "Soon" }
        if minutes < 60 { return "In \(minutes) min" }
        if minutes / 60 < 24 { return "In \(minutes / 60) hr" }
        let days = max(1, dayDifference(start, now: now, in: context.timeZone))
        if days == 1 { return "Tomorrow" }
        if days < 7 { return "In \(days) days" }
        return "On "
            + formatters.date(
                pattern: DateFormatter.dateFormat(fromTemplate: "EEEMMMd", options: 0, locale: context.locale)
            ).string(from: start)
    }
}
