import Foundation
import Snapshots
import WidgetDataKeys

/// Weather as the Weather template needs it, read from `snapshots/weather.json` (the variables
/// engine reads the same file as keys). The current conditions are the `__weather_*` keys' own
/// reading of the file's `snapshot` (`WeatherFile.Current` through `WeatherFile.read`, reached as
/// `state.temperatureC` …) rather than a copy of its fields; its nowcast fields are those of the
/// fetch until `at(_:)` words them again from the minute bins at the render's clock.
@dynamicMemberLookup
public struct WeatherState: Sendable, Hashable {
    /// An hour of the forecast (the snapshot's own type; the template reads time, temperature,
    /// chance and symbol).
    public typealias Hour = WeatherFile.Hour
    /// A day of the forecast (the snapshot's own type).
    public typealias Day = WeatherFile.Day
    /// The current conditions, nowcast and minute bins (every field optional).
    public typealias Current = WeatherSnapshotProvider.Snapshot

    /// How long a snapshot counts as current: older data is drawn greyed, "Weather data is old".
    public static let validitySeconds: TimeInterval = WeatherFreshness.currentHiddenAfterSeconds

    public var location: String?
    /// `snapshot` as the variables engine reads it; its fields read and written through the state.
    public var current: Current = WeatherSnapshotProvider.noSnapshot

    public subscript<Value>(dynamicMember field: WritableKeyPath<Current, Value>) -> Value {
        get { current[keyPath: field] }
        set { current[keyPath: field] = newValue }
    }

    /// The chart's 0–60 minute window at the render's clock (set by `at(_:)`): bin 0 is now.
    public var window: [Nowcast.Minute]?
    /// The clock time of the window's first minute.
    public var windowStartsAt: Date?
    public var hourly: [Hour] = []
    public var daily: [Day] = []
    /// The last refresh failed (`refresh.lastError`); the data is that of `fetchedAt`.
    public var refreshFailed = false
    public init() {}

    /// A place and its current conditions alone (no forecast series): what the editor's sample
    /// data, the renderer's tests and the benchmarks draw, each with its own values.
    public init(location: String?, current: Current) {
        self.location = location
        self.current = current
    }

    /// The nowcast (headline, secondary, rain start/end/peak and the chart's window) worded from
    /// the bins at `now`; past the last bin "Next-hour rain unavailable" and an empty window.
    /// Without bins (an older snapshot) the fetch's words stay.
    public func at(_ now: Date) -> WeatherState {
        guard let bins = current.minutes else { return self }
        var w = self
        let (n, binZero) = bins.nowcast(at: now)
        w.windowStartsAt = binZero
        w.current.nowcast = n.primary
        w.current.nowcastSecondary = n.secondary
        w.current.rainStartMinutes = n.rainStartMinutes.map(Double.init)
        w.current.rainEndMinutes = n.rainEndMinutes.map(Double.init)
        w.current.rainPeakIntensityMMh = n.peakIntensityMMh
        w.current.rainPeakChance = n.peakChance
        w.window = Array(n.minutes.prefix(60))
        return w
    }

    /// No longer fresh at `now` (`WeatherFreshness`); a state without a fetch time is not old.
    public func isOld(at now: Date) -> Bool {
        guard let fetchedAt = current.fetchedAt else { return false }
        return WeatherFreshness.at(now, fetchedAt: fetchedAt) != .fresh
    }

    public var hasForecast: Bool { current.temperatureC != nil || current.condition != nil || current.nowcast != nil }
}
