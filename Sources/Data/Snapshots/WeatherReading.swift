import BoundedJSON
import Foundation
import SharedStore

/// `weather.json`'s saved place, current conditions and refresh record as their readers take
/// them: the `__weather_*` keys (Variables) and the Weather and Forecast templates (WidgetRender)
/// read them here, once, so they agree. Tolerant like every snapshot reader: each field optional,
/// a mistyped one reads as missing; temperatures and coordinates follow the series' rule
/// (`plausible`, |x| < 1000).
extension WeatherFile {
    /// The saved place (`location`), every field optional.
    public struct Place: Sendable, Hashable {
        public var name: String?
        public var latitude: Double?
        public var longitude: Double?
        public var updatedAt: Date?
        /// The place's IANA zone (at most 64 bytes): daily dates are the place's.
        public var timeZone: String?

        public init(
            name: String? = nil, latitude: Double? = nil, longitude: Double? = nil, updatedAt: Date? = nil,
            timeZone: String? = nil
        ) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.updatedAt = updatedAt
            self.timeZone = timeZone
        }
    }

    /// The current conditions and nowcast of the last good fetch (`snapshot`), every field
    /// optional: a file's snapshot read field by field, or sample data and tests naming the
    /// fields they have. Each field is named as `Snapshot`'s, which is the file's key.
    public struct Current: Sendable, Hashable {
        public var fetchedAt: Date?
        public var condition: String?
        public var symbol: String?
        public var temperatureC: Double?
        public var apparentTemperatureC: Double?
        public var highC: Double?
        public var lowC: Double?
        public var precipitationChance: Double?
        public var humidity: Double?
        public var nowcast: String?
        public var nowcastSecondary: String?
        public var rainStartMinutes: Double?
        public var rainEndMinutes: Double?
        public var rainPeakIntensityMMh: Double?
        public var rainPeakChance: Double?
        /// The one-minute bins (`snapshot.minutes`): when present, the nowcast is worded from them
        /// at the render's clock, not taken from the fetch.
        public var minutes: Minutes?

        public init(
            fetchedAt: Date? = nil, condition: String? = nil, symbol: String? = nil, temperatureC: Double? = nil,
            apparentTemperatureC: Double? = nil, highC: Double? = nil, lowC: Double? = nil,
            precipitationChance: Double? = nil, humidity: Double? = nil, nowcast: String? = nil,
            nowcastSecondary: String? = nil, rainStartMinutes: Double? = nil, rainEndMinutes: Double? = nil,
            rainPeakIntensityMMh: Double? = nil, rainPeakChance: Double? = nil, minutes: Minutes? = nil
        ) {
            (self.fetchedAt, self.condition, self.symbol) = (fetchedAt, condition, symbol)
            (self.temperatureC, self.apparentTemperatureC) = (temperatureC, apparentTemperatureC)
            (self.highC, self.lowC) = (highC, lowC)
            (self.precipitationChance, self.humidity) = (precipitationChance, humidity)
            (self.nowcast, self.nowcastSecondary) = (nowcast, nowcastSecondary)
            (self.rainStartMinutes, self.rainEndMinutes) = (rainStartMinutes, rainEndMinutes)
            (self.rainPeakIntensityMMh, self.rainPeakChance) = (rainPeakIntensityMMh, rainPeakChance)
            self.minutes = minutes
        }
    }

    /// The file as its readers take it.
    public struct Reading: Sendable {
        /// nil unless `location` is an object.
        public var place: Place?
        /// nil unless `snapshot` is an object.
        public var current: Current?
        /// `snapshot` as it is (any JSON), for the readers of its series (`Day`, `Hour`,
        /// `HourTemperature` `init(reading:)`); nil when the file has none.
        public var snapshot: JSONValue?
        /// The last refresh failed (`refresh.lastError` is a message).
        public var refreshFailed = false
    }

    /// Reads `snapshots/weather.json`; nil when it is absent or not a JSON object.
    public static func read(from root: StoreRoot) -> Reading? {
        SnapshotReader.load(.weather, in: root).map(read(json:))
    }

    /// Reads a `weather.json` object (`read(from:)` without the file).
    public static func read(json: JSONValue) -> Reading {
        var reading = Reading()
        reading.place = json["location"]?.objectValue.map { place in
            Place(
                name: place["name"]?.stringValue, latitude: plausible(place["latitude"]),
                longitude: plausible(place["longitude"]), updatedAt: place["updatedAt"]?.dateValue,
                timeZone: place["timeZone"]?.stringValue.flatMap { $0.utf8.count <= 64 ? $0 : nil })
        }
        reading.snapshot = json["snapshot"]
        reading.current = json["snapshot"]?.objectValue.map { s in
            let number = { (key: String) in s[key]?.finiteNumber }
            return Current(
                fetchedAt: s["fetchedAt"]?.dateValue, condition: s["condition"]?.stringValue,
                symbol: s["symbol"]?.stringValue, temperatureC: plausible(s["temperatureC"]),
                apparentTemperatureC: plausible(s["apparentTemperatureC"]), highC: plausible(s["highC"]),
                lowC: plausible(s["lowC"]), precipitationChance: number("precipitationChance"),
                humidity: number("humidity"), nowcast: s["nowcast"]?.stringValue,
                nowcastSecondary: s["nowcastSecondary"]?.stringValue, rainStartMinutes: number("rainStartMinutes"),
                rainEndMinutes: number("rainEndMinutes"), rainPeakIntensityMMh: number("rainPeakIntensityMMh"),
                rainPeakChance: number("rainPeakChance"), minutes: s["minutes"]?.objectValue.flatMap(Minutes.init))
        }
        if let failure = json["refresh"]?["lastError"], case .string = failure { reading.refreshFailed = true }
        return reading
    }
}

extension WeatherFile.Minutes {
    /// At most a day of bins is read (the data sources write four hours).
    public static let maximumCount = 1440

    /// Reads `snapshot.minutes`; nil without a start or either series. A bad value reads as 0.
    public init?(_ json: JSONValue) {
        guard let startsAt = json["startsAt"]?.dateValue,
            let intensity = json["intensityMMh"]?.arrayValue, let chance = json["chance"]?.arrayValue
        else { return nil }
        func numbers(_ list: [JSONValue]) -> [Double] { list.prefix(Self.maximumCount).map { $0.finiteNumber ?? 0 } }
        self.init(startsAt: startsAt, intensityMMh: numbers(intensity), chance: numbers(chance))
    }
}
