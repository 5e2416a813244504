import Foundation
import SharedStore
import Snapshots
import Synchronization
import TestSupport
import Testing

@testable import DataSources
@testable import TemplateLanguage
@testable import WidgetDataKeys

enum Fixtures {
    /// 2026-01-24T09:30:00Z: the recorded forecast's `current.time`.
    static let fetchTime = Date(timeIntervalSince1970: 1_769_247_000)

    static func store() throws -> StoreRoot { StoreRoot(url: try Products.temporaryDirectory("data-tests")) }

    static func api(_ server: LocalHTTPServer, timeout: Double = 5, retries: [Double] = [0.01, 0.01]) -> OpenMeteo {
        OpenMeteo(
            baseURL: URL(string: server.baseURL)!,
            policy: HTTPPolicy(
                maxBodyBytes: OpenMeteo.forecastBodyLimit, idleTimeoutSeconds: timeout,
                totalTimeoutSeconds: timeout * 2, retryDelaysSeconds: retries))
    }

    static let dublin = WeatherFile.Location(
        name: "Dublin", latitude: 53.33306, longitude: -6.24889, updatedAt: fetchTime)

    /// A scratch store and a weather service on it that fetches from `server`, located in Dublin.
    static func dublinService(_ server: LocalHTTPServer) throws -> (root: StoreRoot, service: WeatherService) {
        let root = try store()
        let service = WeatherService(root: root, api: api(server))
        try service.setLocation(dublin)
        return (root, service)
    }

    static func render(
        _ template: String, root: StoreRoot, at now: Date = fetchTime, tz: String = "UTC", locale: String = "en_GB"
    ) -> String {
        TemplateRenderer().render(
            template,
            in: RenderContext(
                now: now, timeZone: TimeZone(identifier: tz)!,
                locale: Locale(identifier: locale), builtIns: BuiltInKeys.load(from: root)))
    }
}

/// A clock that moves only when told.
final class TestClock: @unchecked Sendable {
    var now: Date
    init(_ now: Date) { self.now = now }
}

