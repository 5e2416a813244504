import CivilDates
import Foundation
import SharedStore
import Snapshots
import TemplateLanguage

/// `__steps_*` keys from `snapshots/steps.json` (schema in docs/variables.md, "Built-in keys").
///
/// The "today" keys appear only when the snapshot's `today.date` is the render clock's local
/// date: yesterday's count must not show as today's. History keys look at complete days before
/// today. Goals default to 10,000 (weekday) and the weekday goal (weekend); Saturday and Sunday
/// are the weekend.
public struct StepsSnapshotProvider: DictionaryKeySource {
    /// What the keys are made of: the snapshot as its schema reads it.
    public var snapshot: StepsFile.Reading
    let prefix = "__steps_"

    public static let defaultGoal: Double = 10_000

    /// The snapshot read through its schema (`StepsFile.read`, which tells `warn` about each field
    /// that is there but unusable); nil when there is none.
    public static func load(from root: StoreRoot, warn: (String) -> Void = { _ in }) -> StepsSnapshotProvider? {
        StepsFile.read(from: root, warn: warn).map(StepsSnapshotProvider.init(snapshot:))
    }

    public init(snapshot: StepsFile.Reading) { self.snapshot = snapshot }

    func goal(forDay dayNumber: Int) -> Double {
        let weekday = Self.weekdayIndex(dayNumber)
        let weekdayGoal = snapshot.goalWeekday ?? Self.defaultGoal
        return (weekday == 0 || weekday == 6) ? (snapshot.goalWeekend ?? weekdayGoal) : weekdayGoal
    }

    /// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
    static func weekdayIndex(_ dayNumber: Int) -> Int { ((dayNumber % 7) + 7 + 4) % 7 }

    static func whole(_ x: Double) -> String { NumberText.canonical(x.rounded(.toNearestOrAwayFromZero)) }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var v: [String: String] = [:]
        let todayNumber = CivilTime.local(context.now, in: context.timeZone).dayNumber
        let goalToday = goal(forDay: todayNumber)
        v["__steps_goal_weekday"] = Self.whole(snapshot.goalWeekday ?? Self.defaultGoal)
        v["__steps_goal_weekend"] = Self.whole(snapshot.goalWeekend ?? snapshot.goalWeekday ?? Self.defaultGoal)
        v["__steps_goal_today"] = Self.whole(goalToday)
        v["__steps_streak_rule"] = snapshot.streakRule ?? "daily goal"
        v["__steps_access"] = snapshot.access ?? "unknown"
        var hitToday = false
        if let today = snapshot.today, today.dayNumber == todayNumber {
            let fraction = today.steps / goalToday
            hitToday = today.steps >= goalToday
            v["__steps_today"] = Self.whole(today.steps)
            if let at = today.updatedAt { v["__steps_updated_iso"] = CivilTime.isoUTC(at, fractionalSeconds: false) }
            v["__steps_today_fraction"] = NumberText.canonical(fraction)
            v["__steps_today_percent"] = Self.whole(fraction * 100)
            v["__steps_goal_hit_today"] = hitToday ? "true" : "false"
        }
        guard let history = snapshot.history, !history.isEmpty else { return v }
        var stepsByDay: [Int: Double] = [:]
        for day in history where day.dayNumber < todayNumber { stepsByDay[day.dayNumber] = day.steps }
        // The streak counts consecutive goal days ending yesterday, plus today once today's goal is hit.
        var streak = hitToday ? 1 : 0
        var day = todayNumber - 1
        while let steps = stepsByDay[day], steps >= goal(forDay: day) {
            streak += 1
            day -= 1
        }
        v["__steps_streak"] = String(streak)
        for window in [7, 30] {
            let recorded = (1...window).compactMap { stepsByDay[todayNumber - $0] }
            guard !recorded.isEmpty else { continue }
            let mean = recorded.reduce(0, +) / Double(recorded.count)
            v["__steps_avg_\(window)"] = Self.whole(mean)
            v["__steps_avg_\(window)_exact"] = NumberText.canonical(mean)
        }
        if let best = stepsByDay.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) {
            let ymd = CivilTime.date(daysSinceEpoch: best.key)
            let civil = CivilTime(year: ymd.year, month: ymd.month, day: ymd.day)
            v["__steps_best_day"] = Self.whole(best.value)
            v["__steps_best_day_date_iso"] = civil.isoDate
            // Noon avoids a daylight-saving midnight gap moving the formatted day.
            var noon = civil
            noon.hour = 12
            v["__steps_best_day_date"] = formatters.date(pattern: nil).string(from: noon.instant(in: context.timeZone))
        }
        return v
    }
}
