import Foundation
import SharedStore

/// The files under the store's `snapshots/` folder: what the data sources (weather, calendar,
/// reminders, steps) publish and the variables engine and the renderer read. Their names were
/// string literals in three modules; a typo in one of them read as "no data" without a word.
public enum SnapshotFile: String, CaseIterable, Sendable {
    /// `weaver weather refresh`: location, current conditions, hourly/daily forecast, nowcast.
    case weather = "weather.json"
    /// `weaver calendar refresh`: the events that have not ended, soonest first.
    case calendar = "calendar.json"
    /// The reminders data source (its type lives next to this one, `RemindersSnapshot`).
    case reminders = "reminders.json"
    /// `weaver steps import`: daily step counts.
    case steps = "steps.json"
    /// `weaver steps import`: the activity summary (flights, distance, active energy).
    case activity = "activity.json"

    /// The file name inside `snapshots/`.
    public var fileName: String { rawValue }

    /// Where this snapshot lives in `root`.
    public func url(in root: StoreRoot) -> URL { root.snapshots.appendingPathComponent(rawValue) }
}
