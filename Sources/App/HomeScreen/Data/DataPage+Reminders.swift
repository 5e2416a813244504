import DataSources
import Foundation
import SharedStore

/// The Data page's Reminders section: the sources `weaver reminders list` prints (name, kind,
/// tasks, last refresh, error), Remove, Refresh, and adding a todo.txt path, an .ics address or
/// an uploaded file (`ReminderSourceRoutes`). `weaver reminders` has no presentation settings
/// (which rows show is the Reminders design's own fields, set in the Editor).
extension DataPage {
    static func reminders(_ root: StoreRoot, now: Date) -> HTML {
        let t = templates
        var notes: [String] = []
        let list = (try? RemindersService(root: root).list(note: { notes.append($0) })) ?? []
        let uploads = root.url.appendingPathComponent("reminders/uploads").path + "/"
        let rows = list.map { s in
            t.render(
                "reminderRow",
                [
                    "id": s.id, "name": s.name, "kind": s.kind == .todoTxt ? "todo.txt" : "iCalendar",
                    "readOnly": s.isWeb ? t.render("readOnly") : .empty,
                    "source": s.source.hasPrefix(uploads) ? "uploaded file" : s.source,
                    "error": s.lastError.map { t.render("rowError", ["error": $0]) } ?? .empty,
                    "tasks": s.itemCount.map(String.init) ?? "–", "refreshed": when(s.lastRefreshAt, now: now),
                ])
        }
        return t.render(
            "reminders",
            [
                "notes": warnings(notes),
                "list": list.isEmpty ? t.render("noReminders") : t.render("reminderSources", ["rows": rows]),
            ])
    }
}
