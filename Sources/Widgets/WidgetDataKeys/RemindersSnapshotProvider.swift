import CivilDates
import Foundation
import SharedStore
import Snapshots
import TemplateLanguage

/// `__reminders_*` keys from `snapshots/reminders.json` (`weaver reminders refresh`), for any
/// design: how many are open, due today, overdue and done today, the next one's title and due,
/// and the progress of today's reminders. Chosen at render time with the snapshot's own rules
/// (`ReminderDays`), so a snapshot written an hour ago still counts "overdue" at the render clock.
public struct RemindersSnapshotProvider: DictionaryKeySource {
    public var snapshot: RemindersSnapshot
    let prefix = "__reminders_"

    public init(snapshot: RemindersSnapshot) { self.snapshot = snapshot }

    public static func load(from root: StoreRoot) -> RemindersSnapshotProvider? {
        RemindersSnapshot.load(from: root).map(RemindersSnapshotProvider.init)
    }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var v: [String: String] = [:]
        let days = ReminderDays(now: context.now, timeZone: context.timeZone)
        let items = snapshot.items
        let open = items.filter { !$0.done }
        let overdue = open.filter(days.isOverdue)
        let dueToday = open.filter(days.isDueToday)
        let doneToday = items.filter(days.isCompletedToday)
        // Today's scope as the Today mode draws it: overdue, due today, and done today.
        let todayScope = items.filter { days.isOverdue($0) || days.isDueToday($0) || days.isCompletedToday($0) }
        let todayDone = todayScope.filter(\.done).count
        v["__reminders_open_count"] = String(open.count)
        v["__reminders_today_count"] = String(dueToday.count)
        v["__reminders_overdue_count"] = String(overdue.count)
        v["__reminders_done_today_count"] = String(doneToday.count)
        v["__reminders_priority_count"] = String(open.filter(\.isPriority).count)
        v["__reminders_progress"] = "\(todayDone)/\(todayScope.count)"
        v["__reminders_progress_percent"] =
            todayScope.isEmpty ? "100" : String(Int((Double(todayDone) / Double(todayScope.count) * 100).rounded()))
        v["__reminders_updated_iso"] = CivilTime.isoUTC(snapshot.updatedAt, fractionalSeconds: false)
        v["__reminders_stale"] = snapshot.isStale(at: context.now) ? "true" : "false"
        if let e = snapshot.lastError, !e.isEmpty { v["__reminders_error"] = e }
        // Next: the most pressing open one (overdue first, then the soonest due, then undated).
        let ordered = days.ordered(overdue) + days.ordered(open.filter { !days.isOverdue($0) })
        v["__reminders_has_next"] = ordered.isEmpty ? "false" : "true"
        if let next = ordered.first {
            v["__reminders_next_title"] = next.title
            if let l = next.list { v["__reminders_next_list"] = l }
            if let due = next.due {
                v["__reminders_next_due_iso"] =
                    next.dueIsDate == true
                    ? (next.dueDay ?? CivilTime.local(due, in: context.timeZone).isoDate)
                    : CivilTime.isoUTC(due, fractionalSeconds: false)
                v["__reminders_next_due"] =
                    next.dueIsDate == true
                    ? (next.dueDay ?? CivilTime.local(due, in: context.timeZone).isoDate)
                    : CivilTime.local(due, in: context.timeZone).hourMinute
                v["__reminders_next_overdue"] = days.isOverdue(next) ? "true" : "false"
            }
        }
        return v
    }
}
