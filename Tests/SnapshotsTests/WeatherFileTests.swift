import Foundation
import SharedStore
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

    @Test func weatherIsStaleFromThreeHoursAndUnknownFromSix() {
        let fetched = Date(timeIntervalSince1970: 1_769_247_000)
        #expect(WeatherFreshness.at(fetched.addingTimeInterval(3 * 3600 - 1), fetchedAt: fetched) == .fresh)
        #expect(WeatherFreshness.at(fetched.addingTimeInterval(3 * 3600), fetchedAt: fetched) == .currentHidden)
        #expect(WeatherFreshness.at(fetched.addingTimeInterval(6 * 3600), fetchedAt: fetched) == .unknown)
        #expect(WeatherFreshness.at(fetched, fetchedAt: nil) == .unknown)
    }
}
