import CivilDates
import Foundation
import SharedStore

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

extension ActivityFile {
    /// The snapshot as its reader takes it (the `__activity_*` keys): field by field through
    /// `SnapshotReader`, since another program may write it, with the fields other writers add
    /// (`flights`, `activeEnergyKcal`). The `today` fields count only with a `yyyy-MM-dd` date.
    public struct Reading: Sendable, Equatable {
        public var access: String?
        /// Days since 1970-01-01 of `today.date`; nil without a usable `today` (and then every
        /// `today` field below is nil).
        public var todayNumber: Int?
        public var updatedAt: Date?
        public var steps: Double?
        public var flights: Double?
        public var distanceMeters: Double?
        public var activeEnergyKcal: Double?

        public init() {}
    }

    /// Reads `snapshots/activity.json`; nil when it is absent or not a JSON object.
    public static func read(from root: StoreRoot) -> Reading? {
        guard let json = SnapshotReader.load(.activity, in: root) else { return nil }
        var reading = Reading()
        reading.access = json["access"]?.stringValue
        if let today = json["today"]?.objectValue, let day = today["date"]?.stringValue.flatMap(CivilCalendar.dayNumber)
        {
            reading.todayNumber = day
            reading.updatedAt = today["updatedAt"]?.dateValue
            reading.steps = today["steps"]?.finiteNumber
            reading.flights = today["flights"]?.finiteNumber
            reading.distanceMeters = today["distanceMeters"]?.finiteNumber
            reading.activeEnergyKcal = today["activeEnergyKcal"]?.finiteNumber
        }
        return reading
    }
}
