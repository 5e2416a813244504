import Foundation

/// The rain-first nowcast the weather template shows, worked out from Open-Meteo's 15-minute
/// precipitation with the seed's rules (notes §6, `WeatherNowcast.analyse`): per minute,
/// intensity (mm/h) × chance; a minute is wet at ≥ 0.005.
public struct Nowcast: Sendable, Equatable {
    public struct Minute: Sendable, Equatable {
        public var intensityMMh: Double
        public var chance: Double
        public var isWet: Bool { intensityMMh * chance >= Nowcast.wetThreshold }
    }

    public static let wetThreshold = 0.005

    /// Minute 0 starts at the fetch time; as far as the 15-minute series reaches.
    public var minutes: [Minute]
    public var primary: String
    public var secondary: String?
    public var rainStartMinutes: Int?
    public var rainEndMinutes: Int?
    public var peakIntensityMMh: Double
    public var peakChance: Double

    /// Minute points from `start`. A 15-minute value is the sum over the 15 minutes before its
    /// time, so a minute belongs to the first step whose time is after it; mm per 15 min × 4 is
    /// mm/h. The chance is the hourly precipitation probability of the hour the minute falls in
    /// (Open-Meteo has no 15-minute probability); without one, measurable rain counts as certain.
    static func minutes(from start: Date, quarters: [Forecast.QuarterHour], hours: [Forecast.Hour]) -> [Minute] {
        let valid = quarters.filter { $0.precipitationMM != nil }
        guard let last = valid.last, last.time > start else { return [] }
        let count = min(240, Int(last.time.timeIntervalSince(start) / 60))
        var result: [Minute] = []
        result.reserveCapacity(count)
        var q = 0
        for m in 0..<count {
            let mid = start.addingTimeInterval(Double(m) * 60 + 30)
            while q < valid.count && valid[q].time < mid { q += 1 }
            guard q < valid.count, valid[q].time.timeIntervalSince(mid) <= 15 * 60 else { break }
            let mmh = (valid[q].precipitationMM ?? 0) * 4
            // Hourly values are sums over the hour before their time, as the quarters are.
            let hour = hours.first { $0.time >= mid && $0.time.timeIntervalSince(mid) <= 3600 }
            let chance = hour?.precipitationChancePercent.map { $0 / 100 } ?? (mmh > 0 ? 1 : 0)
            result.append(Minute(intensityMMh: mmh, chance: chance))
        }
        return result
    }

    public static func intensityLabel(_ mmh: Double) -> String {
        switch mmh {
        case ..<0.05: "Light drizzle"
        case ..<0.25: "Drizzle"
        case ..<1.2: "Light rain"
        case ..<3.5: "Moderate rain"
        case ..<10: "Heavy rain"
        default: "Very heavy rain"
        }
    }

    static func percent(_ f: Double) -> Int { Int((f * 100).rounded()) }

    public init(minutes: [Minute], currentSymbol: String) {
        self.minutes = minutes
        guard !minutes.isEmpty else {
            let wetNow = ["rain", "drizzle", "bolt"].contains { currentSymbol.contains($0) }
            primary = wetNow ? "Rain now" : "Next-hour rain unavailable"
            secondary = nil
            peakIntensityMMh = 0
            peakChance = 0
            return
        }
        let start = minutes.firstIndex(where: \.isWet)
        let end = start.flatMap { s in minutes[s...].firstIndex(where: { !$0.isWet }) }
        rainStartMinutes = start
        rainEndMinutes = end
        if let start {
            let run = minutes[start..<(end ?? minutes.count)]
            peakIntensityMMh = run.map(\.intensityMMh).max() ?? 0
            peakChance = run.map(\.chance).max() ?? 0
        } else {
            peakIntensityMMh = 0
            peakChance = minutes.prefix(60).map(\.chance).max() ?? 0
        }
        let label = Self.intensityLabel(peakIntensityMMh)
        switch start {
        case .some(let s) where s <= 1:
            primary = "Rain now"
            if let end, end <= 1 { secondary = "Ending now" }
            else if let end, end < 60 { secondary = "Ends in \(end)m" }
            else { secondary = label }
        case .some(let s):
            primary = s < 60 ? "Rain in \(s)m" : "Rain later"
            secondary = peakChance < 0.35 ? "\(Self.percent(peakChance))% chance" : label
        case .none:
            primary = "No rain next hour"
            secondary = peakChance >= 0.35 ? "\(Self.percent(peakChance))% chance of rain" : nil
        }
    }
}
