import CivilDates
import DataSources
import Foundation
import SharedStore
import Snapshots
import WidgetDesign

/// Steps History (`/data/steps`): a timeline with the goal line, a month calendar with goal days
/// marked, a year heatmap, and insights. The charts are SVG written here from the stored history
/// (no chart library, nothing from another origin); the insights are the `__steps_*` keys the
/// renderer's variables give, so they are the numbers a widget shows.
enum StepsHistory {
    struct Day {
        var date: String
        var number: Int
        var steps: Int
        var goal: Int
        var hit: Bool { steps >= goal }
    }

    /// Days since 1970-01-01 for `yyyy-MM-dd`: the `__steps_*` keys' reading of a day
    /// (`CivilCalendar`), so the charts and the insights count the same days.
    static func dayNumber(_ text: String) -> Int? { CivilCalendar.dayNumber(text) }

    static func dateText(_ number: Int) -> String {
        let c = CivilCalendar.date(daysSinceEpoch: number)
        return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }

    /// The local date today, as the steps import decides it.
    static func localDate(_ now: Date) -> String {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = .current
        let d = c.dateComponents([.year, .month, .day], from: now)
        return String(format: "%04d-%02d-%02d", d.year!, d.month!, d.day!)
    }

    /// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
    static func weekday(_ number: Int) -> Int { ((number % 7) + 7 + 4) % 7 }

    /// The goal of a day as the `__steps_*` keys count it: the weekend goal on Saturday and
    /// Sunday, else the weekday goal (10,000 when none is set).
    static func goal(for date: String, in file: StepsFile?) -> Int {
        let weekdayGoal = file?.goalWeekday ?? 10_000
        guard let n = dayNumber(date) else { return weekdayGoal }
        let w = weekday(n)
        return (w == 0 || w == 6) ? (file?.goalWeekend ?? weekdayGoal) : weekdayGoal
    }

    static func days(_ file: StepsFile?) -> [Day] {
        (file?.history ?? []).compactMap { d in
            dayNumber(d.date).map { Day(date: d.date, number: $0, steps: d.steps, goal: goal(for: d.date, in: file)) }
        }.sorted { $0.number < $1.number }
    }

    /// The design "Pin this day" adds: the Steps starter showing that day's count and goal.
    static func pinnedDesign(day: StepsFile.Day, goal: Int, now: Date) throws -> WidgetSpec {
        guard let starter = TemplateCatalogue.find("steps") else {
            throw DesignError("the catalogue has no steps template")
        }
        var spec = try starter.design(now: now)
        let percent = Int((Double(day.steps) / Double(max(goal, 1)) * 100).rounded())
        try DesignEditor.apply(
            [
                "name=Steps on \(day.date)", "primaryText=\(day.steps) steps",
                "secondaryText=\(day.date) · \(day.steps >= goal ? "goal hit" : "\(percent)% of goal")",
            ], to: &spec)
        return spec
    }

