import CivilDates
import DataSources
import Foundation
import SharedStore
import WidgetDesign

/// The Data page's HTML: Weather, Calendar, Steps and Reminders set-up, each showing what the
/// store holds now (read through the services' readers) and the forms whose requests are the
/// CLI verbs (`DataRoutes`).
enum DataPage {
    static func page(root: StoreRoot, now: Date, token: String) -> String {
        var html = "<h1 class=\"page-title\">Data</h1>\n"
        html += "<p class=\"page-lede\">Where the widgets' weather, events, steps and reminders come from.</p>\n"
        html += "<p id=\"notice\" class=\"notice\" role=\"status\" hidden><span id=\"notice-text\"></span></p>\n"
        html += "<div class=\"data-grid\">\n"
        html += weather(root, now: now) + calendar(root, now: now) + steps(root) + reminders(root, now: now)
        html += "</div>\n"
        return AppShell.page(
            title: "Data", active: .data, token: token, body: html,
            stylesheets: ["/static/pages.css"], scripts: ["/static/data.js"])
    }

    static func when(_ date: Date?, now: Date) -> String {
        guard let date else { return "never" }
        return DataStatus.ago(date, now: now) + " ("
            + ISODate.format(date).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC)"
    }

    static func weather(_ root: StoreRoot, now: Date) -> String {
        let e = Page.escape
        var notes: [String] = []
        let file = try? WeatherService(root: root, api: OpenMeteo()).load(note: { notes.append($0) })
        var html =
            """
            <section class=\"card data-card\" id=\"weather\" aria-labelledby=\"weather-title\"><h2 \
            id=\"weather-title\">Weather</h2>\n
            """
        for n in notes { html += "<p class=\"review-warning\">\(e(n))</p>" }
        if let f = file ?? nil, let l = f.location {
            html +=
                """
                <p>Location: <b id=\"weather-location\">\(e(l.name))</b> <span \
                class=\"muted\">(\(String(format: "%.4f, %.4f", l.latitude, l.longitude)))</span></p>\n
                """
            html +=
                """
                <p class=\"muted\">Last fetch: <span \
                id=\"weather-fetched\">\(e(when(f.snapshot?.fetchedAt, now: now)))</span>
                """
            if let s = f.snapshot { html += " · \(e(s.condition)), \(Int(s.temperatureC.rounded()))°C" }
            html += "</p>\n"
            if let error = f.refresh.lastError {
                html += "<p class=\"review-warning\" id=\"weather-error\">Last refresh failed: \(e(error))</p>\n"
            }
            html +=
                """
                <p class=\"muted\">Weather data by <a href=\"\(e(f.attribution.url))\" \
                rel=\"noreferrer\">\(e(f.attribution.name))</a> (\(e(f.attribution.licence))).</p>\n
                """
        } else {
            html += "<p class=\"muted\" id=\"weather-location\">No location set yet.</p>\n"
        }
        html +=
            """
            <form id=\"weather-name\" autocomplete=\"off\"><label class=\"visually-hidden\" \
            for=\"place\">Place</label>
            """
        html +=
            """
            <input type=\"search\" id=\"place\" name=\"name\" placeholder=\"Search a place, e.g. Dublin\" required \
            maxlength=\"200\">
            """
        html += "<button class=\"btn primary\" type=\"submit\">Set location</button></form>\n"
        html += "<ul class=\"choices\" id=\"place-choices\" aria-label=\"Places with that name\"></ul>\n"
        html += "<form id=\"weather-coordinates\" autocomplete=\"off\">"
        html +=
            """
            <input type=\"number\" name=\"latitude\" step=\"any\" min=\"-90\" max=\"90\" placeholder=\"Latitude\" \
            aria-label=\"Latitude\" required>
            """
        html +=
            """
            <input type=\"number\" name=\"longitude\" step=\"any\" min=\"-180\" max=\"180\" \
            placeholder=\"Longitude\" aria-label=\"Longitude\" required>
            """
        html += "<button class=\"btn\" type=\"submit\">Use coordinates</button></form>\n"
        html += "<div class=\"row\"><button class=\"btn\" type=\"button\" id=\"weather-refresh\">Refresh now</button>"
        // The switch shows what the files say now; turning it calls what `weaver weather autorefresh` does.
        let method = RefreshTimer(target: .resolve(executable: URL(fileURLWithPath: "/"), storePath: nil))
            .installedMethod
        let how = method.map { $0 == .systemd ? "systemd timer" : "at login (XDG autostart)" }
        html +=
            """
            <label for=\"autorefresh-switch\"><input type=\"checkbox\" role=\"switch\" \
            id=\"autorefresh-switch\"\(method == nil ? "" : " checked")>\u{20}
            """
        html +=
            """
            Auto-refresh every \(RefreshTimer.intervalMinutes) min</label> <span class=\"muted\" \
            id=\"autorefresh\"><b>\(method == nil ? "off" : "on")</b>\(how.map { " · \($0)" } ?? "")</span></div>\n
            """
        html +=
            """
            <img class=\"data-preview\" src=\"/api/explore/weather.svg?family=medium\" alt=\"The weather widget \
            with this data\" width=\"364\" height=\"170\">\n
            """
        html += "</section>\n"
        return html
    }

    static func calendar(_ root: StoreRoot, now: Date) -> String {
        let e = Page.escape
        var notes: [String] = []
        let list = (try? CalendarService(root: root).list(note: { notes.append($0) })) ?? []
        var html =
            """
            <section class=\"card data-card\" id=\"calendar\" aria-labelledby=\"calendar-title\"><h2 \
            id=\"calendar-title\">Calendar</h2>\n
            """
        for n in notes { html += "<p class=\"review-warning\">\(e(n))</p>" }
        if list.isEmpty {
            html +=
                "<p class=\"muted\" id=\"calendar-empty\">No calendars yet: add an .ics address or upload a file.</p>\n"
        } else {
            html +=
                """
                <table \
                id=\"calendars\"><thead><tr><th>Calendar</th><th>Events</th><th>Refreshed</th><th></th></tr></thead>\
                <tbody>\n
                """
            for c in list {
                html +=
                    """
                    <tr data-calendar-id=\"\(e(c.id))\"><td><b>\(e(c.name))</b><br><span \
                    class=\"muted\">\(c.isWeb ? e(c.source) : "uploaded file")</span>
                    """
                if let error = c.lastError { html += "<br><span class=\"review-warning\">\(e(error))</span>" }
                html +=
                    """
                    </td><td \
                    class=\"event-count\">\(c.eventCount.map(String.init) ?? "–")</td><td>\
                    \(e(when(c.lastRefreshAt, now: now)))</td>
                    """
                html +=
                    """
                    <td><button type=\"button\" class=\"btn danger\" \
                    data-remove-calendar=\"\(e(c.id))\">Remove</button></td></tr>\n
                    """
            }
            html += "</tbody></table>\n"
        }
        html +=
            """
            <form id=\"calendar-url\" autocomplete=\"off\"><input type=\"url\" name=\"url\" \
            placeholder=\"https://…/calendar.ics\" aria-label=\"Calendar address\" required>
            """
        html += "<button class=\"btn primary\" type=\"submit\">Add</button></form>\n"
        html +=
            """
            <div class=\"row\"><label class=\"btn file-button\">Upload .ics…<input type=\"file\" \
            id=\"calendar-file\" accept=\".ics,text/calendar\"></label>
            """
        html += "<button class=\"btn\" type=\"button\" id=\"calendar-refresh\">Refresh</button></div>\n"
        html +=
            """
            <img class=\"data-preview\" src=\"/api/explore/next-up.svg?family=medium\" alt=\"The Next Up widget \
            with these calendars\" width=\"364\" height=\"170\">\n
            """
        html += "</section>\n"
        return html
    }

    static func steps(_ root: StoreRoot) -> String {
        let file = (try? StepsService(root: root).load()) ?? nil
        var html =
            """
            <section class=\"card data-card\" id=\"steps\" aria-labelledby=\"steps-title\"><h2 \
            id=\"steps-title\">Steps</h2>\n
            """
        if let history = file?.history, let first = history.first, let last = history.last {
            html +=
                """
                <p id=\"steps-summary\">\(history.count) day\(history.count == 1 ? "" : "s") recorded \
                (\(first.date) … \(last.date)).\u{20}
                """
            html += "<a href=\"/data/steps\">Steps History</a></p>\n"
        } else {
            html +=
                """
                <p class=\"muted\" id=\"steps-summary\">No steps yet: import a CSV \
                (date,steps[,distance_m,active_min]) or JSON file.</p>\n
                """
        }
        html +=
            """
            <div class=\"row\"><label class=\"btn primary file-button\">Import steps…<input type=\"file\" \
            id=\"steps-file\" accept=\".csv,.json,text/csv,application/json\"></label></div>\n
            """
        let weekday = file?.goalWeekday ?? 10_000
        // Each label travels with its input (`.field`): wrapped apart, "Weekend" ended a line
        // with its box alone on the next.
        html +=
            """
            <form id=\"steps-goal\" autocomplete=\"off\"><span class=\"field\"><label for=\"goal-weekday\">Daily \
            goal</label>
            """
        html +=
            """
            <input type=\"number\" id=\"goal-weekday\" name=\"weekday\" min=\"1\" max=\"200000\" step=\"1\" \
            value=\"\(weekday)\" required></span>
            """
        html += "<span class=\"field\"><label for=\"goal-weekend\">Weekend</label>"
        html +=
            """
            <input type=\"number\" id=\"goal-weekend\" name=\"weekend\" min=\"1\" max=\"200000\" step=\"1\" \
            value=\"\(file?.goalWeekend ?? weekday)\"></span>
            """
        html += "<button class=\"btn\" type=\"submit\">Set goal</button></form>\n"
        html += "</section>\n"
        return html
    }
}