@Suite("Weather from a recorded Open-Meteo server")
struct WeatherTests {
    @Test func refreshWritesTheSnapshotTheVariablesEngineReads() throws {
        let server = try DataFixtures.openMeteo()
        defer { server.stop() }
        let (root, service) = try Fixtures.dublinService(server)
        guard case .updated(let file) = try service.refresh(force: false, now: { Fixtures.fetchTime }) else {
            Issue.record("refresh did not update")
            return
        }
        // Exactly the fields we map were asked for.
        let q = try #require(server.requests.last).query
        #expect(server.requests.last?.path == "/v1/forecast")
        #expect(q["latitude"] == "53.3331" && q["longitude"] == "-6.2489")
        #expect(q["current"] == "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,weather_code")
        #expect(q["minutely_15"] == "precipitation")
        #expect(q["hourly"] == "temperature_2m,precipitation_probability,precipitation,weather_code")
        #expect(q["daily"] == "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max")
        #expect(q["timeformat"] == "unixtime" && q["timezone"] == "auto" && q["forecast_minutely_15"] == "16")
        // Today and four more days, for the Forecast template.
        #expect(q["forecast_days"] == "5")

        let s = try #require(file.snapshot)
        #expect(s.condition == "Cloudy" && s.symbol == "cloud.fill" && s.weatherCode == 3)
        #expect(s.temperatureC == 7.4 && s.apparentTemperatureC == 4.1 && s.humidity == 0.82)
        #expect(s.highC == 9.1 && s.lowC == 3.2 && s.precipitationChance == 0.7)
        // 15-minute series: dry until 09:45, 1.2 → 2.0 → 0.8 mm/h until 10:30 (hourly chance 40 % then 70 %).
        #expect(s.nowcast == "Rain in 15m" && s.nowcastSecondary == "Moderate rain")
        #expect(s.rainStartMinutes == 15 && s.rainEndMinutes == 60)
        #expect(s.rainPeakIntensityMMh == 2.0 && s.rainPeakChance == 0.7)
        let hour = try #require(s.minutes)
        // 16 quarter-hour sums end at 09:30 … 13:15: minutes 09:30–13:15, 225 of them.
        #expect(hour.startsAt == Fixtures.fetchTime && hour.intensityMMh.count == 225 && hour.chance.count == 225)
        #expect(
            Array(hour.intensityMMh[14...16]) == [0, 1.2, 1.2] && hour.intensityMMh[30] == 2.0 && hour.chance[30] == 0.7
        )
        #expect(s.daily.map(\.date) == ["2026-01-24", "2026-01-25"])
        #expect(s.hourly.count == 24 && s.hourly.first?.time == Date(timeIntervalSince1970: 1_769_248_800))
        // Every hourly temperature of the answer (the recording has two days), from its first hour.
        let temperatures = try #require(s.temperatures)
        #expect(
            temperatures.count == 48 && temperatures.first?.time == Date(timeIntervalSince1970: 1_769_212_800),
            "\(temperatures.count) \(String(describing: temperatures.first))")
        #expect(file.refresh.lastError == nil && file.refresh.lastSuccessAt == Fixtures.fetchTime)

        // Every __weather_* key through the variables engine, against the recorded numbers.
        let rendered = Fixtures.render(
            """
            {{__weather_location}}|{{__weather_condition}}|{{__weather_symbol}}|{{__weather_temp}}|\
            {{__weather_temp_c}}|\
            {{__weather_temp_f}}|{{__weather_feels}}|{{__weather_high}}|{{__weather_low}}|{{__weather_precip}}|\
            {{__weather_precip_fraction}}|{{__weather_humidity}}|{{__weather_nowcast}}|{{__weather_nowcast_secondary}}|\
            {{__weather_rain_start_min}}|{{__weather_rain_start}}|{{__weather_rain_end_min}}|\
            {{__weather_rain_peak_intensity_mmh}}|{{__weather_rain_peak_chance}}|\
            {{__weather_rain_peak_chance_fraction}}|\
            {{__weather_updated_iso}}
            """, root: root)
        #expect(
            rendered
                == """
                Dublin|Cloudy|cloud.fill|7|7|45|4|9|3|70|0.7|82|Rain in 15m|Moderate \
                rain|15|09:45|60|2|70|0.7|2026-01-24T09:30:00Z
                """
        )
        // The locale picks the unit; the zone places the rain start.
        #expect(
            Fixtures.render(
                "{{__weather_temp}}° {{__weather_rain_start}}", root: root, tz: "America/New_York", locale: "en_US")
                == "45° 04:45")
    }

    @Test func refreshesAreAtLeastTenMinutesApartUnlessForced() throws {
        let server = try DataFixtures.openMeteo()
        defer { server.stop() }
        let service = try Fixtures.dublinService(server).service
        let clock = TestClock(Fixtures.fetchTime)
        _ = try service.refresh(force: false, now: { clock.now })
        clock.now += 9 * 60 + 59
        guard case .tooSoon(_, let last, let next) = try service.refresh(force: false, now: { clock.now }) else {
            Issue.record("a second request went out within 10 minutes")
            return
        }
        #expect(last == Fixtures.fetchTime && next == Fixtures.fetchTime + 600)
        #expect(server.requests.count == 1)
        guard case .updated = try service.refresh(force: true, now: { clock.now }) else {
            Issue.record("--force did not fetch")
            return
        }
        #expect(server.requests.count == 2)
        clock.now += 600
        guard case .updated = try service.refresh(force: false, now: { clock.now }) else {
            Issue.record("no fetch after 10 min")
            return
        }
        #expect(server.requests.count == 3)
    }

    @Test func serverErrorsAreRetriedThenTheLastSnapshotIsKept() throws {
        let failing = Mutex(false)
        let server = try DataFixtures.openMeteo(failingWith: "overloaded") { failing.withLock { $0 } }
        defer { server.stop() }
        let (root, service) = try Fixtures.dublinService(server)
        _ = try service.refresh(force: false, now: { Fixtures.fetchTime })
        failing.withLock { $0 = true }
        guard case .failed(let file, let error) = try service.refresh(force: true, now: { Fixtures.fetchTime + 1800 })
        else {
            Issue.record("a 500 did not fail")
            return
        }
        // One request, then two retries.
        #expect(server.requests.count == 4)
        #expect(error.contains("HTTP 500") && error.contains("after 3 attempts"))
        #expect(file.snapshot?.fetchedAt == Fixtures.fetchTime)
        #expect(file.refresh.lastError == error && file.refresh.lastAttemptAt == Fixtures.fetchTime + 1800)
        // The keys still come from the kept snapshot.
        #expect(
            Fixtures.render("{{__weather_temp_c}} {{__weather_updated_iso}}", root: root) == "7 2026-01-24T09:30:00Z")
    }

    @Test func clientErrorsAreNotRetried() throws {
        let server = try DataFixtures.openMeteo(forecast: {
            .json(DataFixtures.text("forecast-error.json"), status: 400)
        })
        defer { server.stop() }
        let api = Fixtures.api(server)
        #expect(
            throws: HTTPError.status(
                code: 400, url: api.forecastURL(latitude: 91, longitude: 0).absoluteString, attempts: 1)
        ) {
            _ = try api.forecast(latitude: 91, longitude: 0)
        }
        #expect(server.requests.count == 1)
    }

    @Test func aSlowServerTimesOut() throws {
        let server = try DataFixtures.openMeteo(forecast: {
            LocalHTTPServer.Response(body: Data(DataFixtures.text("forecast-dublin.json").utf8), delaySeconds: 10)
        })
        defer { server.stop() }
        let api = Fixtures.api(server, timeout: 0.5, retries: [0.01])
        let started = Date()
        do {
            _ = try api.forecast(latitude: 53.3, longitude: -6.2)
            Issue.record("a server that does not answer was accepted")
        } catch let error as HTTPError {
            guard case .timeout(_, _, let attempts) = error else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
            #expect(attempts == 2)
        }
        // Two attempts of at most ~1 s each (the hard deadline), not the server's 10 s. Generous for loaded CI
        // machines.
        #expect(Date().timeIntervalSince(started) < 6)
    }

    @Test(arguments: [false, true])
    func oversizedBodiesAreCutOff(omitLength: Bool) throws {
        let big = Data(repeating: UInt8(ascii: " "), count: OpenMeteo.forecastBodyLimit + 100_000)
        let server = try DataFixtures.openMeteo(forecast: {
            LocalHTTPServer.Response(body: big, omitContentLength: omitLength)
        })
        defer { server.stop() }
        let api = Fixtures.api(server)
        #expect(
            throws: HTTPError.tooLarge(
                limitBytes: OpenMeteo.forecastBodyLimit, url: api.forecastURL(latitude: 1, longitude: 2).absoluteString)
        ) {
            _ = try api.forecast(latitude: 1, longitude: 2)
        }
        #expect(server.requests.count == 1)
    }

    @Test func malformedAnswersAreRefusedNamingTheField() throws {
        #expect(
            throws: DecodeError(
                document: "Open-Meteo forecast answer", path: "hourly.precipitation_probability",
                reason: "47 values for 48 times")
        ) {
            _ = try Forecast.decode(DataFixtures.data("forecast-mismatched.json"))
        }
        #expect(
            throws: DecodeError(
                document: "Open-Meteo forecast answer", path: "current.time", reason: "expected a number, found string")
        ) {
            _ = try Forecast.decode(Data(#"{"current":{"time":"yesterday","temperature_2m":1,"weather_code":0}}"#.utf8))
        }
        #expect(
            throws: DecodeError(
                document: "Open-Meteo forecast answer", path: "current.temperature_2m", reason: "900 is outside -100…70"
            )
        ) {
            _ = try Forecast.decode(
                Data(#"{"current":{"time":1769247000,"temperature_2m":900,"weather_code":0}}"#.utf8))
        }
        #expect(throws: DecodeError(document: "Open-Meteo forecast answer", path: "current", reason: "missing")) {
            _ = try Forecast.decode(Data(#"{"latitude":1}"#.utf8))
        }
        #expect(throws: DecodeError.self) { _ = try Forecast.decode(Data("<html>502 Bad Gateway</html>".utf8)) }
        // Deep nesting is refused by the bounded parser, not the stack.
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: DecodeError.self) { _ = try Forecast.decode(Data(deep.utf8)) }

        let server = try DataFixtures.openMeteo(forecast: { .json("{\"current\": ") })
        defer { server.stop() }
        let service = try Fixtures.dublinService(server).service
        guard case .failed(let file, let error) = try service.refresh(force: false, now: { Fixtures.fetchTime }) else {
            Issue.record("a truncated answer was accepted")
            return
        }
        #expect(error.hasPrefix("Open-Meteo forecast answer: (top level): invalid JSON"))
        #expect(file.snapshot == nil)
        // Truncated JSON is not retried: the server answered.
        #expect(server.requests.count == 1)
    }

    @Test func geocodingPicksTheObviousPlaceAndListsAmbiguousOnes() throws {
        let server = try DataFixtures.openMeteo()
        defer { server.stop() }
        let api = Fixtures.api(server)
        let dublin = try api.search(name: "Dublin")
        #expect(server.requests.last?.query["name"] == "Dublin" && server.requests.last?.query["count"] == "10")
        guard case .chosen(let place, let others) = try WeatherService.resolve(dublin, pick: nil) else {
            Issue.record("Dublin was not resolved")
            return
        }
        #expect(place.label == "Dublin, Leinster, Ireland" && place.timeZone == "Europe/Dublin")
        #expect(others.count == 3)
        guard case .ambiguous(let choices) = try WeatherService.resolve(try api.search(name: "Springfield"), pick: nil)
        else {
            Issue.record("Springfield was not ambiguous")
            return
        }
        #expect(choices.map(\.admin1) == ["Missouri", "Massachusetts", "Illinois"])
        guard case .chosen(let second, _) = try WeatherService.resolve(choices, pick: 2) else {
            Issue.record("--pick")
            return
        }
        #expect(second.admin1 == "Massachusetts")
        #expect(throws: DataSourceError.self) { try WeatherService.resolve(choices, pick: 4) }
        #expect(try WeatherService.resolve(try api.search(name: "Nowhere-on-earth"), pick: nil) == .none)
    }

    @Test func movingTheLocationDropsTheOldSnapshot() throws {
        let server = try DataFixtures.openMeteo()
        defer { server.stop() }
        let (root, service) = try Fixtures.dublinService(server)
        _ = try service.refresh(force: false, now: { Fixtures.fetchTime })
        try service.setLocation(
            WeatherFile.Location(name: "Cork", latitude: 51.9, longitude: -8.47, updatedAt: Fixtures.fetchTime))
        let f = try #require(try service.load())
        #expect(f.snapshot == nil && f.refresh.lastAttemptAt == nil)
        // Without a snapshot the engine still offers the location keys.
        #expect(
            Fixtures.render("{{__weather_location}} {{__weather_lat}} {{__weather_temp|--}}", root: root)
                == "Cork 51.9 --")
    }
}

