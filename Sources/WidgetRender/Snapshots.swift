import Foundation
import SharedStore
import Snapshots

/// The calendar snapshot under the renderer's name: one type, Snapshots' `CalendarSnapshot`
/// (written by `weaver calendar refresh`, read here and by the `__calendar_*` keys).
public typealias CalendarSnapshot = Snapshots.CalendarSnapshot

/// The reminders snapshot (`snapshots/reminders.json`):
/// `{"schemaVersion":1, "items":[{"title","done"?,"due"?}]}`.
public struct RemindersSnapshot: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public var title: String
        public var done: Bool
        public var due: Date?
        public init(title: String, done: Bool = false, due: Date? = nil) { self.title = title; self.done = done; self.due = due }
    }
    public var items: [Item]
    public var updatedAt: Date?
    public init(items: [Item], updatedAt: Date? = nil) { self.items = items; self.updatedAt = updatedAt }

    public static func load(from root: StoreRoot) -> RemindersSnapshot? {
        guard let json = SnapshotReader.load(.reminders, in: root) else { return nil }
        var items: [Item] = []
        if case .array(let list)? = json["items"] {
            for item in list.prefix(500) {
                guard let title = item["title"]?.stringValue else { continue }
                var done = false
                if case .bool(let b)? = item["done"] { done = b }
                items.append(Item(title: title, done: done, due: item["due"]?.dateValue))
            }
        }
        return RemindersSnapshot(items: items, updatedAt: json["updatedAt"]?.dateValue)
    }
}
