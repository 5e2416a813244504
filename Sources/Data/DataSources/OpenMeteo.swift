import BoundedJSON
import Foundation

/// The two Open-Meteo endpoints we use, the exact fields we ask for, and strict decoding of the
/// answers. Docs: https://open-meteo.com/en/docs and https://open-meteo.com/en/docs/geocoding-api.
public struct OpenMeteo: Sendable {
    public static let forecastBase = URL(string: "https://api.open-meteo.com")!
    public static let geocodingBase = URL(string: "https://geocoding-api.open-meteo.com")!
    public static let environmentKey = "WIDGETWEAVER_OPEN_METEO_URL"

    /// Where `/v1/forecast` and `/v1/search` are asked. One override (`--base-url` or
    /// `$WIDGETWEAVER_OPEN_METEO_URL`) points both at the same server: tests, self-hosted Open-Meteo.
    public var forecastBase: URL
    public var geocodingBase: URL
    public var client: HTTPClient
    public var policy: HTTPPolicy

    /// Forecast answers are about 15 KB; geocoding answers about 3 KB.
    public static let forecastBodyLimit = 512 << 10
    public static let geocodingBodyLimit = 256 << 10

    public init(
        baseURL: URL? = nil, client: HTTPClient = HTTPClient(),
        policy: HTTPPolicy = HTTPPolicy(maxBodyBytes: OpenMeteo.forecastBodyLimit)
    ) {
        self.forecastBase = baseURL ?? Self.forecastBase
        self.geocodingBase = baseURL ?? Self.geocodingBase
        self.client = client
        self.policy = policy
    }

    /// `--base-url` wins, then the environment variable; a value that is not http(s) is an error.
    public static func baseURL(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> URL?
    {
        let (text, origin): (String?, String) =
            option != nil
            ? (option, "'--base-url'")
            : (environment[environmentKey].flatMap { $0.isEmpty ? nil : $0 }, "'$\(environmentKey)'")
        guard let text else { return nil }
        guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw DataSourceError(
                "\(origin) must be an http:// or https:// address such as https://api.open-meteo.com; got '\(text)'")
        }
        return url
    }

    // MARK: Geocoding

    public struct Place: Sendable, Equatable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var country: String?
        public var countryCode: String?
        public var admin1: String?
        public var timeZone: String?
        public var population: Int?

