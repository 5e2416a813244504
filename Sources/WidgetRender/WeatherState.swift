import Foundation
import SharedStore
import Snapshots
import Variables

/// Weather as the Weather template needs it, read from `snapshots/weather.json` (the variables
/// engine reads the same file as keys). The nowcast fields are those of the fetch until
/// `at(_:)` words them again from the minute bins at the render's clock.
public struct WeatherState: Sendable, Hashable {
    /// An hour of the forecast (the snapshot's own type; the template reads time, temperature,
    /// chance and symbol).
    public typealias Hour = WeatherFile.Hour
    /// A day of the forecast (the snapshot's own type).
    public typealias Day = WeatherFile.Day

    /// How long a snapshot counts as current: older data is drawn greyed, "Weather data is old".
    public static let validitySeconds: TimeInterval = WeatherFreshness.currentHiddenAfterSeconds

    public var location: String?
    public var condition: String?
    public var symbol: String?
    public var temperatureC: Double?
    public var highC: Double?
    public var lowC: Double?
    public var nowcast: String?
    public var nowcastSecondary: String?
    public var rainStartMinutes: Double?
    public var rainEndMinutes: Double?
    public var rainPeakIntensityMMPerHour: Double?
    public var rainPeakChance: Double?
    public var fetchedAt: Date?
    /// The one-minute bins the nowcast and its chart are worked out from at the render's clock.
    public var minutes: WeatherFile.Minutes?
    /// The chart's 0–60 minute window at the render's clock (set by `at(_:)`): bin 0 is now.
    public var window: [Nowcast.Minute]?
    /// The clock time of the window's first minute.
    public var windowStartsAt: Date?
    public var hourly: [Hour] = []
    public var daily: [Day] = []
    /// The last refresh failed (`refresh.lastError`); the data is that of `fetchedAt`.
    public var refreshFailed = false
    public init() {}

    /// The nowcast (headline, secondary, rain start/end/peak and the chart's window) worded from
    /// the bins at `now`; past the last bin "Next-hour rain unavailable" and an empty window.
    /// Without bins (an older snapshot) the fetch's words stay.
    public func at(_ now: Date) -> WeatherState {
        guard let bins = minutes else { return self }
        var w = self
        let (n, binZero) = bins.nowcast(at: now)
        w.windowStartsAt = binZero
        w.nowcast = n.primary
        w.nowcastSecondary = n.secondary
        w.rainStartMinutes = n.rainStartMinutes.map(Double.init)
        w.rainEndMinutes = n.rainEndMinutes.map(Double.init)
        w.rainPeakIntensityMMPerHour = n.peakIntensityMMh
        w.rainPeakChance = n.peakChance
        w.window = Array(n.minutes.prefix(60))
        return w
    }

    /// No longer fresh at `now` (`WeatherFreshness`); a state without a fetch time is not old.
    public func isOld(at now: Date) -> Bool {
        guard let fetchedAt else { return false }
        return WeatherFreshness.at(now, fetchedAt: fetchedAt) != .fresh
    }

    public static func load(from root: StoreRoot) -> WeatherState? {
        guard let json = SnapshotReader.load(.weather, in: root) else { return nil }
        var w = WeatherState()
        w.location = json["location"]?["name"]?.stringValue
        if let failure = json["refresh"]?["lastError"], case .string = failure { w.refreshFailed = true }
        guard let s = json["snapshot"], case .object = s else { return w.location == nil ? nil : w }
        let number = { (v: JSONValue) in v.finiteNumber }
        w.condition = s["condition"]?.stringValue
        w.symbol = s["symbol"]?.stringValue
        w.temperatureC = s["temperatureC"].flatMap(number)
        w.highC = s["highC"].flatMap(number)
        w.lowC = s["lowC"].flatMap(number)
        w.nowcast = s["nowcast"]?.stringValue
        w.nowcastSecondary = s["nowcastSecondary"]?.stringValue
        w.rainStartMinutes = s["rainStartMinutes"].flatMap(number)
        w.rainEndMinutes = s["rainEndMinutes"].flatMap(number)
        w.rainPeakIntensityMMPerHour = s["rainPeakIntensityMMh"].flatMap(number)
        w.rainPeakChance = s["rainPeakChance"].flatMap(number)
        w.fetchedAt = s["fetchedAt"]?.dateValue
        // A day of bins at most (the data sources write four hours); a bad value reads as 0.
        w.minutes = s["minutes"]?.objectValue.flatMap(WeatherSnapshotProvider.MinuteBins.init)
        if case .array(let hours)? = s["hourly"] {
            w.hourly = hours.prefix(48).compactMap { h in
                h["time"]?.dateValue.map {
                    Hour(time: $0, temperatureC: h["temperatureC"].flatMap(number),
                         precipitationChance: h["precipitationChance"].flatMap(number), symbol: h["symbol"]?.stringValue)
                }
            }
        }
        if case .array(let days)? = s["daily"] {
            w.daily = days.prefix(16).compactMap { d in
                d["date"]?.stringValue.map {
                    Day(date: $0, highC: d["highC"].flatMap(number), lowC: d["lowC"].flatMap(number),
                        precipitationChance: d["precipitationChance"].flatMap(number), symbol: d["symbol"]?.stringValue)
                }
            }
        }
        return w
    }

    public var hasForecast: Bool { temperatureC != nil || condition != nil || nowcast != nil }
}
