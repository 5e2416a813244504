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
        switch key {
        case "__now": return CivilTime.isoUTC(context.now, fractionalSeconds: true)
        case "__now_unix": return String(Int64(CivilTime.clampedSeconds(context.now).rounded(.down)))
        case "__today": return CivilTime.local(context.now, in: context.timeZone).isoDate
        case "__time": return CivilTime.local(context.now, in: context.timeZone).hourMinute
        case "__weekday": return formatters.date(pattern: "EEE").string(from: context.now)
        default: return nil
        }
    }

    public func entries(in context: RenderContext, formatters: FormatterCache) -> [(key: String, value: String)] {
        Self.keys.compactMap { key in value(forKey: key, in: context, formatters: formatters).map { (key, $0) } }
    }
}
