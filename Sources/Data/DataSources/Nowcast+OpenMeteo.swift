import Foundation
import WidgetDataKeys

/// Minute bins from Open-Meteo's 15-minute precipitation; the wording is `Variables.Nowcast`.
extension Nowcast {
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
}
