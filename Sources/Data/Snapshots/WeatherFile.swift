import BoundedJSON
import Foundation
import SharedStore

/// `snapshots/weather.json`: the saved location, the last good snapshot and the refresh record,
/// as `weaver weather refresh` (DataSources) writes it; the `__weather_*` keys (Variables) and
/// the Weather and Forecast templates (WidgetRender) read it field by field, tolerantly, through
/// `WeatherFile.read` (WeatherReading.swift) and the series readers below, and judge its age with
/// `WeatherFreshness`.
/// `location` and `snapshot` use the field names the variables engine reads (docs/variables.md, "Built-in
/// keys"); everything else is extra for the weather template (chart series, hourly, daily,
/// "Update failed", attribution) and ignored by the engine.
public struct WeatherFile: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public struct Location: Codable, Sendable, Equatable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var updatedAt: Date
        public var timeZone: String?
        public var country: String?
        public var admin1: String?

        public init(
            name: String, latitude: Double, longitude: Double, updatedAt: Date, timeZone: String? = nil,
            country: String? = nil, admin1: String? = nil
        ) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.updatedAt = updatedAt
            self.timeZone = timeZone
            self.country = country
            self.admin1 = admin1
        }
    }

    public struct Hour: Codable, Sendable, Hashable {
        public var time: Date
        public var temperatureC: Double?
        public var precipitationChance: Double?
        public var precipitationMM: Double?
        public var condition: String?
        public var symbol: String?

        public init(
            time: Date, temperatureC: Double? = nil, precipitationChance: Double? = nil,
            precipitationMM: Double? = nil, condition: String? = nil, symbol: String? = nil
        ) {
            self.time = time
            self.temperatureC = temperatureC
            self.precipitationChance = precipitationChance
            self.precipitationMM = precipitationMM
            self.condition = condition
            self.symbol = symbol
        }
    }

    public struct Day: Codable, Sendable, Hashable {
        /// `yyyy-MM-dd` at the place.
        public var date: String
        public var highC: Double?
        public var lowC: Double?
        public var precipitationChance: Double?
        public var condition: String?
        public var symbol: String?

        public init(
            date: String, highC: Double? = nil, lowC: Double? = nil, precipitationChance: Double? = nil,
            condition: String? = nil, symbol: String? = nil
        ) {
            self.date = date
            self.highC = highC
            self.lowC = lowC
            self.precipitationChance = precipitationChance
            self.condition = condition
            self.symbol = symbol
        }
    }

    /// One-minute bins from `startsAt` as far as the 15-minute series reaches (up to 4 hours): the
    /// chart's input (intensity × chance per minute). A render 20 minutes after the fetch takes
    /// bins 20…79 and can word the nowcast again at its own clock with `Nowcast`'s rules.
    public struct Minutes: Codable, Sendable, Hashable {
        public var startsAt: Date
        public var intensityMMh: [Double]
        public var chance: [Double]

        public init(startsAt: Date, intensityMMh: [Double], chance: [Double]) {
            self.startsAt = startsAt
            self.intensityMMh = intensityMMh
            self.chance = chance
        }
    }

    public struct Snapshot: Codable, Sendable, Equatable {
        public var fetchedAt: Date
        /// The model time of the current conditions (Open-Meteo's `current.time`).
        public var observedAt: Date
        public var condition: String
        public var symbol: String
        public var weatherCode: Int
        public var isDaylight: Bool?
        public var temperatureC: Double
        public var apparentTemperatureC: Double?
        public var highC: Double?
        public var lowC: Double?
        public var precipitationChance: Double?
        public var humidity: Double?
        public var nowcast: String
        public var nowcastSecondary: String?
        public var rainStartMinutes: Int?
        public var rainEndMinutes: Int?
        public var rainPeakIntensityMMh: Double
        public var rainPeakChance: Double
        public var minutes: Minutes?
        public var hourly: [Hour]
        public var daily: [Day]
        /// Every hourly temperature of the forecast days (not only the next 24 hours that
        /// `hourly` keeps): the Forecast template's curve across each day. Absent in older files.
        public var temperatures: [HourTemperature]? = nil

        public init(
            fetchedAt: Date, observedAt: Date, condition: String, symbol: String, weatherCode: Int,
            isDaylight: Bool? = nil, temperatureC: Double, apparentTemperatureC: Double? = nil,
            highC: Double? = nil, lowC: Double? = nil, precipitationChance: Double? = nil,
            humidity: Double? = nil, nowcast: String, nowcastSecondary: String? = nil,
            rainStartMinutes: Int? = nil, rainEndMinutes: Int? = nil, rainPeakIntensityMMh: Double,
            rainPeakChance: Double, minutes: Minutes? = nil, hourly: [Hour], daily: [Day],
            temperatures: [HourTemperature]? = nil
        ) {
            self.fetchedAt = fetchedAt
            self.observedAt = observedAt
            self.condition = condition
            self.symbol = symbol
            self.weatherCode = weatherCode
            self.isDaylight = isDaylight
            self.temperatureC = temperatureC
            self.apparentTemperatureC = apparentTemperatureC
            self.highC = highC
            self.lowC = lowC
            self.precipitationChance = precipitationChance
            self.humidity = humidity
            self.nowcast = nowcast
            self.nowcastSecondary = nowcastSecondary
            self.rainStartMinutes = rainStartMinutes
            self.rainEndMinutes = rainEndMinutes
            self.rainPeakIntensityMMh = rainPeakIntensityMMh
            self.rainPeakChance = rainPeakChance
            self.minutes = minutes
            self.hourly = hourly
            self.daily = daily
            self.temperatures = temperatures
        }
    }

    public struct HourTemperature: Codable, Sendable, Hashable {
        public var time: Date
        public var temperatureC: Double

        public init(time: Date, temperatureC: Double) {
            self.time = time
            self.temperatureC = temperatureC
        }
    }

    public struct Refresh: Codable, Sendable, Equatable {
        public var lastAttemptAt: Date?
        public var lastSuccessAt: Date?
        /// nil when the last attempt succeeded.
        public var lastError: String?

        public init() {}
    }

    public struct Attribution: Codable, Sendable, Equatable {
        public var name = "Open-Meteo"
        public var url = "https://open-meteo.com/"
        public var licence = "CC BY 4.0"

        public init() {}
    }

    public var schemaVersion = WeatherFile.currentSchemaVersion
    public var location: Location?
    public var snapshot: Snapshot?
    public var refresh = Refresh()
    public var attribution = Attribution()

    public init() {}

    public static func url(in root: StoreRoot) -> URL { SnapshotFile.weather.url(in: root) }

    public static func document(_ root: StoreRoot) -> JSONDocument<WeatherFile> {
        JSONDocument(root: root, url: url(in: root), sizeLimit: 1 << 20)
    }
}

