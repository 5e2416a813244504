import Foundation

/// The rain-first nowcast the weather template and the `__weather_rain_*` keys show, worded with
/// the seed's rules (notes §6, `WeatherNowcast.analyse`): per minute, intensity (mm/h) × chance;
/// a minute is wet at ≥ 0.005. It lives here, below both the data sources (which word it at the
/// fetch) and the renderer (which words it again at the render's clock from the stored bins).
public struct Nowcast: Sendable, Hashable {
    public struct Minute: Sendable, Hashable {
        public var intensityMMh: Double
        public var chance: Double
        public init(intensityMMh: Double, chance: Double) {
            self.intensityMMh = intensityMMh
            self.chance = chance
        }
        /// The chart's value: what the minute is expected to bring, mm/h.
        public var expectedMMh: Double { intensityMMh * chance }
        public var isWet: Bool { expectedMMh >= Nowcast.wetThreshold }
    }

    public static let wetThreshold = 0.005
    public static let unavailable = "Next-hour rain unavailable"

    /// Minute 0 starts at the clock the nowcast was worded at.
    public var minutes: [Minute]
    public var primary: String
    public var secondary: String?
    public var rainStartMinutes: Int?
    public var rainEndMinutes: Int?
    public var peakIntensityMMh: Double
    public var peakChance: Double

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

    /// The bins a render at `now` reads: bin `floor((now − startsAt) / 60)` onwards (the seed's
    /// floor-minute indexing), so "Rain in 10m" at the fetch is "Rain in 1m" nine minutes later.
    /// Empty once `now` is past the last bin; a clock before `startsAt` reads from bin 0.
    public static func window(startsAt: Date, intensityMMh: [Double], chance: [Double], at now: Date) -> [Minute] {
        let count = min(intensityMMh.count, chance.count)
        let offset = max(0, Int((now.timeIntervalSince(startsAt) / 60).rounded(.down)))
        guard offset < count else { return [] }
        var result: [Minute] = []
        result.reserveCapacity(count - offset)
        for i in offset..<count {
            // Untrusted file: a negative, NaN or absurd value reads as dry / certain at most.
            let mmh = intensityMMh[i].isFinite ? min(max(0, intensityMMh[i]), 500) : 0
            let c = chance[i].isFinite ? min(max(0, chance[i]), 1) : 0
            result.append(Minute(intensityMMh: mmh, chance: c))
        }
        return result
    }

    /// Worded from the stored bins at `now`. Past the end of the bins it says
    /// "Next-hour rain unavailable" whatever the (equally old) current symbol said.
    public init(startsAt: Date, intensityMMh: [Double], chance: [Double], at now: Date) {
        let window = Self.window(startsAt: startsAt, intensityMMh: intensityMMh, chance: chance, at: now)
        self.init(minutes: window, currentSymbol: "")
    }

    public init(minutes: [Minute], currentSymbol: String) {
        self.minutes = minutes
        guard !minutes.isEmpty else {
            let wetNow = ["rain", "drizzle", "bolt"].contains { currentSymbol.contains($0) }
            primary = wetNow ? "Rain now" : Self.unavailable
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
            if let end, end <= 1 {
                secondary = "Ending now"
            } else if let end, end < 60 {
                secondary = "Ends in \(end)m"
            } else {
                secondary = label
            }
        case .some(let s):
            primary = s < 60 ? "Rain in \(s)m" : "Rain later"
            secondary = peakChance < 0.35 ? "\(Self.percent(peakChance))% chance" : label
        case .none:
            primary = "No rain next hour"
            secondary = peakChance >= 0.35 ? "\(Self.percent(peakChance))% chance of rain" : nil
        }
    }
}
