import Foundation
import SharedStore
import Snapshots

/// What the Forecast template reads from `snapshots/weather.json`: the place, the last good
/// fetch, the current conditions, the daily summaries and the hourly temperatures (the
/// `temperatures` series, or the next-24-hours `hourly` of older files). Untrusted: bounded
/// counts, every field optional, bad entries skipped.
public struct ForecastSnapshot: Sendable, Hashable {
    public struct Day: Sendable, Hashable {
        /// `yyyy-MM-dd` at the place.
        public var date: String
        public var highC: Double?
        public var lowC: Double?
        /// 0…1.
        public var precipitationChance: Double?
        public var condition: String?
        public var symbol: String?
        public init(date: String, highC: Double? = nil, lowC: Double? = nil, precipitationChance: Double? = nil,
                    condition: String? = nil, symbol: String? = nil) {
            self.date = date; self.highC = highC; self.lowC = lowC
            self.precipitationChance = precipitationChance; self.condition = condition; self.symbol = symbol
        }
    }

    public struct Hour: Sendable, Hashable {
        public var time: Date
        public var temperatureC: Double
        public init(time: Date, temperatureC: Double) { self.time = time; self.temperatureC = temperatureC }
    }

    public var location: String?
    /// The place's IANA zone: daily dates are the place's, so its days are grouped in it.
    public var timeZone: String?
    public var latitude: Double?
    public var longitude: Double?
    /// The last good fetch: what the stale rules count from.
    public var fetchedAt: Date?
    public var temperatureC: Double?
    public var condition: String?
    public var symbol: String?
    public var days: [Day]
    public var hours: [Hour]

    public init(location: String? = nil, timeZone: String? = nil, latitude: Double? = nil, longitude: Double? = nil, fetchedAt: Date? = nil,
                temperatureC: Double? = nil, condition: String? = nil, symbol: String? = nil, days: [Day] = [], hours: [Hour] = []) {
        self.location = location; self.timeZone = timeZone; self.latitude = latitude; self.longitude = longitude; self.fetchedAt = fetchedAt
        self.temperatureC = temperatureC; self.condition = condition; self.symbol = symbol; self.days = days; self.hours = hours
    }

    static let maximumDays = 16
    static let maximumHours = 24 * 16

    public static func load(from root: StoreRoot) -> ForecastSnapshot? {
        guard let json = SnapshotReader.load(.weather, in: root) else { return nil }
        var f = ForecastSnapshot()
        if let loc = json["location"] {
            f.location = loc["name"]?.stringValue
            f.timeZone = loc["timeZone"]?.stringValue.flatMap { $0.utf8.count <= 64 ? $0 : nil }
            f.latitude = loc["latitude"].flatMap(number)
            f.longitude = loc["longitude"].flatMap(number)
        }
        guard let s = json["snapshot"] else { return f.location == nil ? nil : f }
        f.fetchedAt = s["fetchedAt"]?.dateValue
        f.temperatureC = s["temperatureC"].flatMap(number)
        f.condition = s["condition"]?.stringValue
        f.symbol = s["symbol"]?.stringValue
        if case .array(let items)? = s["daily"] {
            for item in items.prefix(maximumDays) {
                guard let date = item["date"]?.stringValue, date.utf8.count == 10 else { continue }
                f.days.append(Day(date: date, highC: item["highC"].flatMap(number), lowC: item["lowC"].flatMap(number),
                                  precipitationChance: item["precipitationChance"].flatMap(number).map { min(max($0, 0), 1) },
                                  condition: item["condition"]?.stringValue, symbol: item["symbol"]?.stringValue))
            }
        }
        let series: JSONValue? = s["temperatures"] ?? s["hourly"]
        if case .array(let items)? = series {
            for item in items.prefix(maximumHours) {
                guard let time = item["time"]?.dateValue, let t = item["temperatureC"].flatMap(number) else { continue }
                f.hours.append(Hour(time: time, temperatureC: t))
            }
        }
        return f
    }

    /// A finite number within what a temperature, chance or coordinate can be.
    static func number(_ v: JSONValue) -> Double? {
        guard case .number(let d) = v, d.isFinite, abs(d) < 1_000 else { return nil }
        return d
    }
}

/// How old forecast data may be shown (the seed's rules): the current temperature goes 3 hours
/// after the last good fetch, everything becomes unknown ("?") after 6.
public enum ForecastFreshness: Sendable, Hashable {
    case fresh, currentHidden, unknown

    public static let currentHiddenAfterSeconds: Double = 3 * 3600
    public static let unknownAfterSeconds: Double = 6 * 3600

    public static func at(_ now: Date, fetchedAt: Date?) -> ForecastFreshness {
        guard let fetchedAt else { return .unknown }
        let age = now.timeIntervalSince(fetchedAt)
        if age >= unknownAfterSeconds { return .unknown }
        if age >= currentHiddenAfterSeconds { return .currentHidden }
        return .fresh
    }
}
