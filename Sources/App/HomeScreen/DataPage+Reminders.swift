import DataSources
import Foundation
import SharedStore

/// The Data page's Reminders section: the sources `weaver reminders list` prints (name, kind,
/// tasks, last refresh, error), Remove, Refresh, and adding a todo.txt path, an .ics address or
/// an uploaded file (`ReminderSourceRoutes`). `weaver reminders` has no presentation settings
/// (which rows show is the Reminders design's own fields, set in the Editor).
extension DataPage {
    static func reminders(_ root: StoreRoot, now: Date) -> String {
        let e = Page.escape
        var notes: [String] = []
        let list = (try? RemindersService(root: root).list(note: { notes.append($0) })) ?? []
        var html =
            """
            <section class=\"card data-card\" id=\"reminders\" aria-labelledby=\"reminders-title\"><h2 \
            id=\"reminders-title\">Reminders</h2>\n
            """
        for n in notes { html += "<p class=\"review-warning\">\(e(n))</p>" }
        if list.isEmpty {
            html +=
                """
                <p class=\"muted\" id=\"reminders-empty\">No task lists yet: add a todo.txt file, an .ics address \
                with tasks, or upload one.</p>\n
                """
        } else {
            html +=
                """
                <table \
                id=\"reminder-sources\"><thead><tr><th>List</th><th>Tasks</th><th>Refreshed</th><th></th></tr></thead>\
                <tbody>\n
                """
            let uploads = root.url.appendingPathComponent("reminders/uploads").path + "/"
            for s in list {
                let kind = s.kind == .todoTxt ? "todo.txt" : "iCalendar"
                let shown = s.source.hasPrefix(uploads) ? "uploaded file" : s.source
                html +=
                    """
                    <tr data-reminders-id=\"\(e(s.id))\"><td><b>\(e(s.name))</b><br><span \
                    class=\"muted\">\(kind)\(s.isWeb ? ", read-only" : "") · \(e(shown))</span>
                    """
                if let error = s.lastError { html += "<br><span class=\"review-warning\">\(e(error))</span>" }
                html +=
                    """
                    </td><td \
                    class=\"task-count\">\(s.itemCount.map(String.init) ?? "–")</td><td>\
                    \(e(when(s.lastRefreshAt, now: now)))</td>
                    """
                html +=
                    """
                    <td><button type=\"button\" class=\"btn danger\" \
                    data-remove-reminders=\"\(e(s.id))\">Remove</button></td></tr>\n
                    """
            }
            html += "</tbody></table>\n"
        }
        html +=
            """
            <form id=\"reminders-source\" autocomplete=\"off\"><input type=\"text\" name=\"source\" \
            placeholder=\"~/todo.txt or https://…/tasks.ics\" aria-label=\"todo.txt path or task list address\" \
            required maxlength=\"2000\">
            """
        html += "<button class=\"btn primary\" type=\"submit\">Add</button></form>\n"
        html +=
            """
            <div class=\"row\"><label class=\"btn file-button\">Upload todo.txt or .ics…<input type=\"file\" \
            id=\"reminders-file\" accept=\".txt,.ics,text/plain,text/calendar\"></label>
            """
        html += "<button class=\"btn\" type=\"button\" id=\"reminders-refresh\">Refresh</button></div>\n"
        html +=
            """
            <img class=\"data-preview\" src=\"/api/explore/reminders.svg?family=medium\" alt=\"The Reminders \
            widget with these lists\" width=\"364\" height=\"170\">\n
            """
        html += "</section>\n"
        return html
    }
}
