import CivilDates
import Foundation

/// Reads the date forms the `date`, `relative`, `*until` and `since*` filters accept.
///
/// Accepted, after trimming whitespace:
/// - `now`, `today`, `tomorrow`, `yesterday` (any case); the last three are local midnight.
/// - Unix seconds (`1735689600`, decimals allowed) or milliseconds: a magnitude of 1e11 or more
///   is milliseconds (1e11 seconds is the year 5138; 1e11 ms is 1973).
/// - `yyyy-MM-dd` or `yyyy/MM/dd`, optionally followed by `T` or a space and `HH:mm`,
///   `HH:mm:ss` or `HH:mm:ss.fff`, optionally followed by `Z` or an offset (`+01:00`, `+0100`,
///   `+01`). Without an offset the time is local to the render time zone.
/// - `HH:mm`: today at that local time.
/// Anything else, impossible dates (`2026-02-30`) and instants outside 0001...9999 are not dates.
public enum DateParsing {
    public static func parse<S: StringProtocol>(_ text: S, now: Date, timeZone: TimeZone) -> Date? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, NumberText.isSpace(last) { bytes.removeLast() }
        var start = 0
        while start < bytes.count, NumberText.isSpace(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes.count - start <= 64 else { return nil }
        if start > 0 { bytes.removeFirst(start) }

        if let word = specialWord(bytes, now: now, timeZone: timeZone) { return word }
        if let epoch = unixTimestamp(bytes) { return epoch }
        var scanner = Scanner(bytes: bytes)
        if let date = scanner.dateTime(timeZone: timeZone) { return date }
        var timeOnly = Scanner(bytes: bytes)
        if let (hour, minute) = timeOnly.hourMinuteOnly() {
            var today = CivilTime.local(now, in: timeZone)
            today.hour = hour
            today.minute = minute
            today.second = 0
            return today.instant(in: timeZone)
        }
        return nil
    }

    static func specialWord(_ bytes: [UInt8], now: Date, timeZone: TimeZone) -> Date? {
        guard bytes.count >= 3, bytes.count <= 9 else { return nil }
        let word = String(decoding: bytes, as: UTF8.self).lowercased()
        let dayOffset: Int
        switch word {
        case "now": return now
        case "today": dayOffset = 0
        case "tomorrow": dayOffset = 1
        case "yesterday": dayOffset = -1
        default: return nil
        }
        let today = CivilTime.local(now, in: timeZone)
        let days = CivilTime.daysSinceEpoch(year: today.year, month: today.month, day: today.day) + dayOffset
        let ymd = CivilTime.date(daysSinceEpoch: days)
        return CivilTime(year: ymd.year, month: ymd.month, day: ymd.day).startOfDay(in: timeZone)
    }

    /// Unix seconds or milliseconds; see the type's summary for the threshold.
    public static let millisecondThreshold = 1e11

    static func unixTimestamp(_ bytes: [UInt8]) -> Date? {
        var i = 0
        if bytes.first == UInt8(ascii: "-") { i = 1 }
        var digits = 0
        while i < bytes.count, NumberText.isDigit(bytes[i]) {
            i += 1
            digits += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, NumberText.isDigit(bytes[i]) { i += 1 }
        }
        guard digits > 0, i == bytes.count, digits <= 16,
            let value = Double(String(decoding: bytes, as: UTF8.self))
        else { return nil }
        let seconds = Swift.abs(value) >= millisecondThreshold ? value / 1000 : value
        guard seconds >= CivilTime.earliestSeconds, seconds <= CivilTime.latestSeconds else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// A cursor over ASCII bytes for the fixed date grammars.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ ascii: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: ascii) else { return false }
            index += 1
            return true
        }

        /// An unsigned number of `minDigits...maxDigits` digits.
        mutating func number(minDigits: Int, maxDigits: Int) -> Int? {
            var value = 0
            var count = 0
            while index < bytes.count, count < maxDigits, NumberText.isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] &- 48)
                index += 1
                count += 1
            }
            return count >= minDigits ? value : nil
        }

        mutating func dateTime(timeZone: TimeZone) -> Date? {
            guard let year = number(minDigits: 4, maxDigits: 4), year >= 1 else { return nil }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "/")
            else { return nil }
            let separator = bytes[index]
            index += 1
            guard let month = number(minDigits: 1, maxDigits: 2), (1...12).contains(month),
                index < bytes.count, bytes[index] == separator
            else { return nil }
            index += 1
            guard let day = number(minDigits: 1, maxDigits: 2),
                (1...CivilTime.daysInMonth(year: year, month: month)).contains(day)
            else { return nil }
            var civil = CivilTime(year: year, month: month, day: day)
            if atEnd { return civil.instant(in: timeZone) }
            guard take("T") || take("t") || take(" ") else { return nil }
            guard let (hour, minute) = hourMinute() else { return nil }
            civil.hour = hour
            civil.minute = minute
            var fraction = 0.0
            if take(":") {
                guard let second = number(minDigits: 2, maxDigits: 2), second <= 59 else { return nil }
                civil.second = second
                if take(".") || take(",") {
                    let fractionStart = index
                    while index < bytes.count, NumberText.isDigit(bytes[index]) { index += 1 }
                    guard index > fractionStart, index - fractionStart <= 9 else { return nil }
                    fraction =
                        Double(String(decoding: bytes[fractionStart..<index], as: UTF8.self))
                        .map { $0 / pow(10, Double(index - fractionStart)) } ?? 0
                }
            }
            let instant: Date
            if atEnd {
                instant = civil.instant(in: timeZone)
            } else if take("Z") || take("z") {
                guard atEnd else { return nil }
                instant = Date(timeIntervalSince1970: Double(civil.localSeconds))
            } else {
                guard let offsetSeconds = utcOffset(), atEnd else { return nil }
                instant = Date(timeIntervalSince1970: Double(civil.localSeconds - offsetSeconds))
            }
            let seconds = instant.timeIntervalSince1970 + fraction
            guard seconds >= CivilTime.earliestSeconds, seconds <= CivilTime.latestSeconds else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }

        mutating func hourMinute() -> (Int, Int)? {
            guard let hour = number(minDigits: 1, maxDigits: 2), hour <= 23, take(":"),
                let minute = number(minDigits: 2, maxDigits: 2), minute <= 59
            else { return nil }
            return (hour, minute)
        }

        mutating func hourMinuteOnly() -> (Int, Int)? {
            guard let result = hourMinute(), atEnd else { return nil }
            return result
        }

        /// `+HH:mm`, `+HHmm` or `+HH` (also `-`), up to ±18 hours.
        mutating func utcOffset() -> Int? {
            let sign: Int
            if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
            guard let hours = number(minDigits: 2, maxDigits: 2), hours <= 18 else { return nil }
            var minutes = 0
            if take(":") {
                guard let m = number(minDigits: 2, maxDigits: 2), m <= 59 else { return nil }
                minutes = m
            } else if !atEnd {
                guard let m = number(minDigits: 2, maxDigits: 2), m <= 59 else { return nil }
                minutes = m
            }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}

extension DateParsing {
    /// An ISO 8601 date-time for pinning the render clock (`--now`): `2026-01-24T09:30:00Z`,
    /// with optional fractional seconds and offset; without an offset the time is local to
    /// `timeZone`. A date alone means local midnight.
    public static func parseISO8601<S: StringProtocol>(_ text: S, timeZone: TimeZone) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 64 else { return nil }
        var scanner = Scanner(bytes: bytes)
        return scanner.dateTime(timeZone: timeZone)
    }
}
