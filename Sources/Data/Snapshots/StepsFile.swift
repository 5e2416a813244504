import BoundedJSON
import CivilDates
import Foundation
import SharedStore

/// `snapshots/steps.json` as `weaver steps import` (DataSources) writes it, in the schema the
/// `__steps_*` keys (Variables' `StepsSnapshotProvider`) read through `StepsFile.read`
/// (docs/variables.md, "Built-in keys"), plus distance and active minutes per day for the steps
/// and activity widgets.
public struct StepsFile: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public struct Day: Codable, Sendable, Equatable {
        /// `yyyy-MM-dd`, local to the importer's time zone.
        public var date: String
        public var steps: Int
        public var distanceMeters: Double?
        public var activeMinutes: Double?
        public var updatedAt: Date?

        public init(
            date: String, steps: Int, distanceMeters: Double? = nil, activeMinutes: Double? = nil,
            updatedAt: Date? = nil
        ) {
            self.date = date
            self.steps = steps
            self.distanceMeters = distanceMeters
            self.activeMinutes = activeMinutes
            self.updatedAt = updatedAt
        }
    }

    public var schemaVersion: Int? = StepsFile.currentSchemaVersion
    public var access: String? = "authorized"
    public var source: String? = "import"
    public var goalWeekday: Int?
    public var goalWeekend: Int?
    public var streakRule: String? = "daily goal"
    public var today: Day?
    public var history: [Day]?
    public var importedAt: Date?

    public init() {}

    public static func url(in root: StoreRoot) -> URL { SnapshotFile.steps.url(in: root) }
}

extension StepsFile {
    /// The snapshot as its reader takes it (the `__steps_*` keys): read through `SnapshotReader`
    /// field by field, since another program may have written it. Steps and goals keep their
    /// fractions (an exporter's sum of several sources); days carry their day numbers.
    public struct Reading: Sendable, Equatable {
        public struct Day: Sendable, Equatable {
            /// Days since 1970-01-01 of the day's `yyyy-MM-dd`.
            public var dayNumber: Int
            public var steps: Double
            public var updatedAt: Date?

            public init(dayNumber: Int, steps: Double, updatedAt: Date? = nil) {
                self.dayNumber = dayNumber
                self.steps = steps
                self.updatedAt = updatedAt
            }
        }

        public var access: String?
        public var goalWeekday: Double?
        public var goalWeekend: Double?
        public var streakRule: String?
        public var today: Day?
        /// nil when the snapshot has no history array; days without a usable date or count are left out.
        public var history: [Day]?

        public init() {}
    }

    /// Reads `snapshots/steps.json`; nil when it is absent or not a JSON object. `warn` hears each
    /// field that is there but unusable (`"steps": "lots"`), naming the file and the field: what it
    /// would give is left out, which otherwise shows only as "--".
    public static func read(from root: StoreRoot, warn: (String) -> Void = { _ in }) -> Reading? {
        let url = url(in: root)
        guard let json = SnapshotReader.load(url) else { return nil }
        func problem(_ field: String, _ expected: String, _ value: JSONValue?) {
            warn("\(url.path): '\(field)' must be \(expected); got \(value?.described ?? "nothing") (ignored)")
        }
        var reading = Reading()
        reading.access = json["access"]?.stringValue
        for (field, keyPath) in [("goalWeekday", \Reading.goalWeekday), ("goalWeekend", \Reading.goalWeekend)] {
            guard let value = json[field] else { continue }
            if let goal = value.finiteNumber, goal > 0 {
                reading[keyPath: keyPath] = goal
            } else {
                problem(field, "a number of steps above 0", value)
            }
        }
        reading.streakRule = json["streakRule"]?.stringValue
        if let today = json["today"] {
            if let t = today.objectValue {
                let day = t["date"]?.stringValue.flatMap(CivilCalendar.dayNumber)
                if day == nil { problem("today.date", "a date yyyy-MM-dd", t["date"]) }
                let steps = t["steps"]?.finiteNumber.flatMap { $0 >= 0 ? $0 : nil }
                if steps == nil { problem("today.steps", "a number of steps, 0 or more", t["steps"]) }
                if let day, let steps {
                    reading.today = Reading.Day(dayNumber: day, steps: steps, updatedAt: t["updatedAt"]?.dateValue)
                }
            } else {
                problem("today", "an object like {\"date\": \"2026-01-24\", \"steps\": 6500}", today)
            }
        }
        if let history = json["history"], history.arrayValue == nil {
            problem("history", "an array of {\"date\", \"steps\"} days", history)
        }
        var skipped: [Int] = []
        reading.history = json["history"]?.arrayValue.map { entries in
            entries.enumerated().compactMap { index, entry in
                guard let day = entry["date"]?.stringValue.flatMap(CivilCalendar.dayNumber),
                    let steps = entry["steps"]?.finiteNumber, steps >= 0
                else {
                    skipped.append(index)
                    return nil
                }
                return Reading.Day(dayNumber: day, steps: steps)
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
        return reading
    }
}

extension StepsFile {
    /// The snapshot as `weaver steps goal` and `weaver steps import` rewrite it, and the Data page
    /// shows it: kept, field by field, whatever its reader (`read`, the `__steps_*` keys) would
    /// take, so that a file the keys show is never set aside as unreadable. A day needs a date and
    /// a number of steps; fractional steps and goals (an exporter's sum of several sources) are
    /// rounded to the whole steps this schema stores. Throws only when the file is not a JSON
    /// object (which the keys do not read either).
    public static func decodeTolerantly(_ data: Data) throws -> StepsFile {
        let json = try JSONValue.parse(data, limits: SnapshotReader.limits)
        guard case .object = json else { throw NotAnObject() }
        /// Whole steps, or nil for what no count can be (negative, not finite, beyond any day).
        func wholeSteps(_ value: JSONValue?) -> Int? {
            guard let number = value?.finiteNumber, number >= 0, number < 1e12 else { return nil }
            return Int(number.rounded())
        }
        func day(_ entry: JSONValue) -> Day? {
            guard let date = entry["date"]?.stringValue, let steps = wholeSteps(entry["steps"]) else { return nil }
            return Day(
                date: date, steps: steps, distanceMeters: entry["distanceMeters"]?.finiteNumber,
                activeMinutes: entry["activeMinutes"]?.finiteNumber, updatedAt: entry["updatedAt"]?.dateValue)
        }
        var file = StepsFile()
        file.schemaVersion = json["schemaVersion"]?.finiteNumber.flatMap { Int(exactly: $0) }
        file.access = json["access"]?.stringValue
        file.source = json["source"]?.stringValue
        file.goalWeekday = wholeSteps(json["goalWeekday"]).map { max($0, 1) }
        file.goalWeekend = wholeSteps(json["goalWeekend"]).map { max($0, 1) }
        file.streakRule = json["streakRule"]?.stringValue
        file.today = json["today"].flatMap(day)
        file.history = json["history"]?.arrayValue.map { $0.compactMap(day) }
        file.importedAt = json["importedAt"]?.dateValue
        return file
    }

    struct NotAnObject: Error, CustomStringConvertible {
        var description: String { "not a JSON object" }
    }
}
