import Foundation
import SharedStore

/// `snapshots/steps.json` as `weaver steps import` (DataSources) writes it, in the schema the
/// `__steps_*` keys (Variables' `StepsSnapshotProvider`) read (docs/variables.md, "Built-in
/// keys"), plus distance and active minutes per day for the steps and activity widgets.
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

/// `snapshots/activity.json`: today's distance and steps for the `__activity_*` keys (Variables'
/// `ActivitySnapshotProvider`), written with `steps.json` by `weaver steps import`.
public struct ActivityFile: Codable, Sendable, Equatable {
    public struct Today: Codable, Sendable, Equatable {
        public var date: String
        public var updatedAt: Date
        public var steps: Int
        public var distanceMeters: Double?
        public var activeMinutes: Double?

        public init(date: String, updatedAt: Date, steps: Int, distanceMeters: Double?, activeMinutes: Double?) {
            self.date = date
            self.updatedAt = updatedAt
            self.steps = steps
            self.distanceMeters = distanceMeters
            self.activeMinutes = activeMinutes
        }
    }
    public var schemaVersion = 1
    public var access = "authorized"
    public var source = "import"
    public var today: Today

    public init(today: Today) { self.today = today }

    public static func url(in root: StoreRoot) -> URL { SnapshotFile.activity.url(in: root) }
}
