import Foundation

/// The always-available time keys, computed from the render clock:
///
/// | key | value |
/// |---|---|
/// | `__now` | ISO 8601 UTC with milliseconds, `2026-01-24T09:30:00.000Z` |
/// | `__now_unix` | whole Unix seconds, `1769247000` |
/// | `__today` | local Gregorian date, `yyyy-MM-dd` |
/// | `__time` | local time, `HH:mm` (24-hour) |
/// | `__weekday` | local abbreviated weekday (`EEE`) in the render locale: `Sat` in `en_US` |
public struct TimeProvider: BuiltInKeySource {
    public init() {}

    public static let keys = ["__now", "__now_unix", "__today", "__time", "__weekday"]

    public func value(forKey key: String, in context: RenderContext, formatters: FormatterCache) -> String? {
        // Cached per render clock in `formatters`: the weekday goes through ICU and allocates
        // several times, and a widget reads the same keys on every render of a timeline entry.
        let now = context.now
        switch key {
        case "__now":
            return formatters.timeKey(\.now, in: context) { CivilTime.isoUTC(now, fractionalSeconds: true) }
        case "__now_unix":
            return formatters.timeKey(\.nowUnix, in: context) { String(Int64(CivilTime.clampedSeconds(now).rounded(.down))) }
        case "__today":
            return formatters.timeKey(\.today, in: context) { CivilTime.local(now, in: context.timeZone).isoDate }
        case "__time":
            return formatters.timeKey(\.time, in: context) { CivilTime.local(now, in: context.timeZone).hourMinute }
        case "__weekday":
            return formatters.timeKey(\.weekday, in: context) { formatters.date(pattern: "EEE").string(from: now) }
        default: return nil
        }
    }

    public func entries(in context: RenderContext, formatters: FormatterCache) -> [(key: String, value: String)] {
        Self.keys.compactMap { key in value(forKey: key, in: context, formatters: formatters).map { (key, $0) } }
    }
}
