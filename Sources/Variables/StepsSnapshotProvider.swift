import Foundation
import SharedStore
import Snapshots

/// `__steps_*` keys from `snapshots/steps.json` (schema in docs/variables.md, "Built-in keys").
///
/// The "today" keys appear only when the snapshot's `today.date` is the render clock's local
/// date: yesterday's count must not show as today's. History keys look at complete days before
/// today. Goals default to 10,000 (weekday) and the weekday goal (weekend); Saturday and Sunday
/// are the weekend.
public struct StepsSnapshotProvider: DictionaryKeySource {
    public struct Day: Sendable, Equatable {
        /// Days since 1970-01-01.
        public var dayNumber: Int
        public var steps: Double
        public init(dayNumber: Int, steps: Double) {
            self.dayNumber = dayNumber
            self.steps = steps
        }
    }

    public var access: String?
    public var goalWeekday: Double?
    public var goalWeekend: Double?
    public var streakRule: String?
    public var today: Day?
    public var todayUpdatedAt: Date?
    /// nil when the snapshot has no history array.
    public var history: [Day]?
    let prefix = "__steps_"

    public static let defaultGoal: Double = 10_000

    /// `warn` hears each field that is there but unusable (`"steps": "lots"`), naming the file and
    /// the field: the keys it would give are left out, which otherwise shows only as "--".
    public static func load(from root: StoreRoot, warn: (String) -> Void = { _ in }) -> StepsSnapshotProvider? {
        let url = SnapshotFile.steps.url(in: root)
        guard let json = SnapshotReader.load(url) else { return nil }
        func problem(_ field: String, _ expected: String, _ value: JSONValue?) {
            warn("\(url.path): '\(field)' must be \(expected); got \(value?.described ?? "nothing") (ignored)")
        }
        var p = StepsSnapshotProvider()
        p.access = json["access"]?.stringValue
        for (field, keyPath) in [
            ("goalWeekday", \StepsSnapshotProvider.goalWeekday), ("goalWeekend", \StepsSnapshotProvider.goalWeekend),
        ] {
            guard let value = json[field] else { continue }
            if let goal = value.finiteNumber, goal > 0 {
                p[keyPath: keyPath] = goal
            } else {
                problem(field, "a number of steps above 0", value)
            }
        }
        p.streakRule = json["streakRule"]?.stringValue
        if let today = json["today"] {
            if let t = today.objectValue {
                let day = t["date"]?.stringValue.flatMap(CivilTime.dayNumber)
                if day == nil { problem("today.date", "a date yyyy-MM-dd", t["date"]) }
                let steps = t["steps"]?.finiteNumber.flatMap { $0 >= 0 ? $0 : nil }
                if steps == nil { problem("today.steps", "a number of steps, 0 or more", t["steps"]) }
                if let day, let steps {
                    p.today = Day(dayNumber: day, steps: steps)
                    p.todayUpdatedAt = t["updatedAt"]?.dateValue
                }
            } else {
                problem("today", "an object like {\"date\": \"2026-01-24\", \"steps\": 6500}", today)
            }
        }
        if let history = json["history"], history.arrayValue == nil {
            problem("history", "an array of {\"date\", \"steps\"} days", history)
        }
        var skipped: [Int] = []
        p.history = json["history"]?.arrayValue.map { entries in
            entries.enumerated().compactMap { index, entry in
                guard let day = entry["date"]?.stringValue.flatMap(CivilTime.dayNumber),
                    let steps = entry["steps"]?.finiteNumber, steps >= 0
                else {
                    skipped.append(index)
                    return nil
                }
                return Day(dayNumber: day, steps: steps)
            }
        }
        if let first = skipped.first {
            warn(
                """
                \(url.path): \(skipped.count) of the 'history' days lack a date yyyy-MM-dd or a number of steps \
                (the first is history[\(first)]); they are left out
                """
            )
        }
        return p
    }

    public init() {}

    func goal(forDay dayNumber: Int) -> Double {
        let weekday = Self.weekdayIndex(dayNumber)
        let weekdayGoal = goalWeekday ?? Self.defaultGoal
        return (weekday == 0 || weekday == 6) ? (goalWeekend ?? weekdayGoal) : weekdayGoal
    }

    /// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
    static func weekdayIndex(_ dayNumber: Int) -> Int { ((dayNumber % 7) + 7 + 4) % 7 }

    static func whole(_ x: Double) -> String { NumberText.canonical(x.rounded(.toNearestOrAwayFromZero)) }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var v: [String: String] = [:]
        let todayNumber = CivilTime.local(context.now, in: context.timeZone).dayNumber
        let goalToday = goal(forDay: todayNumber)
        v["__steps_goal_weekday"] = Self.whole(goalWeekday ?? Self.defaultGoal)
        v["__steps_goal_weekend"] = Self.whole(goalWeekend ?? goalWeekday ?? Self.defaultGoal)
        v["__steps_goal_today"] = Self.whole(goalToday)
        v["__steps_streak_rule"] = streakRule ?? "daily goal"
        v["__steps_access"] = access ?? "unknown"
        var hitToday = false
        if let today, today.dayNumber == todayNumber {
            let fraction = today.steps / goalToday
            hitToday = today.steps >= goalToday
            v["__steps_today"] = Self.whole(today.steps)
            if let at = todayUpdatedAt { v["__steps_updated_iso"] = CivilTime.isoUTC(at, fractionalSeconds: false) }
            v["__steps_today_fraction"] = NumberText.canonical(fraction)
            v["__steps_today_percent"] = Self.whole(fraction * 100)
            v["__steps_goal_hit_today"] = hitToday ? "true" : "false"
        }
        guard let history, !history.isEmpty else { return v }
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
