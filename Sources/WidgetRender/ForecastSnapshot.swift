import Foundation
import SharedStore
import Snapshots

/// What the Forecast template reads from `snapshots/weather.json`: the place, the last good
/// fetch, the current conditions, the daily summaries and the hourly temperatures (the
/// `temperatures` series, or the next-24-hours `hourly` of older files). Untrusted: bounded
/// counts, every field optional, bad entries skipped.
public struct ForecastSnapshot: Sendable, Hashable {
    /// A day's summary (the snapshot's own type); `precipitationChance` is 0…1.
    public typealias Day = WeatherFile.Day
    /// One hourly temperature (the snapshot's own type).
    public typealias Hour = WeatherFile.HourTemperature

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

/// The renderer's name for the one rule on how old weather may be shown (Snapshots' `WeatherFreshness`).
public typealias ForecastFreshness = WeatherFreshness