    static func page(file: StepsFile?, keys: [String: String], today: String, token: String) -> String {
        let e = Page.escape
        let list = days(file)
        var html = "<div class=\"page-head\"><div><h1 class=\"page-title\">Steps History</h1>\n"
        html += "<p class=\"page-lede\"><a href=\"/data#steps\">Data</a> · goal \(file?.goalWeekday ?? 10_000) steps"
        if let weekend = file?.goalWeekend, weekend != file?.goalWeekday { html += " (weekends \(weekend))" }
        html += "</p></div></div>\n"
        html += "<p id=\"notice\" class=\"notice\" role=\"status\" hidden><span id=\"notice-text\"></span></p>\n"
        guard !list.isEmpty else {
            html +=
                """
                <p class=\"muted\" id=\"steps-empty\">No steps yet. Import a file on the <a \
                href=\"/data#steps\">Data</a> page.</p>\n
                """
            return AppShell.page(
                title: "Steps History", active: .data, token: token, body: html,
                stylesheets: ["/static/pages.css"], scripts: ["/static/data.js"])
        }
        html +=
            """
            <section aria-labelledby=\"insights-title\"><h2 id=\"insights-title\">Insights</h2><ul \
            class=\"insights\" id=\"insights\">\n
            """
        let insight: [(String, String, String?)] = [
            (
                "best", "Best day",
                keys["__steps_best_day"].map { $0 + (keys["__steps_best_day_date_iso"].map { " on \($0)" } ?? "") }
            ),
            ("streak", "Streak", keys["__steps_streak"].map { "\($0) day\($0 == "1" ? "" : "s")" }),
            ("avg7", "7-day average", keys["__steps_avg_7"]),
            ("avg30", "30-day average", keys["__steps_avg_30"]),
        ]
        for (id, title, value) in insight {
            html += "<li data-insight=\"\(id)\">\(e(title))<b>\(e(value ?? "–"))</b></li>\n"
        }
        html += "</ul></section>\n"
        html +=
            """
            <section class=\"card data-card\" aria-labelledby=\"timeline-title\"><h2 \
            id=\"timeline-title\">Timeline</h2>\n\(timeline(list))</section>\n
            """
        html += "<div class=\"data-grid\">\n"
        html +=
            """
            <section class=\"card data-card\" aria-labelledby=\"month-title\"><h2 \
            id=\"month-title\">Month</h2>\n\(month(list, today: today))</section>\n
            """
        html +=
            "<section class=\"card data-card\" aria-labelledby=\"pin-title\"><h2 id=\"pin-title\">Pin this day</h2>\n"
        html +=
            """
            <p class=\"muted\">Adds a design to the Library showing the day's steps (a day in the month calendar \
            chooses it).</p>
            """
        html += "<form id=\"steps-pin\"><select id=\"pin-date\" name=\"date\" aria-label=\"Day\">"
        for d in list.reversed().prefix(400) {
            html += "<option value=\"\(d.date)\">\(d.date) · \(d.steps) steps</option>"
        }
        html += "</select><button class=\"btn primary\" type=\"submit\">Pin this day</button></form></section>\n"
        html += "</div>\n"
        html +=
            """
            <section class=\"card data-card\" aria-labelledby=\"year-title\"><h2 \
            id=\"year-title\">Year</h2>\n\(heatmap(list))</section>\n
            """
        return AppShell.page(
            title: "Steps History", active: .data, token: token, body: html,
            stylesheets: ["/static/pages.css"], scripts: ["/static/data.js"])
    }

    /// The last 90 recorded days as bars (goal days in the accent colour) under the goal line.
    static func timeline(_ list: [Day]) -> String {
        let shown = Array(list.suffix(90))
        let width = 900.0, height = 240.0, left = 48.0, bottom = 22.0, top = 10.0
        let maxSteps = Double(max(shown.map { max($0.steps, $0.goal) }.max() ?? 1, 1)) * 1.1
        let barWidth = (width - left - 8) / Double(max(shown.count, 1))
        func y(_ v: Double) -> Double { top + (height - top - bottom) * (1 - v / maxSteps) }
        var svg =
            """
            <svg class=\"chart\" id=\"steps-timeline\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" \
            aria-label=\"Daily steps, last \(shown.count) days, with the goal line\">
            """
        for fraction in [0.0, 0.5, 1.0] {
            let v = maxSteps / 1.1 * fraction
            svg +=
                """
                <line x1=\"\(left)\" x2=\"\(width - 8)\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" \
                stroke=\"currentColor\" stroke-opacity=\"0.12\"/>
                """
            svg += "<text x=\"\(left - 6)\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\">\(Int(v.rounded()))</text>"
        }
        var goalPath = ""
        for (i, d) in shown.enumerated() {
            let x = left + Double(i) * barWidth
            let h = y(0) - y(Double(d.steps))
            svg +=
                """
                <rect class=\"bar\(d.hit ? " hit" : "")\" data-date=\"\(d.date)\" x=\"\(f(x + 1))\" \
                y=\"\(f(y(Double(d.steps))))\" width=\"\(f(max(barWidth - 2, 1)))\" height=\"\(f(h))\" rx=\"2\" \
                fill=\"\(d.hit ? "#3ddc97" : "#7c7cff")\"><title>\(d.date): \(d.steps) steps</title></rect>
                """
            goalPath +=
                (i == 0 ? "M" : "L") + "\(f(x)) \(f(y(Double(d.goal)))) L\(f(x + barWidth)) \(f(y(Double(d.goal)))) "
        }
        svg +=
            """
            <path class=\"goal-line\" d=\"\(goalPath)\" fill=\"none\" stroke=\"#ffb84d\" stroke-width=\"2\" \
            stroke-dasharray=\"6 4\"/>
            """
        if let first = shown.first, let last = shown.last {
            svg +=
                """
                <text x=\"\(left)\" y=\"\(Int(height - 6))\">\(first.date)</text><text x=\"\(width - 8)\" \
                y=\"\(Int(height - 6))\" text-anchor=\"end\">\(last.date)</text>
                """
        }
        return svg + "</svg>"
    }