        /// "Dublin, Leinster, Ireland".
        public var label: String {
            ([name] + [admin1, country].compactMap { $0 }.filter { !$0.isEmpty && $0 != name }).joined(separator: ", ")
        }
    }

    public static let coordinateFields = ["latitude", "longitude"]

    public func searchURL(name: String, countryCode: String?, count: Int = 10) -> URL {
        var c = URLComponents(url: geocodingBase.appendingPathComponent("v1/search"), resolvingAgainstBaseURL: false)!
        c.queryItems =
            [
                URLQueryItem(name: "name", value: name), URLQueryItem(name: "count", value: String(count)),
                URLQueryItem(name: "language", value: "en"), URLQueryItem(name: "format", value: "json"),
            ]
            + (countryCode.map { [URLQueryItem(name: "countryCode", value: $0)] } ?? [])
        return c.url!
    }

    public func search(name: String, countryCode: String? = nil) throws -> [Place] {
        var p = policy
        p.maxBodyBytes = Self.geocodingBodyLimit
        let response = try client.get(searchURL(name: name, countryCode: countryCode), policy: p)
        return try Self.decodePlaces(response.body)
    }

    static func decodePlaces(_ data: Data) throws -> [Place] {
        let root = try JSONReader.parse(data, document: "Open-Meteo geocoding answer")
        if let reason = try root.optional("reason") { throw root.fail("the server refused: \(try reason.string())") }
        guard let results = try root.optional("results") else { return [] }
        return try results.array(maxCount: 100).map { r in
            Place(
                name: try r.required("name").string(maxBytes: 256),
                latitude: try r.required("latitude").number(in: -90...90),
                longitude: try r.required("longitude").number(in: -180...180),
                country: try r.optional("country")?.string(maxBytes: 256),
                countryCode: try r.optional("country_code")?.string(maxBytes: 8),
                admin1: try r.optional("admin1")?.string(maxBytes: 256),
                timeZone: try r.optional("timezone")?.string(maxBytes: 64),
                population: try r.optional("population").map { Int(try $0.number(in: 0...1e10)) })
        }
    }

    // MARK: Forecast

    /// Exactly what `Forecast` maps; nothing else is requested.
    public static let currentFields = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "weather_code",
    ]
    public static let hourlyFields = ["temperature_2m", "precipitation_probability", "precipitation", "weather_code"]
    public static let dailyFields = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_probability_max",
    ]
    public static let quarterHourFields = ["precipitation"]
    /// Four hours of 15-minute steps: the next hour for the chart plus "rain later".
    public static let quarterHourSteps = 16
    public static let forecastDays = 5

    public func forecastURL(latitude: Double, longitude: Double) -> URL {
        var c = URLComponents(url: forecastBase.appendingPathComponent("v1/forecast"), resolvingAgainstBaseURL: false)!
        c.queryItems = [
            URLQueryItem(name: "latitude", value: Self.coordinate(latitude)),
            URLQueryItem(name: "longitude", value: Self.coordinate(longitude)),
            URLQueryItem(name: "current", value: Self.currentFields.joined(separator: ",")),
            URLQueryItem(name: "minutely_15", value: Self.quarterHourFields.joined(separator: ",")),
            URLQueryItem(name: "hourly", value: Self.hourlyFields.joined(separator: ",")),
            URLQueryItem(name: "daily", value: Self.dailyFields.joined(separator: ",")),
            // Today and four more: the Forecast template's four days from any hour of today.
            URLQueryItem(name: "forecast_days", value: String(Self.forecastDays)),
            URLQueryItem(name: "forecast_minutely_15", value: String(Self.quarterHourSteps)),
            URLQueryItem(name: "timezone", value: "auto"),
            URLQueryItem(name: "timeformat", value: "unixtime"),
        ]
        return c.url!
    }

    static func coordinate(_ x: Double) -> String { String(format: "%.4f", x) }

    public func forecast(latitude: Double, longitude: Double) throws -> Forecast {
        let response = try client.get(forecastURL(latitude: latitude, longitude: longitude), policy: policy)
        return try Forecast.decode(response.body)
    }
}

/// A decoded forecast. Times are instants (the request asks for Unix time).
public struct Forecast: Sendable, Equatable {
    public struct Current: Sendable, Equatable {
        public var time: Date
        public var temperatureC: Double
        public var apparentTemperatureC: Double?
        public var humidityPercent: Double?
        public var isDay: Bool?
        public var weatherCode: Int
    }
    public struct Hour: Sendable, Equatable {
        public var time: Date
        public var temperatureC: Double?
        public var precipitationChancePercent: Double?
        /// Sum over the hour before `time`.
        public var precipitationMM: Double?
        public var weatherCode: Int?
    }
    public struct Day: Sendable, Equatable {
        /// Local midnight of the day at the forecast's place.
        public var time: Date
        public var weatherCode: Int?
        public var highC: Double?
        public var lowC: Double?
        public var precipitationChancePercent: Double?
    }
    public struct QuarterHour: Sendable, Equatable {
        /// End of the 15 minutes: Open-Meteo's value is the sum over the preceding 15 minutes.
        public var time: Date
        public var precipitationMM: Double?
    }

    public var timeZone: String?
    public var utcOffsetSeconds: Int
    public var current: Current
    public var hourly: [Hour]
    public var daily: [Day]
    public var quarterHours: [QuarterHour]

    static let temperatureRange: ClosedRange<Double> = -100...70
    static let percentRange: ClosedRange<Double> = 0...100
    static let precipitationRange: ClosedRange<Double> = 0...1000
    static let timeRange: ClosedRange<Double> = 0...8_000_000_000
    static let codeRange: ClosedRange<Double> = 0...99

