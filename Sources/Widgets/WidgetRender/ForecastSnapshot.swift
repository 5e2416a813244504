import Foundation
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

    /// At most this many days and hours are kept from a snapshot (untrusted: bounded counts).
    package static let maximumDays = 16
    package static let maximumHours = 24 * 16
}

/// The renderer's name for the one rule on how old weather may be shown (Snapshots' `WeatherFreshness`).
public typealias ForecastFreshness = WeatherFreshness