@Suite("Nowcast wording (notes §6)")
struct NowcastTests {
    func minutes(_ spec: [(count: Int, mmh: Double, chance: Double)]) -> [Nowcast.Minute] {
        spec.flatMap { Array(repeating: Nowcast.Minute(intensityMMh: $0.mmh, chance: $0.chance), count: $0.count) }
    }

    @Test func wording() {
        let rainingNow = Nowcast(minutes: minutes([(20, 0.8, 0.9), (100, 0, 0.1)]), currentSymbol: "cloud.rain.fill")
        #expect(
            rainingNow.primary == "Rain now" && rainingNow.secondary == "Ends in 20m" && rainingNow.rainEndMinutes == 20
        )
        let steady = Nowcast(minutes: minutes([(120, 4, 1)]), currentSymbol: "cloud.rain.fill")
        #expect(steady.primary == "Rain now" && steady.secondary == "Heavy rain" && steady.rainEndMinutes == nil)
        let later = Nowcast(minutes: minutes([(75, 0, 0.2), (30, 0.3, 0.3)]), currentSymbol: "cloud.fill")
        #expect(later.primary == "Rain later" && later.secondary == "30% chance" && later.rainStartMinutes == 75)
        let dry = Nowcast(minutes: minutes([(60, 0, 0.4)]), currentSymbol: "sun.max.fill")
        #expect(dry.primary == "No rain next hour" && dry.secondary == "40% chance of rain")
        // Below the wet threshold (intensity × chance < 0.005) is dry.
        let trace = Nowcast(minutes: minutes([(60, 0.04, 0.1)]), currentSymbol: "cloud.fill")
        #expect(trace.primary == "No rain next hour" && trace.secondary == nil)
        #expect(Nowcast(minutes: [], currentSymbol: "cloud.drizzle.fill").primary == "Rain now")
        #expect(Nowcast(minutes: [], currentSymbol: "cloud.fill").primary == "Next-hour rain unavailable")
        #expect(
            [0.01, 0.1, 1, 3, 9, 12].map(Nowcast.intensityLabel) == [
                "Light drizzle", "Drizzle", "Light rain", "Moderate rain", "Heavy rain", "Very heavy rain",
            ])
    }

    @Test func weatherCodes() {
        #expect(WeatherCode.describe(0) == .init(condition: "Clear", symbol: "sun.max.fill"))
        #expect(WeatherCode.describe(0, isDay: false).symbol == "moon.stars.fill")
        #expect(WeatherCode.describe(63).symbol == "cloud.rain.fill")
        #expect(WeatherCode.describe(95).condition == "Thunderstorm")
        #expect(WeatherCode.describe(42).condition == "Unknown")
    }
}
