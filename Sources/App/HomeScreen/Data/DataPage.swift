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
        let sections = [weather(root, now: now), calendar(root, now: now), steps(root), reminders(root, now: now)]
        let html = templates.render("data", ["sections": sections])
        return AppShell.page(
            title: "Data", active: .data, token: token, body: html.description,
            stylesheets: ["/static/pages.css"], scripts: ["/static/data.js"])
    }

    static let templates = HTMLTemplates(PackageResources.data_html, file: "Data/data.html")

    /// What a service noted while reading its files (a file set aside, say), shown at the top of its card.
    static func warnings(_ notes: [String]) -> [HTML] {
        notes.map { templates.render("warning", ["note": $0]) }
    }

    static func when(_ date: Date?, now: Date) -> String {
        guard let date else { return "never" }
        return DataStatus.ago(date, now: now) + " ("
            + ISODate.format(date).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC)"
    }

    static func weather(_ root: StoreRoot, now: Date) -> HTML {
        let t = templates
        var notes: [String] = []
        let file = try? WeatherService(root: root, api: OpenMeteo()).load(note: { notes.append($0) })
        var location = t.render("noLocation")
        if let f = file ?? nil, let l = f.location {
            let current = f.snapshot.map {
                t.render("now", ["condition": $0.condition, "temperature": Int($0.temperatureC.rounded())])
            }
            location = t.render(
                "location",
                [
                    "name": l.name, "coordinates": String(format: "%.4f, %.4f", l.latitude, l.longitude),
                    "fetched": when(f.snapshot?.fetchedAt, now: now), "now": current ?? .empty,
                    "error": f.refresh.lastError.map { t.render("weatherError", ["error": $0]) } ?? .empty,
                    "url": f.attribution.url, "source": f.attribution.name, "licence": f.attribution.licence,
                ])
        }
        // The switch shows what the files say now; turning it calls what `weaver weather autorefresh` does.
        let method = RefreshTimer(target: .resolve(executable: URL(fileURLWithPath: "/"), storePath: nil))
            .installedMethod
        let how = method.map { $0 == .systemd ? "systemd timer" : "at login (XDG autostart)" }
        return t.render(
            "weather",
            [
                "notes": warnings(notes), "location": location, "checked": method == nil ? .empty : t.render("checked"),
                "minutes": RefreshTimer.intervalMinutes, "onOff": method == nil ? "off" : "on",
                "how": how.map { t.render("how", ["how": $0]) } ?? .empty,
            ])
    }

    static func calendar(_ root: StoreRoot, now: Date) -> HTML {
        var notes: [String] = []
        let list = (try? CalendarService(root: root).list(note: { notes.append($0) })) ?? []
        return sourceSection(
            "calendar", list, notes: notes, now: now, row: "calendarRow", rows: "calendars", none: "noCalendars"
        ) { c in
            ["source": c.isWeb ? c.source : "uploaded file", "events": c.eventCount.map(String.init) ?? "–"]
        }
    }

    /// A source list's section (calendars, task lists): the list's notes, then a `row` per source
    /// with what every list shows (id, name, its error, last refresh) and its own `fields`, inside
    /// `rows`; `none` when the list is empty.
    static func sourceSection<E: SourceListEntry>(
        _ section: String, _ list: [E], notes: [String], now: Date, row: String, rows: String, none: String,
        fields: (E) -> [String: any HTMLValue]
    ) -> HTML {
        let t = templates
        let rowsHTML = list.map { e in
            let common: [String: any HTMLValue] = [
                "id": e.id, "name": e.name,
                "error": e.lastError.map { t.render("rowError", ["error": $0]) } ?? .empty,
                "refreshed": when(e.lastRefreshAt, now: now),
            ]
            return t.render(row, common.merging(fields(e)) { a, _ in a })
        }
        return t.render(
            section,
            ["notes": warnings(notes), "list": list.isEmpty ? t.render(none) : t.render(rows, ["rows": rowsHTML])])
    }

    static func steps(_ root: StoreRoot) -> HTML {
        let t = templates
        let file = (try? StepsService(root: root).load()) ?? nil
        var summary = t.render("noSteps")
        if let history = file?.history, let first = history.first, let last = history.last {
            summary = t.render(
                "stepsSummary",
                [
                    "days": "\(history.count) day\(history.count == 1 ? "" : "s")", "first": "\(first.date)",
                    "last": "\(last.date)",
                ])
        }
        let weekday = file?.goalWeekday ?? 10_000
        // Each label travels with its input (`.field`): wrapped apart, "Weekend" ended a line
        // with its box alone on the next.
        return t.render(
            "steps", ["summary": summary, "weekday": weekday, "weekend": file?.goalWeekend ?? weekday])
    }
}
