import CivilDates
import Foundation
import WidgetDataKeys
import WidgetDesign

/// The Month template: the render clock's month as a grid, weeks from the locale's first
/// weekday, today in an accent disc, days with calendar events (from the calendar snapshot)
/// marked with a dot. Medium adds today's weekday, date and next event beside the grid; large
/// a list of the next events under it.
extension TemplateContext {
    var monthToday: CivilTime { CivilTime.local(inputs.context.now, in: inputs.context.timeZone) }

    func monthFormatter(_ template: String, fallback: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = inputs.context.locale
        f.timeZone = inputs.context.timeZone
        f.dateFormat =
            DateFormatter.dateFormat(fromTemplate: template, options: 0, locale: inputs.context.locale) ?? fallback
        return f
    }

    /// Day numbers (days since 1970-01-01) within `range` that have an event, all-day or timed;
    /// an event over several days marks each of them.
    func eventDays(in range: ClosedRange<Int>) -> Set<Int> {
        guard let cal = inputs.calendar, !cal.accessDenied else { return [] }
        let tz = inputs.context.timeZone
        var days = Set<Int>()
        for e in cal.events {
            guard let first = CivilTime.dayNumber(CivilTime.local(e.start, in: tz).isoDate) else { continue }
            // An end at midnight belongs to the day before.
            let endInstant = e.end.map { max(e.start, $0.addingTimeInterval(-1)) } ?? e.start
            let last = CivilTime.dayNumber(CivilTime.local(endInstant, in: tz).isoDate) ?? first
            let from = max(first, range.lowerBound), to = min(last, range.upperBound)
            guard from <= to else { continue }
            for d in from...to { days.insert(d) }
        }
        return days
    }

    /// Draws the grid (weekday letters, then the weeks) into `rect`.
    func monthGrid(_ grid: MonthGrid, in rect: Rect, daySize: Double, headerSize: Double) {
        let today = CivilTime.daysSinceEpoch(year: monthToday.year, month: monthToday.month, day: monthToday.day)
        let all = grid.weeks.flatMap { $0 }
        let marked = eventDays(in: all.first!.dayNumber...all.last!.dayNumber)
        let letters = monthFormatter("EEEEE", fallback: "EEEEE").veryShortStandaloneWeekdaySymbols
        let columnWidth = rect.width / 7
        let headerHeight = headerSize * 1.6
        for column in 0..<7 {
            let weekday = (grid.firstWeekday - 1 + column) % 7
            let letter = weekday < letters.count ? letters[weekday] : ""
            b.addText(
                run(letter, size: headerSize, weight: 600, colour: palette.secondary),
                x: rect.minX + Double(column) * columnWidth, y: rect.minY,
                width: columnWidth, align: .centre)
        }
        let rowHeight = (rect.height - headerHeight) / Double(max(grid.weeks.count, 1))
        for (row, week) in grid.weeks.enumerated() {
            for (column, cell) in week.enumerated() {
                let cellRect = Rect(
                    x: rect.minX + Double(column) * columnWidth, y: rect.minY + headerHeight + Double(row) * rowHeight,
                    width: columnWidth, height: rowHeight)
                let isToday = cell.dayNumber == today
                let disc = min(columnWidth, rowHeight) * 0.92
                let centre = Point(x: cellRect.midX, y: cellRect.midY)
                if isToday {
                    b.add(
                        .shape, Rect(x: centre.x - disc / 2, y: centre.y - disc / 2, width: disc, height: disc),
                        .ellipse(fill: .solid(accent), stroke: nil, strokeWidth: 0))
                }
                let colour: RGBA = isToday ? .white : (cell.inMonth ? palette.primary : palette.secondary.opacity(0.55))
                let r = run(String(cell.day), size: daySize, weight: isToday ? 700 : 500, colour: colour, tabular: true)
                let m = b.measure(r, width: columnWidth)
                b.addText(r, x: cellRect.minX, y: centre.y - m.height / 2, width: columnWidth, align: .centre)
                if marked.contains(cell.dayNumber) {
                    let dot = max(2.5, daySize * 0.22)
                    let y =
                        isToday
                        ? centre.y + disc / 2 - dot * 1.6 : min(cellRect.maxY - dot, centre.y + m.height / 2 + 0.5)
                    b.add(
                        .shape, Rect(x: centre.x - dot / 2, y: y, width: dot, height: dot),
                        .ellipse(
                            fill: .solid(isToday ? RGBA.white : accent.opacity(cell.inMonth ? 1 : 0.5)), stroke: nil,
                            strokeWidth: 0))
                }
            }
        }
    }

    /// The next events from now, for the medium and large layouts.
    func monthUpcoming(_ limit: Int) -> [CalendarSnapshot.Event] {
        guard let cal = inputs.calendar, !cal.accessDenied else { return [] }
        return Array(cal.upcoming(at: inputs.context.now).prefix(limit))
    }

    func eventLine(_ e: CalendarSnapshot.Event) -> String {
        if e.isAllDay { return "All day" }
        let tz = inputs.context.timeZone
        let local = CivilTime.local(e.start, in: tz)
        let sameDay = local.isoDate == monthToday.isoDate
        return sameDay
            ? local.hourMinute
            : monthFormatter("EEEd", fallback: "EEE d").string(from: e.start) + " " + local.hourMinute
    }

