import Foundation
import WidgetDataKeys

@testable import WidgetRender

/// Weather snapshots with one-minute bins for the nowcast tests and the rain-surface goldens,
/// fetched five minutes before `Fixtures.now` (09:25), four hours of bins.
enum RainScenario: String, CaseIterable, Sendable {
    case dry
    case lightShower = "light-shower"
    case heavyBurst = "heavy-burst"
    case uncertainDrizzle = "uncertain-drizzle"

    static let fetchedAt = Fixtures.now.addingTimeInterval(-300)

    /// (intensity mm/h, chance) for bin i (minute i after the fetch).
    func bin(_ i: Int) -> (Double, Double) {
        switch self {
        case .dry:
            return (0, 0.05)
        case .lightShower:
            // 09:40–10:05: a gentle rise and fall to 0.7 mm/h, likely.
            guard (15..<40).contains(i) else { return (0, 0.2) }
            return (0.7 * sin(.pi * Double(i - 14) / 26), 0.7)
        case .heavyBurst:
            // 09:50–10:06 a downpour peaking at 9 mm/h, then a short light tail, almost certain.
            if (25..<41).contains(i) { return (0.8 + 8.2 * pow(sin(.pi * Double(i - 24) / 17), 2), 0.9) }
            if (44..<50).contains(i) { return (0.4, 0.6) }
            return (0, 0.3)
        case .uncertainDrizzle:
            // Drizzle all hour that may or may not come: low, wavering chance.
            return (0.35 + 0.15 * sin(Double(i) / 6), 0.12 + 0.1 * (0.5 + 0.5 * sin(Double(i) / 9)))
        }
    }

    var weather: WeatherState {
        var w = Fixtures.weather
        let bins = (0..<240).map(bin)
        w.minutes = .init(startsAt: Self.fetchedAt, intensityMMh: bins.map(\.0), chance: bins.map(\.1))
        w.fetchedAt = Self.fetchedAt
        w.symbol = self == .dry ? "cloud.fill" : "cloud.rain.fill"
        w.hourly = (1...8).map { h in
            WeatherState.Hour(
                time: Date(
                    timeIntervalSince1970: (Self.fetchedAt.timeIntervalSince1970 / 3600).rounded(.down) * 3600 + Double(
                        h) * 3600),
                temperatureC: 7 + Double(h % 4), precipitationChance: 0.3,
                symbol: h % 3 == 0 ? "cloud.rain.fill" : "cloud.sun.fill")
        }
        w.daily = [
            WeatherState.Day(
                date: "2026-01-24", highC: 9, lowC: 3, precipitationChance: 0.7, symbol: "cloud.rain.fill"),
            WeatherState.Day(
                date: "2026-01-25", highC: 11, lowC: 4, precipitationChance: 0.2, symbol: "cloud.sun.fill"),
            WeatherState.Day(
                date: "2026-01-26", highC: 8, lowC: 1, precipitationChance: 0.6, symbol: "cloud.rain.fill"),
            WeatherState.Day(date: "2026-01-27", highC: 6, lowC: -1, precipitationChance: 0.1, symbol: "sun.max.fill"),
        ]
        return w
    }

    /// The same forecast with its four hours of bins ending before `Fixtures.now`, the fetch still
    /// fresh: "Next-hour rain unavailable" (what the Data page showed for a stand-in's old bins).
    var weatherWithMinutesEnded: WeatherState {
        var w = weather
        if let m = w.minutes {
            w.minutes = .init(
                startsAt: Fixtures.now.addingTimeInterval(-5 * 3600), intensityMMh: m.intensityMMh, chance: m.chance)
        }
        return w
    }
}
