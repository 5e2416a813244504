import DataSources
import Foundation
import SharedStore

/// The state of each data source as Explore's set-up cards and the Data page show it: configured
/// or not, the last refresh, the last error. Read from the files the services write (never a
/// network request), through the services' own readers.
struct DataStatus {
    enum State: String {
        case ok, error, unconfigured
    }

    var id: String
    var title: String
    var state: State
    var summary: String
    var detail: String?
    var link: String

    static func read(_ root: StoreRoot, now: Date) -> [DataStatus] {
        [weather(root, now: now), calendar(root, now: now), steps(root), reminders(root, now: now)]
    }

    static func ago(_ date: Date, now: Date) -> String {
        WeatherService.age(max(0, now.timeIntervalSince(date))) + " ago"
    }

    static func weather(_ root: StoreRoot, now: Date) -> DataStatus {
        var s = DataStatus(
            id: "weather", title: "Weather", state: .unconfigured, summary: "No location set", link: "/data#weather")
        guard let file = try? WeatherService(root: root, api: OpenMeteo()).load(), let location = file.location else {
            return s
        }
        s.summary = location.name
        if let error = file.refresh.lastError {
            s.state = .error
            s.detail = "Last refresh failed: \(error)"
        } else if let fetched = file.snapshot?.fetchedAt {
            s.state = .ok
            s.detail = "Refreshed \(ago(fetched, now: now))"
        } else {
            s.state = .ok
            s.detail = "Not refreshed yet"
        }
        return s
    }

    static func calendar(_ root: StoreRoot, now: Date) -> DataStatus {
        sources(
            id: "calendar", title: "Calendar", none: "No calendars added", try? CalendarService(root: root).list(),
            now: now
        ) { list in "\(list.count) calendar\(list.count == 1 ? "" : "s")" }
    }

    /// A source list's card, the same for calendars and task lists: `none` until one is added,
    /// then the list's `summary` and its health: the first failing source with its error, else
    /// the latest refresh.
    static func sources<E: SourceListEntry>(
        id: String, title: String, none: String, _ list: [E]?, now: Date, summary: ([E]) -> String
    ) -> DataStatus {
        var s = DataStatus(id: id, title: title, state: .unconfigured, summary: none, link: "/data#\(id)")
        guard let list, !list.isEmpty else { return s }
        s.summary = summary(list)
        s.showHealth(of: list, now: now)
        return s
    }

    private mutating func showHealth(of list: [some SourceListEntry], now: Date) {
        let failing = list.first { $0.lastError != nil }
        state = failing == nil ? .ok : .error
        if let failing, let error = failing.lastError {
            detail = "\(failing.name): \(error)"
        } else if let last = list.compactMap(\.lastRefreshAt).max() {
            detail = "Refreshed \(Self.ago(last, now: now))"
        } else {
            detail = "Not refreshed yet"
        }
    }

    static func steps(_ root: StoreRoot) -> DataStatus {
        var s = DataStatus(
            id: "steps", title: "Steps", state: .unconfigured, summary: "No steps imported", link: "/data#steps")
        guard let file = try? StepsService(root: root).load(), let history = file.history, !history.isEmpty else {
            return s
        }
        s.state = .ok
        s.summary =
            "\(history.count) day\(history.count == 1 ? "" : "s") (\(history.first!.date) … \(history.last!.date))"
        s.detail = "Goal \(file.goalWeekday ?? 10_000) steps"
        s.link = "/data/steps"
        return s
    }

    /// Reminders: the task lists `weaver reminders list` shows, the first failing one, or the
    /// latest refresh.
    static func reminders(_ root: StoreRoot, now: Date) -> DataStatus {
        sources(
            id: "reminders", title: "Reminders", none: "No task lists added", try? RemindersService(root: root).list(),
            now: now
        ) { list in
            let tasks = list.compactMap(\.itemCount).reduce(0, +)
            return "\(list.count) list\(list.count == 1 ? "" : "s"), \(tasks) task\(tasks == 1 ? "" : "s")"
        }
    }
}
