import Foundation
import TestSupport
import Testing

@testable import WidgetDataKeys

/// Issue 26: the nowcast keys are worded from the snapshot's minute bins at the render's clock,
/// not frozen at the fetch.
@Suite struct NowcastKeysTests {
    /// Fetched at 22:05; rain 22:15–22:40 (bins 10…34) at 2 mm/h, 90%; four hours of bins.
    static func store() throws -> BuiltInKeys {
        let root = try TemplateFixture.temporaryStore()
        let intensity = (0..<240).map { (10..<35).contains($0) ? "2" : "0" }.joined(separator: ",")
        let chance = (0..<240).map { (10..<35).contains($0) ? "0.9" : "0.1" }.joined(separator: ",")
        try TemplateFixture.write(
            """
            {"schemaVersion":1, "location":{"name":"Dublin","latitude":53.35,"longitude":-6.26},
             "snapshot":{"fetchedAt":"2026-01-24T22:05:00Z","condition":"Cloudy","symbol":"cloud","temperatureC":7,
               "nowcast":"Rain in 10m","nowcastSecondary":"Moderate rain","rainStartMinutes":10,"rainEndMinutes":35,
               "rainPeakIntensityMMh":2,"rainPeakChance":0.9,
               "minutes":{"startsAt":"2026-01-24T22:05:00Z","intensityMMh":[\(intensity)],"chance":[\(chance)]}}}
            """, to: root.snapshots.appendingPathComponent("weather.json"))
        return BuiltInKeys.load(from: root)
    }

    static func keys(_ builtIns: BuiltInKeys, _ iso: String) -> [String: String] {
        let now = ISO8601DateFormatter().date(from: iso)!
        return ProviderTests.values(builtIns, now: now, tz: "UTC", locale: "en_GB")
    }

    @Test func keysFollowTheClockAcrossARainEvent() throws {
        let b = try Self.store()
        let before = Self.keys(b, "2026-01-24T22:05:00Z")
        #expect(before["__weather_nowcast"] == "Rain in 10m")
        #expect(before["__weather_nowcast_secondary"] == "Moderate rain")
        #expect(before["__weather_rain_start_min"] == "10" && before["__weather_rain_start"] == "22:15")
        #expect(before["__weather_rain_end_min"] == "35")

        // 22:12:40 is in bin 7 (floor-minute indexing): rain in 3 minutes, still at 22:15.
        let soon = Self.keys(b, "2026-01-24T22:12:40Z")
        #expect(soon["__weather_nowcast"] == "Rain in 3m" && soon["__weather_rain_start"] == "22:15")

        let start = Self.keys(b, "2026-01-24T22:15:00Z")
        #expect(start["__weather_nowcast"] == "Rain now")
        #expect(start["__weather_nowcast_secondary"] == "Ends in 25m")
        #expect(start["__weather_rain_start_min"] == "0" && start["__weather_rain_end_min"] == "25")

        let during = Self.keys(b, "2026-01-24T22:30:00Z")
        #expect(during["__weather_nowcast"] == "Rain now" && during["__weather_nowcast_secondary"] == "Ends in 10m")
        #expect(during["__weather_rain_peak_intensity_mmh"] == "2" && during["__weather_rain_peak_chance"] == "90")

        let after = Self.keys(b, "2026-01-24T22:50:00Z")
        #expect(after["__weather_nowcast"] == "No rain next hour")
        #expect(after["__weather_nowcast_secondary"] == nil)
        #expect(after["__weather_rain_start_min"] == nil && after["__weather_rain_start"] == nil)
        #expect(after["__weather_rain_peak_intensity_mmh"] == "0")

        // Past the last bin (22:05 + 240 min = 02:05): no stale numbers.
        let past = Self.keys(b, "2026-01-25T02:10:00Z")
        #expect(past["__weather_nowcast"] == "Next-hour rain unavailable")
        #expect(
            past["__weather_nowcast_secondary"] == nil && past["__weather_rain_start_min"] == nil
                && past["__weather_rain_end_min"] == nil)
        // The rest of the snapshot is still there.
        #expect(past["__weather_temp_c"] == "7")
    }

    @Test func windowIsFloorMinuteIndexedAndBounded() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let w = Nowcast.window(
            startsAt: start, intensityMMh: [0, 1, 2, .nan, -4], chance: [1, 1, 1, 1, 7],
            at: start.addingTimeInterval(119))
        #expect(
            w == [
                Nowcast.Minute(intensityMMh: 1, chance: 1), .init(intensityMMh: 2, chance: 1),
                .init(intensityMMh: 0, chance: 1), .init(intensityMMh: 0, chance: 1),
            ])
        #expect(
            Nowcast.window(startsAt: start, intensityMMh: [1], chance: [1], at: start.addingTimeInterval(60)).isEmpty)
        #expect(
            Nowcast.window(startsAt: start, intensityMMh: [1], chance: [1], at: start.addingTimeInterval(-600)).count
                == 1)
    }
}
