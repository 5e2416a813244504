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
        return sourceSection(
            "reminders", list, notes: notes, now: now, row: "reminderRow", rows: "reminderSources",
            none: "noReminders"
        ) { s in
            [
                "kind": s.kind == .todoTxt ? "todo.txt" : "iCalendar",
                "readOnly": s.isWeb ? t.render("readOnly") : .empty,
                "source": s.source.hasPrefix(uploads) ? "uploaded file" : s.source,
                "tasks": s.itemCount.map(String.init) ?? "–",
            ]
        }
    }
}
