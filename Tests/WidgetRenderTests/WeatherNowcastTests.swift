import Foundation
import Testing
import WidgetDataKeys

@testable import WidgetRender

/// Issue 26: the Weather widget words the nowcast and draws its chart at the render's clock from
/// the snapshot's minute bins (refreshed at 22:05 with rain due at 22:15, drawn at 22:50, it no
/// longer says "Rain in 10m").
@Suite struct WeatherNowcastTests {
    static let fetchedAt = ISO8601DateFormatter().date(from: "2026-01-24T22:05:00Z")!

    /// Rain 22:15–22:40 (bins 10…34) at 2 mm/h, 90%.
    static var weather: WeatherState {
        var w = Fixtures.weather
        w.fetchedAt = fetchedAt
        w.nowcast = "Rain in 10m"
        w.nowcastSecondary = "Moderate rain"
        w.minutes = .init(
            startsAt: fetchedAt, intensityMMh: (0..<240).map { (10..<35).contains($0) ? 2 : 0 },
            chance: (0..<240).map { (10..<35).contains($0) ? 0.9 : 0.1 })
        return w
    }

    static func layout(_ family: WidgetFamily, at iso: String, weather: WeatherState = weather) -> WidgetLayout {
        var inputs = Fixtures.inputs()
        inputs.context.now = ISO8601DateFormatter().date(from: iso)!
        inputs.weather = weather
        return WidgetRenderer().layout(design: Fixtures.design("weather"), family: family, scale: 1, inputs: inputs)
    }

    static func surface(_ l: WidgetLayout) -> RainSurface? {
        l.elements.lazy.compactMap { if case .rainSurface(let s) = $0.primitive { s } else { nil } }.first
    }

    static func texts(_ l: WidgetLayout) -> [String] { l.elements.compactMap(\.text) }

