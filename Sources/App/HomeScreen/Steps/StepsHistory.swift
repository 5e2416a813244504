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
        let t = templates
        let list = days(file)
        let goal = file?.goalWeekday ?? 10_000
        let weekend = file?.goalWeekend.flatMap { $0 == file?.goalWeekday ? nil : $0 }
        var html = [
            t.render(
                "head",
                [
                    "goal": grouped(goal),
                    "weekend": weekend.map { t.render("weekend", ["weekend": grouped($0)]) } ?? .empty,
                ])
        ]
        if list.isEmpty {
            html.append(t.render("empty"))
        } else {
            // The keys are whole numbers for templates ("12345"); the cards group them as the
            // chart and the day list do ("12,345").
            let count = { (key: String) in keys[key].map { Int($0).map(grouped) ?? $0 } }
            let insight: [(String, String, String?)] = [
                (
                    "best", "Best day",
                    count("__steps_best_day").map { $0 + (keys["__steps_best_day_date_iso"].map { " on \($0)" } ?? "") }
                ),
                ("streak", "Streak", count("__steps_streak").map { "\($0) day\($0 == "1" ? "" : "s")" }),
                ("avg7", "7-day average", count("__steps_avg_7")),
                ("avg30", "30-day average", count("__steps_avg_30")),
            ]
            html.append(
                t.render(
                    "history",
                    [
                        "insights": insight.map {
                            t.render("insight", ["id": $0.0, "title": $0.1, "value": $0.2 ?? "–"])
                        },
                        "timeline": timeline(list),
                        "month": month(list, today: today),
                        "days": list.reversed().prefix(400).map {
                            t.render("day", ["date": $0.date, "steps": grouped($0.steps)])
                        },
                        "year": heatmap(list),
                    ]))
        }
        return AppShell.page(
            title: "Steps History", active: .data, token: token, body: HTML(joining: html).description,
            stylesheets: ["/static/pages.css"], scripts: ["/static/data.js"])
    }

    static let templates = HTMLTemplates(PackageResources.steps_html, file: "Steps/steps.html")

    /// The last 90 recorded days as bars (goal days in the accent colour) under the goal line.
    static func timeline(_ list: [Day]) -> HTML {
        let t = templates
        let shown = Array(list.suffix(90))
        let width = 900.0, height = 240.0, left = 48.0, bottom = 22.0, top = 10.0
        let maxSteps = Double(max(shown.map { max($0.steps, $0.goal) }.max() ?? 1, 1)) * 1.1
        let barWidth = (width - left - 8) / Double(max(shown.count, 1))
        func y(_ v: Double) -> Double { top + (height - top - bottom) * (1 - v / maxSteps) }
        let grid = ticks(upTo: maxSteps).map { v in
            t.render(
                "gridLine",
                [
                    "left": "\(left)", "right": "\(width - 8)", "y": f(y(Double(v))), "labelX": "\(left - 6)",
                    "labelY": f(y(Double(v)) + 4), "value": grouped(v),
                ])
        }
        var goalPath = ""
        var bars: [HTML] = []
        for (i, d) in shown.enumerated() {
            let x = left + Double(i) * barWidth
            bars.append(
                t.render(
                    "bar",
                    [
                        "class": d.hit ? "bar hit" : "bar", "date": d.date, "x": f(x + 1), "y": f(y(Double(d.steps))),
                        "width": f(max(barWidth - 2, 1)), "height": f(y(0) - y(Double(d.steps))),
                        "fill": d.hit ? "#3ddc97" : "#7c7cff", "steps": grouped(d.steps),
                    ]))
            goalPath +=
                (i == 0 ? "M" : "L") + "\(f(x)) \(f(y(Double(d.goal)))) L\(f(x + barWidth)) \(f(y(Double(d.goal)))) "
        }
        var ends = HTML.empty
        if let first = shown.first, let last = shown.last {
            // The goal line says what it is, at its right end (the latest day's goal), above the line.
            let label = t.render(
                "goalLabel", ["x": "\(width - 10)", "y": f(y(Double(last.goal)) - 5), "goal": grouped(last.goal)])
            let dates = t.render(
                "ends",
                [
                    "left": "\(left)", "right": "\(width - 8)", "y": Int(height - 6), "first": first.date,
                    "last": last.date,
                ])
            ends = HTML(joining: [label, dates])
        }
        return t.render(
            "timeline",
            [
                "width": Int(width), "height": Int(height), "count": shown.count, "grid": grid, "bars": bars,
                "goal": goalPath, "ends": ends,
            ])
    }

    /// The month of the latest recorded day (today's month when it has data), Monday first,
    /// goal days filled (with dark numbers: the sheet's muted grey is unreadable on green).
    static func month(_ list: [Day], today: String) -> HTML {
        let t = templates
        let byNumber = Dictionary(list.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let anchor = list.contains { $0.date.prefix(7) == today.prefix(7) } ? today : list.last!.date
        guard let firstNumber = dayNumber(String(anchor.prefix(8)) + "01") else { return .empty }
        let parts = anchor.split(separator: "-").compactMap { Int($0) }
        let nextMonth =
            parts[1] == 12
            ? String(format: "%04d-01-01", parts[0] + 1) : String(format: "%04d-%02d-01", parts[0], parts[1] + 1)
        let count = (dayNumber(nextMonth) ?? firstNumber + 31) - firstNumber
        let offset = (weekday(firstNumber) + 6) % 7
        let cell = 44.0
        let rows = (offset + count + 6) / 7
        let weekdays = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].enumerated().map { i, name in
            t.render("weekday", ["x": f(Double(i) * cell + cell / 2), "name": name])
        }
        let days = (0..<count).map { i in
            let n = firstNumber + i
            let slot = offset + i
            let x = Double(slot % 7) * cell, y = 40 + Double(slot / 7) * cell
            let day = byNumber[n]
            let goal = day?.hit == true
            let number = t.render(
                goal ? "goalDayNumber" : "dayNumber", ["x": f(x + cell / 2), "y": f(y + cell / 2 + 4), "n": i + 1])
            let title = day.map {
                t.render(
                    "dayTitle",
                    ["date": $0.date, "steps": grouped($0.steps), "goal": $0.hit ? t.render("goalMark") : .empty])
            }
            return t.render(
                "monthDay",
                [
                    "class": goal ? "month-day goal" : "month-day", "date": dateText(n), "x": f(x + 3), "y": f(y + 3),
                    "size": f(cell - 6), "fill": day.map { $0.hit ? "#3ddc97" : "#7c7cff" } ?? "none",
                    "opacity": "\(day.map { $0.hit ? 0.9 : 0.25 } ?? 0)", "number": number, "title": title ?? .empty,
                ])
        }
        return t.render(
            "month",
            [
                "width": Int(cell * 7), "height": Int(cell * Double(rows) + 40), "month": String(anchor.prefix(7)),
                "weekdays": weekdays, "days": days,
            ])
    }

    /// 53 weeks ending with the latest recorded day, one square a day, darker for more of the goal.
    static func heatmap(_ list: [Day]) -> HTML {
        let t = templates
        let byNumber = Dictionary(list.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let last = list.last!.number
        let lastMonday = last - (weekday(last) + 6) % 7
        let start = lastMonday - 52 * 7
        let cell = 14.0
        let weekdays = ["Mo", "", "We", "", "Fr", "", "Su"].enumerated().filter { !$0.element.isEmpty }.map {
            t.render("heatWeekday", ["y": f(Double($0.offset) * cell + 11), "name": $0.element])
        }
        let days = (start...last).map { n in
            let week = (n - start) / 7, row = (n - start) % 7
            let day = byNumber[n]
            let level = day.map { min(Double($0.steps) / Double(max($0.goal, 1)), 1.25) / 1.25 } ?? 0
            return t.render(
                "heat",
                [
                    "class": day == nil ? "heat" : "heat recorded", "x": f(30 + Double(week) * cell),
                    "y": f(Double(row) * cell), "size": f(cell - 2), "fill": day == nil ? "currentColor" : "#3ddc97",
                    "opacity": f(day == nil ? 0.06 : 0.15 + 0.85 * level),
                    "title": day.map { t.render("heatTitle", ["date": $0.date, "steps": grouped($0.steps)]) } ?? .empty,
                ])
        }
        return t.render(
            "heatmap",
            ["width": Int(cell * 53 + 30), "height": Int(cell * 7 + 20), "weekdays": weekdays, "days": days])
    }

    static func f(_ x: Double) -> String { String(format: "%.1f", x) }

    /// The timeline's axis values for 0…`top`: a step of 1, 2, 2.5 or 5 × 10ⁿ giving at most five
    /// lines, so the labels read 0, 2,500, 5,000 (a third of the top read "7995").
    static func ticks(upTo top: Double) -> [Int] {
        guard top.isFinite, top > 0 else { return [0] }
        let rough = top / 4
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        return stride(from: 0.0, through: top, by: step).map { Int($0.rounded()) }
    }

    /// A step count with its thousands separated ("10,000"), as the page writes every count.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = n < 0 ? "-" : ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }
}