    func month() {
        defaultBackdrop()
        let today = monthToday
        let grid = MonthGrid(
            year: today.year, month: today.month, firstWeekday: MonthGrid.firstWeekday(of: inputs.context.locale))
        let now = inputs.context.now
        let monthName = monthFormatter("LLLL", fallback: "LLLL").string(from: now)
        let monthYear = monthFormatter("LLLLyyyy", fallback: "LLLL yyyy").string(from: now)
        let pad = max(10, min(spec.style.paddingPoints, 16))
        let area = bounds.insetBy(pad)
        b.textLines = [monthYear]
        switch family {
        case .small:
            b.addText(
                run(monthName.uppercased(with: inputs.context.locale), size: 12, weight: 700, colour: accent),
                x: area.minX + 2, y: area.minY - 2, width: area.width)
            monthGrid(
                grid, in: Rect(x: area.minX, y: area.minY + 16, width: area.width, height: area.height - 16),
                daySize: 10.5, headerSize: 8.5)
        case .medium:
            let left = Rect(x: area.minX, y: area.minY, width: 112, height: area.height)
            let weekday = monthFormatter("EEEE", fallback: "EEEE").string(from: now)
            b.addText(
                run(weekday.uppercased(with: inputs.context.locale), size: 12, weight: 700, colour: accent),
                x: left.minX, y: left.minY, width: left.width)
            b.addText(
                run(String(today.day), size: 44, weight: 600, colour: palette.primary, tabular: true), x: left.minX,
                y: left.minY + 14, width: left.width)
            var y = left.minY + 72
            let next = monthUpcoming(2)
            if next.isEmpty {
                b.addText(
                    run(
                        inputs.calendar?.accessDenied == true ? "Calendar access is off" : "No more events", size: 12,
                        colour: palette.secondary, lines: 2),
                    x: left.minX, y: y, width: left.width, maxY: left.maxY)
            }
            for e in next {
                guard
                    let r = b.addText(
                        run(e.title, size: 12, weight: 600, colour: palette.primary), x: left.minX + 6, y: y,
                        width: left.width - 6, maxY: left.maxY)
                else { break }
                b.fill(
                    Rect(x: left.minX, y: r.minY + 1, width: 2.5, height: r.height * 2 - 2), .solid(accent),
                    radius: 1.25)
                if let t = b.addText(
                    run(eventLine(e), size: 11, colour: palette.secondary), x: left.minX + 6, y: r.maxY,
                    width: left.width - 6, maxY: left.maxY)
                {
                    y = t.maxY + 6
                } else {
                    y = r.maxY + 6
                }
                b.textLines.append("\(e.title) (\(eventLine(e)))")
            }
            let right = Rect(x: left.maxX + 10, y: area.minY, width: area.maxX - left.maxX - 10, height: area.height)
            b.addText(
                run(
                    monthName.uppercased(with: inputs.context.locale), size: 11, weight: 700,
                    colour: palette.secondary),
                x: right.minX + 3, y: right.minY - 1, width: right.width)
            monthGrid(
                grid, in: Rect(x: right.minX, y: right.minY + 15, width: right.width, height: right.height - 15),
                daySize: 11, headerSize: 8.5)
        default:
            b.addText(
                run(monthYear, size: 20, weight: 700, colour: palette.primary), x: area.minX + 4, y: area.minY,
                width: area.width - 8)
            let next = monthUpcoming(3)
            let listHeight = next.isEmpty ? 0.0 : Double(next.count) * 19 + 10
            monthGrid(
                grid,
                in: Rect(x: area.minX, y: area.minY + 32, width: area.width, height: area.height - 32 - listHeight),
                daySize: 16, headerSize: 11)
            var y = area.maxY - listHeight + 10
            for e in next {
                b.add(
                    .shape, Rect(x: area.minX + 4, y: y + 5, width: 6, height: 6),
                    .ellipse(fill: .solid(accent), stroke: nil, strokeWidth: 0))
                b.addText(
                    run(eventLine(e), size: 12, weight: 500, colour: palette.secondary, tabular: true),
                    x: area.maxX - 100, y: y, width: 96, align: .trailing)
                b.addText(
                    run(e.title, size: 13, weight: 600, colour: palette.primary), x: area.minX + 16, y: y - 1,
                    width: area.width - 16 - 104)
                b.textLines.append("\(e.title) (\(eventLine(e)))")
                y += 19
            }
        }
    }

    func monthAccessory() {
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        let today = monthToday
        let now = inputs.context.now
        let weekday = monthFormatter("EEE", fallback: "EEE").string(from: now)
        b.textLines = [dateText()]
        switch family {
        case .circular:
            b.add(.shape, bounds, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            b.addText(
                run(weekday.uppercased(with: inputs.context.locale), size: 11, weight: 600, colour: dim), x: 6, y: 12,
                width: bounds.width - 12, align: .centre)
            b.addText(
                run(String(today.day), size: 28, weight: 700, colour: ink, tabular: true), x: 6, y: 26,
                width: bounds.width - 12, align: .centre)
        case .rectangular:
            b.addText(run(dateText(), size: 15, weight: 600, colour: ink), x: 2, y: 2, width: bounds.width - 4)
            if let e = monthUpcoming(1).first {
                b.addText(run(e.title, size: 13, colour: ink), x: 2, y: 24, width: bounds.width - 4)
                b.addText(run(eventLine(e), size: 12, colour: dim), x: 2, y: 44, width: bounds.width - 4)
                b.textLines.append("\(e.title) (\(eventLine(e)))")
            } else {
                b.addText(run("No more events", size: 13, colour: dim), x: 2, y: 24, width: bounds.width - 4)
            }
        default:
            b.addText(run(dateText(), size: 15, weight: 500, colour: ink), x: 0, y: 4, width: bounds.width)
        }
    }
}
