import CivilDates
import Foundation
import TemplateLanguage

/// The always-available time keys, computed from the render clock:
///
/// | key | value |
/// |---|---|
/// | `__now` | ISO 8601 UTC with milliseconds, `2026-01-24T09:30:00.000Z` |
/// | `__now_unix` | whole Unix seconds, `1769247000` |
/// | `__today` | local Gregorian date, `yyyy-MM-dd` |
/// | `__time` | local time in the design's `clock.format` (`RenderContext.timeFormat`): `HH:mm` by default |
/// | `__time_24h` | local `HH:mm` |
/// | `__time_12h` | local `h:mm a` in the render locale (`9:30 am` in `en_GB`) |
/// | `__time_seconds` | local time with seconds, 12- or 24-hour as `clock.format` says: `09:30:05` |
/// | `__second` | local seconds, `05` |
/// | `__weekday` | local abbreviated weekday (`EEE`) in the render locale: `Sat` in `en_US` |
public struct TimeProvider: BuiltInKeySource {
    public init() {}

    /// Where each key's value is kept in the renderer's `FormatterCache` while the clock stays.
    enum ClockSlot: Int {
        case now, nowUnix, today, time, weekday, time12, timeSeconds, time12Seconds
    }

    public static let keys = [
        "__now", "__now_unix", "__today", "__time", "__time_24h", "__time_12h", "__time_seconds", "__second",
        "__weekday",
    ]

    public func value(forKey key: String, in context: RenderContext, formatters: FormatterCache) -> String? {
        // Cached per render clock in `formatters`: the weekday goes through ICU and allocates
        // several times, and a widget reads the same keys on every render of a timeline entry.
        let now = context.now
        switch key {
        case "__now":
            return formatters.clockValue(ClockSlot.now.rawValue, in: context) {
                CivilTime.isoUTC(now, fractionalSeconds: true)
            }
        case "__now_unix":
            return formatters.clockValue(ClockSlot.nowUnix.rawValue, in: context) {
                String(Int64(CivilTime.clampedSeconds(now).rounded(.down)))
            }
        case "__today":
            return formatters.clockValue(ClockSlot.today.rawValue, in: context) {
                CivilTime.local(now, in: context.timeZone).isoDate
            }
        case "__time":
            let f = context.timeFormat
            switch (f.twelveHour, f.seconds) {
            case (false, false): return value(forKey: "__time_24h", in: context, formatters: formatters)
            case (true, false): return value(forKey: "__time_12h", in: context, formatters: formatters)
            default: return value(forKey: "__time_seconds", in: context, formatters: formatters)
            }
        case "__time_24h":
            return formatters.clockValue(ClockSlot.time.rawValue, in: context) {
                CivilTime.local(now, in: context.timeZone).hourMinute
            }
        case "__time_12h":
            return formatters.clockValue(ClockSlot.time12.rawValue, in: context) {
                formatters.date(pattern: "h:mm a").string(from: now)
            }
        case "__time_seconds":
            if context.timeFormat.twelveHour {
                return formatters.clockValue(ClockSlot.time12Seconds.rawValue, in: context) {
                    formatters.date(pattern: "h:mm:ss a").string(from: now)
                }
            }
            return formatters.clockValue(ClockSlot.timeSeconds.rawValue, in: context) {
                let t = CivilTime.local(now, in: context.timeZone)
                return t.hourMinute + (t.second < 10 ? ":0" : ":") + String(t.second)
            }
        case "__second":
            let second = CivilTime.local(now, in: context.timeZone).second
            return second < 10 ? "0\(second)" : String(second)
        case "__weekday":
            return formatters.clockValue(ClockSlot.weekday.rawValue, in: context) {
                formatters.date(pattern: "EEE").string(from: now)
            }
        default: return nil
        }
    }

    public func entries(in context: RenderContext, formatters: FormatterCache) -> [(key: String, value: String)] {
        Self.keys.compactMap { key in value(forKey: key, in: context, formatters: formatters).map { (key, $0) } }
    }
}