    @Test(arguments: [WidgetFamily.small, .medium, .large])
    func headlineAndChartFollowTheClock(_ family: WidgetFamily) throws {
        // Before: the rain starts 10 of the chart's 60 minutes in, tapered on the way up.
        let before = Self.layout(family, at: "2026-01-24T22:05:00Z")
        #expect(Self.texts(before).contains("Rain in 10m"))
        let s0 = try #require(Self.surface(before))
        let perMinute = s0.plot.width / 60
        #expect(s0.segments.count == 1)
        let seg0 = s0.segments[0]
        #expect(abs(seg0.first!.x - (s0.plot.minX + 10 * perMinute - RainSurface.taperPoints)) < 0.01)
        #expect(abs(seg0.last!.x - (s0.plot.minX + 35 * perMinute + RainSurface.taperPoints)) < 0.01)
        #expect(seg0.first!.y == s0.baselineY && seg0.last!.y == s0.baselineY, "tapered to the baseline, no cliffs")

        // At the start: rain now, from the chart's left edge (running on, not tapered there).
        let start = Self.layout(family, at: "2026-01-24T22:15:00Z")
        #expect(Self.texts(start).contains("Rain now"))
        if family != .small { #expect(Self.texts(start).contains("Ends in 25m")) }
        let s1 = try #require(Self.surface(start))
        #expect(abs(s1.segments[0].first!.x - s1.plot.minX) < 0.01)
        #expect(abs(s1.segments[0].last!.x - (s1.plot.minX + 25 * perMinute + RainSurface.taperPoints)) < 0.01)

        let during = Self.layout(family, at: "2026-01-24T22:30:30Z")
        #expect(Self.texts(during).contains("Rain now"))
        if family != .small { #expect(Self.texts(during).contains("Ends in 10m")) }
        #expect(
            abs(
                try #require(Self.surface(during)).segments[0].last!.x
                    - (s1.plot.minX + 10 * perMinute + RainSurface.taperPoints)) < 0.01)

        // After: dry, a bare baseline; and the headline no longer says rain is coming.
        let after = Self.layout(family, at: "2026-01-24T22:50:00Z")
        #expect(Self.texts(after).contains("No rain next hour"))
        #expect(!Self.texts(after).contains { $0.hasPrefix("Rain in") })
        #expect(try #require(Self.surface(after)).segments.isEmpty)

        // Past the bins: unavailable, never the old numbers; the data is also past its validity.
        let past = Self.layout(family, at: "2026-01-25T02:10:00Z")
        // No chart is reserved for minutes there is no data for.
        #expect(Self.texts(past).contains("Next-hour rain unavailable"))
        #expect(Self.surface(past) == nil)
        #expect(!past.elements.contains { $0.kind == .chart })
        #expect(past.textLines.contains { $0.contains("Weather data is old") })
    }

    /// A fresh fetch whose minute bins have ended (the Data page's preview showed an empty black
    /// plate under "Next-hour rain unavailable"): no chart; large moves its hours and days up
    /// under the text (medium shows the next hours there only when a smaller type leaves room).
    @Test(arguments: [WidgetFamily.small, .medium, .large])
    func withoutMinuteDataNoEmptyChartIsReserved(_ family: WidgetFamily) throws {
        var inputs = Fixtures.inputs()
        inputs.weather = RainScenario.lightShower.weatherWithMinutesEnded
        let l = WidgetRenderer().layout(design: Fixtures.design("weather"), family: family, scale: 1, inputs: inputs)
        #expect(Self.texts(l).contains("Next-hour rain unavailable"), "\(Self.texts(l))")
        #expect(Self.surface(l) == nil && !l.elements.contains { $0.kind == .chart })
        #expect(!l.textLines.contains { $0.contains("Weather data is old") })
        let headline = try #require(l.elements.first { $0.text == "Next-hour rain unavailable" })
        if family == .large {
            // The first upcoming hour (10:00) right under the text, not under an empty plate.
            let hour = try #require(l.elements.first { $0.text == "10:00" }, "\(Self.texts(l))")
            #expect(hour.rect.minY >= headline.rect.maxY && hour.rect.minY - headline.rect.maxY < 40)
            // With a chart, the same hour sits below it.
            var withChart = inputs
            withChart.weather = RainScenario.lightShower.weather
            let charted = WidgetRenderer().layout(
                design: Fixtures.design("weather"), family: family, scale: 1, inputs: withChart)
            let chartedHour = try #require(charted.elements.first { $0.text == "10:00" })
            #expect(hour.rect.minY < chartedHour.rect.minY - 20)
        }
    }

    @Test func rectangularAccessoryShowsTemperatureNowcastAndChart() throws {
        let l = Self.layout(.rectangular, at: "2026-01-24T22:07:00Z")
        #expect(Self.texts(l).contains("7°") && Self.texts(l).contains("Rain in 8m"))
        let s = try #require(Self.surface(l))
        #expect(s.colours == .monochrome && s.segments.count == 1)
        let circular = Self.layout(.circular, at: "2026-01-24T22:50:00Z")
        #expect(circular.textLines.joined(separator: " ").contains("No rain next hour"))
    }

    @Test func sameSnapshotAndClockDrawTheSamePixels() throws {
        let renderer = WidgetRenderer()
        let a = try renderer.png(Self.layout(.medium, at: "2026-01-24T22:20:10Z"))
        let b = try renderer.png(Self.layout(.medium, at: "2026-01-24T22:20:50Z"))
        #expect(a == b)
        let c = try renderer.png(Self.layout(.medium, at: "2026-01-24T22:21:00Z"))
        #expect(a != c)
    }

    @Test func largeShowsTheNextHoursAndTheComingDays() throws {
        let l = Self.layout(.large, at: "2026-01-24T09:30:00Z", weather: RainScenario.heavyBurst.weather)
        let t = Self.texts(l)
        #expect(t.contains("10:00") && t.contains("14:00"))
        #expect(t.contains("Sun") && t.contains("Mon") && t.contains("Tue") && !t.contains("Sat"))
        #expect(t.contains("H 11° L 4°"))
    }

    @Test func failedRefreshAndOldDataAreShown() throws {
        var w = Self.weather
        w.refreshFailed = true
        let medium = Self.layout(.medium, at: "2026-01-24T22:49:00Z", weather: w)
        #expect(Self.texts(medium).contains("Updated 44 mins ago · Update failed"))
        let small = Self.layout(.small, at: "2026-01-24T22:49:00Z", weather: w)
        #expect(Self.texts(small).contains("Update failed · 22:05"))
        let fine = Self.layout(.medium, at: "2026-01-24T22:49:00Z")
        #expect(!Self.texts(fine).contains { $0.contains("failed") })
        // Over three hours old: greyed and saying so.
        let old = Self.layout(.medium, at: "2026-01-25T01:06:00Z")
        #expect(Self.texts(old).contains { $0.hasPrefix("Weather data is old") })
        let oldRun = try #require(old.elements.compactMap(\.textRun).first { $0.text == "7°C" })
        #expect(oldRun.colour.r == oldRun.colour.g && oldRun.colour.r < 0.7)
    }
}