    /// The month of the latest recorded day (today's month when it has data), Monday first,
    /// goal days filled.
    static func month(_ list: [Day], today: String) -> String {
        let byNumber = Dictionary(list.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let anchor = list.contains { $0.date.prefix(7) == today.prefix(7) } ? today : list.last!.date
        guard let firstNumber = dayNumber(String(anchor.prefix(8)) + "01") else { return "" }
        let parts = anchor.split(separator: "-").compactMap { Int($0) }
        let nextMonth =
            parts[1] == 12
            ? String(format: "%04d-01-01", parts[0] + 1) : String(format: "%04d-%02d-01", parts[0], parts[1] + 1)
        let count = (dayNumber(nextMonth) ?? firstNumber + 31) - firstNumber
        let offset = (weekday(firstNumber) + 6) % 7
        let cell = 44.0
        let rows = (offset + count + 6) / 7
        var svg =
            """
            <svg class=\"chart\" id=\"steps-month\" viewBox=\"0 0 \(Int(cell * 7)) \
            \(Int(cell * Double(rows) + 40))\" role=\"img\" aria-label=\"\(anchor.prefix(7)): goal days filled\">
            """
        svg += "<text x=\"4\" y=\"14\">\(anchor.prefix(7))</text>"
        for (i, name) in ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].enumerated() {
            svg += "<text x=\"\(f(Double(i) * cell + cell / 2))\" y=\"32\" text-anchor=\"middle\">\(name)</text>"
        }
        for i in 0..<count {
            let n = firstNumber + i
            let slot = offset + i
            let x = Double(slot % 7) * cell, y = 40 + Double(slot / 7) * cell
            let day = byNumber[n]
            let fill = day.map { $0.hit ? "#3ddc97" : "#7c7cff" } ?? "none"
            let opacity = day.map { $0.hit ? 0.9 : 0.25 } ?? 0
            svg += "<g class=\"month-day\(day?.hit == true ? " goal" : "")\" data-date=\"\(dateText(n))\">"
            svg +=
                """
                <rect x=\"\(f(x + 3))\" y=\"\(f(y + 3))\" width=\"\(f(cell - 6))\" height=\"\(f(cell - 6))\" \
                rx=\"8\" fill=\"\(fill)\" fill-opacity=\"\(opacity)\" stroke=\"currentColor\" \
                stroke-opacity=\"0.12\"/>
                """
            // Dark numbers on a filled goal day (the sheet's muted grey is unreadable on green).
            let ink = day?.hit == true ? " style=\"fill:#0d0e12;font-weight:700\"" : ""
            svg +=
                """
                <text x=\"\(f(x + cell / 2))\" y=\"\(f(y + cell / 2 + 4))\" \
                text-anchor=\"middle\"\(ink)>\(i + 1)</text>
                """
            if let day { svg += "<title>\(day.date): \(day.steps) steps\(day.hit ? " (goal)" : "")</title>" }
            svg += "</g>"
        }
        return svg + "</svg>"
    }

    /// 53 weeks ending with the latest recorded day, one square a day, darker for more of the goal.
    static func heatmap(_ list: [Day]) -> String {
        let byNumber = Dictionary(list.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let last = list.last!.number
        let lastMonday = last - (weekday(last) + 6) % 7
        let start = lastMonday - 52 * 7
        let cell = 14.0
        var svg =
            """
            <svg class=\"chart\" id=\"steps-heatmap\" viewBox=\"0 0 \(Int(cell * 53 + 30)) \(Int(cell * 7 + 20))\" \
            role=\"img\" aria-label=\"Steps over the year, one square a day\">
            """
        for (row, name) in ["Mo", "", "We", "", "Fr", "", "Su"].enumerated() where !name.isEmpty {
            svg += "<text x=\"0\" y=\"\(f(Double(row) * cell + 11))\">\(name)</text>"
        }
        for n in start...last {
            let week = (n - start) / 7, row = (n - start) % 7
            let day = byNumber[n]
            let level = day.map { min(Double($0.steps) / Double(max($0.goal, 1)), 1.25) / 1.25 } ?? 0
            let fill = day == nil ? "currentColor" : "#3ddc97"
            let opacity = day == nil ? 0.06 : 0.15 + 0.85 * level
            svg +=
                """
                <rect class=\"heat\(day == nil ? "" : " recorded")\" x=\"\(f(30 + Double(week) * cell))\" \
                y=\"\(f(Double(row) * cell))\" width=\"\(f(cell - 2))\" height=\"\(f(cell - 2))\" rx=\"2\" \
                fill=\"\(fill)\" fill-opacity=\"\(f(opacity))\">
                """
            if let day { svg += "<title>\(day.date): \(day.steps) steps</title>" }
            svg += "</rect>"
        }
        return svg + "</svg>"
    }

    static func f(_ x: Double) -> String { String(format: "%.1f", x) }
}
