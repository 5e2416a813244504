import Foundation
import SharedStore
import Snapshots
import WidgetRender

/// The Weather and Forecast templates' values read from `snapshots/weather.json` (through
/// `WeatherFile.read`, the one reading the `__weather_*` keys share).
extension WeatherState {
    /// The place, the refresh record and the current conditions as `WeatherFile.read` takes them
    /// (as the `__weather_*` keys and the Forecast template do), with the forecast series.
    public static func load(from root: StoreRoot) -> WeatherState? {
        guard let reading = WeatherFile.read(from: root) else { return nil }
        var w = WeatherState()
        w.location = reading.place?.name
        w.refreshFailed = reading.refreshFailed
        guard let s = reading.snapshot, let now = reading.current else { return w.location == nil ? nil : w }
        w.current = now
        w.hourly = (s["hourly"]?.arrayValue ?? []).prefix(48).compactMap(Hour.init(reading:))
        w.daily = (s["daily"]?.arrayValue ?? []).prefix(16).compactMap(Day.init(reading:))
        return w
    }
}

extension ForecastSnapshot {
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