/// Reading the forecast series back, tolerantly, for the Weather and Forecast templates: one rule
/// for both (they used to differ: the Forecast template bounded numbers and clamped chances, the
/// Weather template took any finite number).
extension WeatherFile {
    /// A finite number within what a temperature, chance or coordinate can be (|x| < 1000);
    /// anything else in a hand-edited or hostile file reads as missing.
    public static func plausible(_ value: JSONValue?) -> Double? {
        guard let d = value?.finiteNumber, abs(d) < 1_000 else { return nil }
        return d
    }

    /// A plausible chance, clamped to 0…1.
    static func chance(_ value: JSONValue?) -> Double? { plausible(value).map { min(max($0, 0), 1) } }
}

extension WeatherFile.Day {
    /// A `daily` entry; nil without a `yyyy-MM-dd` date.
    public init?(reading json: JSONValue) {
        guard let date = json["date"]?.stringValue, date.utf8.count == 10 else { return nil }
        self.init(
            date: date, highC: WeatherFile.plausible(json["highC"]), lowC: WeatherFile.plausible(json["lowC"]),
            precipitationChance: WeatherFile.chance(json["precipitationChance"]),
            condition: json["condition"]?.stringValue, symbol: json["symbol"]?.stringValue)
    }
}

extension WeatherFile.Hour {
    /// An `hourly` entry; nil without a time.
    public init?(reading json: JSONValue) {
        guard let time = json["time"]?.dateValue else { return nil }
        self.init(
            time: time, temperatureC: WeatherFile.plausible(json["temperatureC"]),
            precipitationChance: WeatherFile.chance(json["precipitationChance"]),
            precipitationMM: WeatherFile.plausible(json["precipitationMM"]),
            condition: json["condition"]?.stringValue, symbol: json["symbol"]?.stringValue)
    }
}

extension WeatherFile.HourTemperature {
    /// A `temperatures` (or, in older files, `hourly`) entry; nil without a time and a temperature.
    public init?(reading json: JSONValue) {
        guard let time = json["time"]?.dateValue, let t = WeatherFile.plausible(json["temperatureC"]) else {
            return nil
        }
        self.init(time: time, temperatureC: t)
    }
}
