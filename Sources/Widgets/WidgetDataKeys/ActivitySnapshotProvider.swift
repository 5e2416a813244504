import CivilDates
import Foundation
import SharedStore
import Snapshots
import TemplateLanguage

/// `__activity_*` keys from `snapshots/activity.json` (schema in docs/variables.md, "Built-in keys").
///
/// The "today" keys appear only when `today.date` is the render clock's local date. Distances
/// and energy have a rounded key (`__activity_distance_m`: whole metres; `__activity_distance_km`:
/// one decimal; `__activity_active_energy_kcal`: whole kcal) and an `_exact` key with the full value.
public struct ActivitySnapshotProvider: DictionaryKeySource {
    public var access: String?
    /// Days since 1970-01-01 of the `today` block.
    public var todayNumber: Int?
    public var updatedAt: Date?
    public var steps: Double?
    public var flights: Double?
    public var distanceMetres: Double?
    public var activeEnergyKcal: Double?
    let prefix = "__activity_"

    public init() {}

    /// The snapshot through its schema (`ActivityFile.read`).
    public static func load(from root: StoreRoot) -> ActivitySnapshotProvider? {
        guard let reading = ActivityFile.read(from: root) else { return nil }
        var p = ActivitySnapshotProvider()
        p.access = reading.access
        p.todayNumber = reading.todayNumber
        p.updatedAt = reading.updatedAt
        p.steps = reading.steps
        p.flights = reading.flights
        p.distanceMetres = reading.distanceMeters
        p.activeEnergyKcal = reading.activeEnergyKcal
        return p
    }

    static func whole(_ x: Double) -> String { NumberText.canonical(x.rounded(.toNearestOrAwayFromZero)) }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var v: [String: String] = ["__activity_access": access ?? "unknown"]
        guard let todayNumber, todayNumber == CivilTime.local(context.now, in: context.timeZone).dayNumber else {
            return v
        }
        if let at = updatedAt { v["__activity_updated_iso"] = CivilTime.isoUTC(at, fractionalSeconds: false) }
        if let steps { v["__activity_steps_today"] = Self.whole(steps) }
        if let flights { v["__activity_flights_today"] = Self.whole(flights) }
        if let m = distanceMetres {
            v["__activity_distance_m"] = Self.whole(m)
            v["__activity_distance_m_exact"] = NumberText.canonical(m)
            v["__activity_distance_km"] = NumberText.canonical(Filter.round(m / 1000, decimals: 1))
            v["__activity_distance_km_exact"] = NumberText.canonical(m / 1000)
        }
        if let kcal = activeEnergyKcal {
            v["__activity_active_energy_kcal"] = Self.whole(kcal)
            v["__activity_active_energy_kcal_exact"] = NumberText.canonical(kcal)
        }
        return v
    }
}
