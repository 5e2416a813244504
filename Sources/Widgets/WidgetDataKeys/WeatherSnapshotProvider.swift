import CivilDates
import Foundation
import SharedStore
import Snapshots
import TemplateLanguage

/// `__weather_*` keys from `snapshots/weather.json` (schema in docs/variables.md, "Built-in keys").
///
/// Temperatures are whole degrees. `__weather_temp`, `__weather_feels`, `__weather_high` and
/// `__weather_low` use the render locale's unit (°F where the locale does not use the metric
/// system, as in `en_US`; °C elsewhere); the `_c`/`_f` keys are fixed. Chances and humidity are
/// whole percent, with `_fraction` keys for 0...1.
public struct WeatherSnapshotProvider: DictionaryKeySource {
    /// The saved place as `WeatherFile.read` takes it (every field optional).
    public typealias Location = WeatherFile.Place
    /// The current conditions as `WeatherFile.read` takes them (every field optional); the
    /// Weather template's `WeatherState` reads the same type.
    public typealias Snapshot = WeatherFile.Current

    /// A snapshot with no field read (a file with a location only; a test building one field by field).
    public static var noSnapshot: Snapshot { Snapshot() }

    /// `snapshot.minutes`: intensity (mm/h) and chance (0…1) per minute from `startsAt` (the
    /// snapshot's own type; the nowcast is worded from it below).
    public typealias MinuteBins = WeatherFile.Minutes

    public var location: Location?
    public var snapshot: Snapshot?
    let prefix = "__weather_"

    public init(location: Location?, snapshot: Snapshot?) {
        self.location = location
        self.snapshot = snapshot
    }

    public static func load(from root: StoreRoot) -> WeatherSnapshotProvider? {
        WeatherFile.read(from: root).flatMap(Self.init(reading:))
    }

    /// `weather.json`'s place and current conditions as `WeatherFile.read` takes them; nil when
    /// the file has neither a `location` nor a `snapshot` object.
    public init?(reading: WeatherFile.Reading) {
        guard reading.place != nil || reading.current != nil else { return nil }
        self.init(location: reading.place, snapshot: reading.current)
    }

    static func whole(_ x: Double) -> String { NumberText.canonical(x.rounded(.toNearestOrAwayFromZero)) }
    static func fahrenheit(_ celsius: Double) -> Double { celsius * 9 / 5 + 32 }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var v: [String: String] = [:]
        guard let s = snapshot else {
            // No forecast yet: the minimal set from the saved location.
            guard let location else { return v }
            if let name = location.name { v["__weather_location"] = name }
            if let lat = location.latitude { v["__weather_lat"] = NumberText.canonical(lat) }
            if let lon = location.longitude { v["__weather_lon"] = NumberText.canonical(lon) }
            if let at = location.updatedAt {
                v["__weather_updated_iso"] = CivilTime.isoUTC(at, fractionalSeconds: false)
            }
            return v
        }
        let usesFahrenheit = !context.locale.usesMetricSystem
        func temperature(_ name: String, _ celsius: Double?, withUnits: Bool) {
            guard let c = celsius else { return }
            v["__weather_\(name)"] = Self.whole(usesFahrenheit ? Self.fahrenheit(c) : c)
            if withUnits {
                v["__weather_\(name)_c"] = Self.whole(c)
                v["__weather_\(name)_f"] = Self.whole(Self.fahrenheit(c))
            }
        }
        func chance(_ name: String, _ fraction: Double?) {
            guard let f = fraction else { return }
            v["__weather_\(name)"] = Self.whole(f * 100)
            v["__weather_\(name)_fraction"] = NumberText.canonical(f)
        }
        if let name = location?.name { v["__weather_location"] = name }
        v["__weather_condition"] = s.condition ?? ""
        v["__weather_symbol"] = s.symbol ?? ""
        if let at = s.fetchedAt { v["__weather_updated_iso"] = CivilTime.isoUTC(at, fractionalSeconds: false) }
        temperature("temp", s.temperatureC, withUnits: true)
        temperature("feels", s.apparentTemperatureC, withUnits: true)
        temperature("high", s.highC, withUnits: false)
        temperature("low", s.lowC, withUnits: false)
        chance("precip", s.precipitationChance)
        chance("humidity", s.humidity)
        // The nowcast at the render's clock when the bins are there; the fetch's words otherwise.
        var now = s
        var binZero = s.fetchedAt
        if let bins = s.minutes {
            let (n, zero) = bins.nowcast(at: context.now)
            now.nowcast = n.primary
            now.nowcastSecondary = n.secondary
            now.rainStartMinutes = n.rainStartMinutes.map(Double.init)
            now.rainEndMinutes = n.rainEndMinutes.map(Double.init)
            now.rainPeakIntensityMMh = n.peakIntensityMMh
            now.rainPeakChance = n.peakChance
            binZero = zero
        }
        v["__weather_nowcast"] = now.nowcast ?? ""
        if let text = now.nowcastSecondary { v["__weather_nowcast_secondary"] = text }
        if let start = now.rainStartMinutes {
            v["__weather_rain_start_min"] = Self.whole(start)
            if let at = binZero {
                let startsAt = at.addingTimeInterval(start.rounded() * 60)
                v["__weather_rain_start"] = CivilTime.local(startsAt, in: context.timeZone).hourMinute
            }
        }
        if let end = now.rainEndMinutes { v["__weather_rain_end_min"] = Self.whole(end) }
        v["__weather_rain_peak_intensity_mmh"] = NumberText.canonical(now.rainPeakIntensityMMh ?? 0)
        chance("rain_peak_chance", now.rainPeakChance ?? 0)
        return v
    }
}

extension WeatherFile.Minutes {
    /// The nowcast at `now` and the clock time of its bin 0 (whole minutes after `startsAt`).
    public func nowcast(at now: Date) -> (Nowcast, binZero: Date) {
        let offset = max(0, (now.timeIntervalSince(startsAt) / 60).rounded(.down))
        return (
            Nowcast(startsAt: startsAt, intensityMMh: intensityMMh, chance: chance, at: now),
            startsAt.addingTimeInterval(offset * 60)
        )
    }
}