    static func code(_ j: JSONReader) throws -> Int {
        let d = try j.number(in: codeRange)
        guard d == d.rounded() else { throw j.fail("\(d) is not a whole WMO weather code") }
        return Int(d)
    }

    public static func decode(_ data: Data) throws -> Forecast {
        let root = try JSONReader.parse(data, document: "Open-Meteo forecast answer")
        if let error = try root.optional("error"), case .bool(true) = error.value {
            throw root.fail("the server refused: \(try root.optional("reason")?.string() ?? "no reason given")")
        }
        let offset = Int(try root.optional("utc_offset_seconds")?.number(in: -64_800...64_800) ?? 0)
        let zone = try root.optional("timezone")?.string(maxBytes: 64)

        let c = try root.required("current")
        let current = Current(
            time: Date(timeIntervalSince1970: try c.required("time").number(in: timeRange)),
            temperatureC: try c.required("temperature_2m").number(in: temperatureRange),
            apparentTemperatureC: try c.optional("apparent_temperature")?.number(in: temperatureRange),
            humidityPercent: try c.optional("relative_humidity_2m")?.number(in: percentRange),
            isDay: try c.optional("is_day").map { try $0.number(in: 0...1) == 1 },
            weatherCode: try code(c.required("weather_code")))

        /// A series: its `time` array and each field array of the same length.
        func series(_ key: String, maxCount: Int) throws -> (
            times: [Date], fields: (String, ClosedRange<Double>) throws -> [Double?]
        )? {
            guard let s = try root.optional(key) else { return nil }
            let times = try s.required("time").array(maxCount: maxCount).map {
                Date(timeIntervalSince1970: try $0.number(in: timeRange))
            }
            for (a, b) in zip(times, times.dropFirst()) where b <= a {
                throw s.fail("times are not increasing")
            }
            return (
                times,
                { name, range in
                    guard let field = try s.optional(name) else { return Array(repeating: nil, count: times.count) }
                    let values = try field.numbers(maxCount: maxCount, in: range)
                    guard values.count == times.count else {
                        throw field.fail("\(values.count) values for \(times.count) times")
                    }
                    return values
                }
            )
        }

        var hourly: [Hour] = []
        if let h = try series("hourly", maxCount: 24 * 16) {
            let t = try h.fields("temperature_2m", temperatureRange),
                p = try h.fields("precipitation_probability", percentRange)
            let mm = try h.fields("precipitation", precipitationRange), w = try h.fields("weather_code", codeRange)
            hourly = h.times.indices.map {
                Hour(
                    time: h.times[$0], temperatureC: t[$0], precipitationChancePercent: p[$0],
                    precipitationMM: mm[$0], weatherCode: w[$0].map { Int($0) })
            }
        }
        var daily: [Day] = []
        if let d = try series("daily", maxCount: 16) {
            let w = try d.fields("weather_code", codeRange), hi = try d.fields("temperature_2m_max", temperatureRange)
            let lo = try d.fields("temperature_2m_min", temperatureRange),
                p = try d.fields("precipitation_probability_max", percentRange)
            daily = d.times.indices.map {
                Day(
                    time: d.times[$0], weatherCode: w[$0].map { Int($0) }, highC: hi[$0], lowC: lo[$0],
                    precipitationChancePercent: p[$0])
            }
        }
        var quarters: [QuarterHour] = []
        if let q = try series("minutely_15", maxCount: 4 * 24 * 16) {
            let mm = try q.fields("precipitation", precipitationRange)
            quarters = q.times.indices.map { QuarterHour(time: q.times[$0], precipitationMM: mm[$0]) }
        }
        return Forecast(
            timeZone: zone, utcOffsetSeconds: offset, current: current, hourly: hourly, daily: daily,
            quarterHours: quarters)
    }
}

/// A user-facing failure of a data source command.
public struct DataSourceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
