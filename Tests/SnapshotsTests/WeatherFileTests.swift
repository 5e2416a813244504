import BoundedJSON
import Foundation
import Snapshots
import Testing

/// The forecast series read back one way for the Weather and Forecast templates, and the one stale rule.
@Suite struct WeatherFileTests {
    func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func daysAndHoursAreReadWithOneRule() throws {
        let day = try #require(
            WeatherFile.Day(
                reading: try json(
                    #"{"date":"2026-01-24","highC":9,"lowC":5000,"precipitationChance":1.7,"symbol":"cloud.fill"}"#)))
        #expect(
            day
                == WeatherFile.Day(
                    date: "2026-01-24", highC: 9, lowC: nil, precipitationChance: 1, symbol: "cloud.fill"))
        #expect(WeatherFile.Day(reading: try json(#"{"date":"24/1/2026","highC":9}"#)) == nil)
        let hour = try #require(
            WeatherFile.Hour(
                reading: try json(#"{"time":"2026-01-24T10:00:00Z","temperatureC":"warm","precipitationChance":-0.2}"#))
        )
        #expect(hour.temperatureC == nil && hour.precipitationChance == 0)
        #expect(WeatherFile.Hour(reading: try json(#"{"time":1769248800,"temperatureC":7}"#)) == nil)
        #expect(WeatherFile.HourTemperature(reading: try json(#"{"time":"2026-01-24T10:00:00Z"}"#)) == nil)
    }

    /// The place, the current conditions and the refresh record, read once for the keys and both
    /// templates: temperatures and coordinates by the series' rule (|x| < 1000), a mistyped
    /// field as missing, and a `snapshot` that is not an object kept for its series readers only.
    @Test func placeCurrentAndRefreshAreReadWithTheSeriesRule() throws {
        let reading = WeatherFile.read(
            json: try json(
                #"""
                {"location":{"name":"Oslo","latitude":59.91,"longitude":1e6,"timeZone":"Europe/Oslo"},
                 "snapshot":{"fetchedAt":"2026-01-24T09:00:00Z","temperatureC":5000,"apparentTemperatureC":-3.5,
                   "highC":"warm","lowC":-1e300,"condition":"Snow","precipitationChance":0.4},
                 "refresh":{"lastError":"timed out"}}
                """#))
        #expect(reading.place == WeatherFile.Place(name: "Oslo", latitude: 59.91, timeZone: "Europe/Oslo"))
        let current = try #require(reading.current)
        #expect(current.temperatureC == nil && current.apparentTemperatureC == -3.5)
        #expect(current.highC == nil && current.lowC == nil)
        #expect(current.condition == "Snow" && current.precipitationChance == 0.4)
        #expect(current.fetchedAt == Date(timeIntervalSince1970: 1_769_245_200))
        #expect(reading.refreshFailed)
        let bare = WeatherFile.read(json: try json(#"{"location":"Oslo","snapshot":[],"refresh":{"lastError":null}}"#))
        #expect(bare.place == nil && bare.current == nil && bare.snapshot == .array([]) && !bare.refreshFailed)
    }

    @Test func weatherIsStaleFromThreeHoursAndUnknownFromSix() {
        let fetched = Date(timeIntervalSince1970: 1_769_247_000)
        #expect(WeatherFreshness.at(fetched.addingTimeInterval(3 * 3600 - 1), fetchedAt: fetched) == .fresh)
        #expect(WeatherFreshness.at(fetched.addingTimeInterval(3 * 3600), fetchedAt: fetched) == .currentHidden)
        #expect(WeatherFreshness.at(fetched.addingTimeInterval(6 * 3600), fetchedAt: fetched) == .unknown)
        #expect(WeatherFreshness.at(fetched, fetchedAt: nil) == .unknown)
    }
}
