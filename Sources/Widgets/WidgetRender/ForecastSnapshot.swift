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

    public init(
        location: String? = nil, timeZone: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        fetchedAt: Date? = nil,
        temperatureC: Double? = nil, condition: String? = nil, symbol: String? = nil, days: [Day] = [],
        hours: [Hour] = []
    ) {
        self.location = location
        self.timeZone = timeZone
        self.latitude = latitude
        self.longitude = longitude
        self.fetchedAt = fetchedAt
        self.temperatureC = temperatureC
        self.condition = condition
        self.symbol = symbol
        self.days = days
        self.hours = hours
    }

    static let maximumDays = 16
    static let maximumHours = 24 * 16

    /// The place and current conditions as `WeatherFile.read` takes them (as the `__weather_*`
    /// keys and the Weather template do), with the daily and hourly series.
    public static func load(from root: StoreRoot) -> ForecastSnapshot? {
        guard let reading = WeatherFile.read(from: root) else { return nil }
        var f = ForecastSnapshot()
        if let place = reading.place {
            f.location = place.name
            f.timeZone = place.timeZone
            f.latitude = place.latitude
            f.longitude = place.longitude
        }
        guard let s = reading.snapshot else { return f.location == nil ? nil : f }
        let current = reading.current ?? WeatherFile.Current()
        f.fetchedAt = current.fetchedAt
        f.temperatureC = current.temperatureC
        f.condition = current.condition
        f.symbol = current.symbol
        f.days = (s["daily"]?.arrayValue ?? []).prefix(maximumDays).compactMap(Day.init(reading:))
        let series = s["temperatures"] ?? s["hourly"]
        f.hours = (series?.arrayValue ?? []).prefix(maximumHours).compactMap(Hour.init(reading:))
        return f
    }
}

/// The renderer's name for the one rule on how old weather may be shown (Snapshots' `WeatherFreshness`).
public typealias ForecastFreshness = WeatherFreshness
