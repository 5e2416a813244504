import CivilDates
import Foundation
import Snapshots
import WidgetDataKeys
import WidgetDesign

/// What a Reminders design shows from the snapshot: the mode's items in the chosen lists, open
/// ones first, and the progress of the mode's scope. Rules (overdue, today, soon, priority) are
/// the snapshot's own (`ReminderDays`, `RemindersSnapshot.Item.isPriority`).
struct ReminderSelection {
    var items: [RemindersSnapshot.Item]
    /// Done and total in the mode's scope (before completed ones are hidden).
    var done: Int
    var total: Int

    init(snapshot: RemindersSnapshot?, config: RemindersConfig, days: ReminderDays) {
        var scope = snapshot?.items ?? []
        if !config.selectedListIDs.isEmpty {
            let wanted = Set(config.selectedListIDs.map { $0.lowercased() })
            scope = scope.filter {
                wanted.contains(($0.list ?? "").lowercased()) || wanted.contains($0.source.lowercased())
            }
        }
        switch config.mode {
        case .today:
            scope = scope.filter { days.isOverdue($0) || days.isDueToday($0) || days.isCompletedToday($0) }
        case .overdue:
            scope = scope.filter { days.isOverdue($0) }
        case .soon:
            scope = scope.filter { days.isSoon($0) }
        case .priority:
            scope = scope.filter(\.isPriority)
        case .focus, .list:
            break
        }
        done = scope.filter(\.done).count
        total = scope.count
        var open = scope.filter { !$0.done }
        if config.mode == .focus {
            // The most pressing first: overdue, then due today, then by priority, then soonest.
            func rank(_ i: RemindersSnapshot.Item) -> Int {
                days.isOverdue(i) ? 0 : days.isDueToday(i) ? 1 : i.isPriority ? 2 : 3
            }
            let ordered = days.ordered(open)
            open = ordered.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
                \.element)
        } else {
            open = days.ordered(open)
        }
        let closed =
            config.hideCompleted
            ? [] : scope.filter(\.done).sorted { ($0.completedAt ?? .distantPast) > ($1.completedAt ?? .distantPast) }
        items = open + closed
    }
}

extension TemplateContext {
    var remindersConfig: RemindersConfig { spec.reminders }
    var reminderDays: ReminderDays { ReminderDays(now: inputs.context.now, timeZone: inputs.context.timeZone) }

    static func remindersModeTitle(_ mode: RemindersModeToken) -> String {
        switch mode {
        case .today: "Today"
        case .overdue: "Overdue"
        case .soon: "Soon"
        case .priority: "Priority"
        case .focus: "Focus"
        case .list: "Reminders"
        }
    }

    /// "17:00" for a time today, "Tomorrow", a weekday within the week, else "24 Jan"; "Today"
    /// for a dated item due today.
    func reminderDueText(_ item: RemindersSnapshot.Item) -> String {
        guard let due = item.due else { return "" }
        let days = reminderDays
        let tz = inputs.context.timeZone
        var c = Calendar(identifier: .gregorian)
        c.timeZone = tz
        let dayGap =
            c.dateComponents([.day], from: c.startOfDay(for: inputs.context.now), to: c.startOfDay(for: due)).day ?? 0
        if item.dueIsDate != true && days.isDueToday(item) { return CivilTime.local(due, in: tz).hourMinute }
        if dayGap == 0 { return "Today" }
        if dayGap == 1 { return "Tomorrow" }
        if dayGap == -1 { return "Yesterday" }
        let f = DateFormatter()
        f.locale = inputs.context.locale
        f.timeZone = tz
        f.dateFormat = DateFormatter.dateFormat(
            fromTemplate: dayGap > 1 && dayGap < 7 ? "EEE" : "dMMM", options: 0, locale: inputs.context.locale)
        return f.string(from: due)
    }

    /// Why the rows cannot be pressed (for the status line), nil when they can.
    func remindersBlocked(_ s: RemindersSnapshot) -> String? {
        let now = inputs.context.now
        if s.isStale(at: now) { return "Out of date: rows can't be ticked" }
        if s.lastError != nil { return "Last refresh failed: rows can't be ticked" }
        return nil
    }

    // MARK: - Template

    func reminders() {
        defaultBackdrop()
        let config = remindersConfig
        let area = contentRect(minPad: family == .medium && config.mode == .list ? 16 : 10)
        var y = header(in: area, y: area.minY)
        let snapshot = inputs.reminders
        let selection = ReminderSelection(snapshot: snapshot, config: config, days: reminderDays)
        let title = primary.isEmpty ? Self.remindersModeTitle(config.mode) : primary
        let badge = config.showsProgressBadge && selection.total > 0 ? "\(selection.done)/\(selection.total)" : ""
        b.addText(
            run(title, spec.style.primaryTextStyle, fallback: .headline, colour: palette.primary, weight: 600),
            x: area.minX, y: y, width: area.width - (badge.isEmpty ? 0 : 50))
        if !badge.isEmpty {
            b.addText(
                run(badge, size: 11, weight: 600, colour: palette.secondary, tabular: true), x: area.maxX - 50,
                y: y + 4, width: 50, align: .trailing)
        }
        y += 26
        b.textLines = [title + (badge.isEmpty ? "" : " \(badge)")]
        guard let snapshot else {
            let empty =
                inputs.unreadableSnapshots.contains(SnapshotFile.reminders.fileName)
                ? "snapshots/reminders.json could not be read."
                : "No task list yet: add one on the Data page."
            b.addText(run(empty, size: 12, colour: palette.secondary, lines: 4), x: area.minX, y: y, width: area.width)
            b.textLines.append(empty)
            return
        }
        // Status line: why the rows cannot be pressed, or (not on small) what is pressing.
        let blocked = remindersBlocked(snapshot)
        let days = reminderDays
        let open = snapshot.items.filter { !$0.done }
        let overdue = open.filter(days.isOverdue).count, today = open.filter(days.isDueToday).count
        let status =
            blocked
            ?? (isSmall
                ? ""
                : [overdue > 0 ? "\(overdue) overdue" : "", today > 0 ? "\(today) due today" : ""]
                    .filter { !$0.isEmpty }.joined(separator: " · "))
        if !status.isEmpty {
            let r = b.addText(
                run(
                    status, size: 11, weight: blocked == nil ? 400 : 600,
                    colour: blocked == nil ? palette.secondary : palette.accent(.red)),
                x: area.minX, y: y - 4, width: area.width)
            y = (r?.maxY ?? y) + 4
            b.textLines.append(status)
        }
        let footerY = area.maxY - 14
        guard !selection.items.isEmpty else {
            b.addText(
                run("No reminders to show.", size: 12, colour: palette.secondary, lines: 2), x: area.minX, y: y,
                width: area.width)
            b.textLines.append("No reminders to show.")
            remindersFooter(snapshot, hidden: 0, left: area.minX, right: area.maxX, y: footerY)
            return
        }
        let rows = Rect(x: area.minX, y: y, width: area.width, height: footerY - 4 - y)
        let shown: Int
        switch config.mode == .focus ? .focus : config.presentation {
        case .focus:
            shown = reminderFocusRows(selection.items, snapshot: snapshot, in: rows, interactive: blocked == nil)
        case .sectioned:
            shown = reminderSectionedRows(selection.items, snapshot: snapshot, in: rows, interactive: blocked == nil)
        case .dense:
            shown = reminderDenseRows(selection.items, snapshot: snapshot, in: rows, interactive: blocked == nil)
        }
        remindersFooter(snapshot, hidden: selection.items.count - shown, left: area.minX, right: area.maxX, y: footerY)
    }

    /// "+N more" at the left, "Updated …" at the right ("Updated" goes first when room is short).
    func remindersFooter(_ s: RemindersSnapshot, hidden: Int, left: Double, right: Double, y: Double) {
        var footerLeft = left
        if hidden > 0 {
            let more = run("+\(hidden) more", size: 11, weight: 600, colour: palette.secondary)
            footerLeft = (b.addText(more, x: left, y: y, width: (right - left) / 2)?.maxX ?? left) + 8
            b.textLines.append("+\(hidden) more")
        }
        guard s.updatedAt != .distantPast else { return }
        var updated = run(Self.updatedAgo(s.updatedAt, now: inputs.context.now), size: 11, colour: palette.secondary)
        let room = right - footerLeft
        if b.measure(updated, width: 1_000).width > room, updated.text.hasPrefix("Updated ") {
            updated.text = String(updated.text.dropFirst("Updated ".count))
        }
        b.addText(updated, x: footerLeft, y: y, width: room, align: .trailing)
    }

    /// One row: the tick circle (a check when done, a lock when its source is an address), the
    /// title, the due text; a `completeReminder` action over it when it can be pressed.
    @discardableResult
    func reminderRow(
        _ item: RemindersSnapshot.Item, snapshot: RemindersSnapshot, x: Double, y: Double, width: Double,
        size: Double, lines: Int = 1, weight: Int = 400, interactive: Bool
    ) -> Double {
        let days = reminderDays
        let readOnly = snapshot.source(item.source)?.readOnly ?? false
        let shown = Self.shownReminderTitle(item.title)
        var title = run(
            shown, size: size, weight: weight, colour: item.done ? palette.secondary : palette.primary, lines: lines)
        title.strikethrough = item.done
        let icon = size + 2
        let lineHeight = b.lineHeightOf(title)
        let symbol = item.done ? "checkmark.circle.fill" : readOnly ? "lock" : "circle"
        let tint = item.done || readOnly ? palette.secondary : days.isOverdue(item) ? palette.accent(.red) : accent
        _ = b.symbol(symbol, centre: Point(x: x + icon / 2, y: y + lineHeight / 2), size: icon, colour: tint)
        let due = remindersConfig.showsDueTimes ? reminderDueText(item) : ""
        let dueRun = run(
            due, size: 11, weight: days.isOverdue(item) ? 600 : 400,
            colour: days.isOverdue(item) ? palette.accent(.red) : palette.secondary, tabular: true)
        let dueWidth = due.isEmpty ? 0.0 : min(64, b.measure(dueRun, width: 200).width + 4)
        let textX = x + icon + 7
        let r = b.addText(title, x: textX, y: y, width: width - icon - 7 - dueWidth)
        if !due.isEmpty {
            b.addText(dueRun, x: x + width - dueWidth, y: y + (lineHeight - 13) / 2, width: dueWidth, align: .trailing)
        }
        let height = max(lineHeight, (r?.height ?? lineHeight))
        b.textLines.append(
            "\(item.done ? "[x]" : readOnly ? "[read-only]" : "[ ]") \(shown)\(due.isEmpty ? "" : " \(due)")")
        if interactive && !item.done && !readOnly && snapshot.completionBlocked(item, at: inputs.context.now) == nil {
            b.action(
                ActionArea(
                    id: "reminders.\(item.id)", action: .completeReminder(id: item.id), title: "Complete \(shown)",
                    rect: Rect(x: x, y: y - 2, width: width, height: height + 4)))
        }
        return height
    }

    /// Dense: compact rows, two columns on a medium widget.
    func reminderDenseRows(
        _ items: [RemindersSnapshot.Item], snapshot: RemindersSnapshot, in area: Rect, interactive: Bool
    ) -> Int {
        let size: Double = isSmall ? 14 : (family == .medium ? 13 : 15)
        let gap = isSmall ? 6.0 : 8
        let lineHeight = b.lineHeightOf(run("Ag", size: size, colour: palette.primary))
        // A second column only when one cannot hold them all: a lone row keeps the whole width.
        let rowsPerColumn = max(1, Int((area.height + gap) / (lineHeight + gap)))
        let columns = family == .medium && items.count > rowsPerColumn ? 2 : 1
        let columnWidth = (area.width - Double(columns - 1) * 12) / Double(columns)
        var shown = 0
        for (index, item) in items.enumerated() {
            let rowY = area.minY + Double(index / columns) * (lineHeight + gap)
            guard rowY + lineHeight <= area.maxY else { break }
            reminderRow(
                item, snapshot: snapshot, x: area.minX + Double(index % columns) * (columnWidth + 12), y: rowY,
                width: columnWidth, size: size, interactive: interactive)
            shown += 1
        }
        return shown
    }

    /// Focus: the first reminder large (two lines) with its due day, the next ones as small rows.
    func reminderFocusRows(
        _ items: [RemindersSnapshot.Item], snapshot: RemindersSnapshot, in area: Rect, interactive: Bool
    ) -> Int {
        guard let first = items.first else { return 0 }
        let big: Double = isSmall ? 17 : 20
        var y = area.minY
        let h = reminderRow(
            first, snapshot: snapshot, x: area.minX, y: y, width: area.width, size: big, lines: 2, weight: 600,
            interactive: interactive)
        y += h + (isSmall ? 6 : 10)
        var shown = 1
        let size: Double = isSmall ? 12 : 13
        let lineHeight = b.lineHeightOf(run("Ag", size: size, colour: palette.primary))
        if !isSmall || area.maxY - y > lineHeight * 2 {
            b.fill(
                Rect(x: area.minX, y: y - (isSmall ? 3 : 5), width: area.width, height: 1),
                .solid(palette.secondary.opacity(0.35)))
        }
        for item in items.dropFirst() {
            guard y + lineHeight <= area.maxY else { break }
            reminderRow(
                item, snapshot: snapshot, x: area.minX, y: y, width: area.width, size: size, interactive: interactive)
            y += lineHeight + 6
            shown += 1
        }
        return shown
    }

    /// Sectioned: headings (Overdue, Today, Later, No date, Done) with their rows under them.
    func reminderSectionedRows(
        _ items: [RemindersSnapshot.Item], snapshot: RemindersSnapshot, in area: Rect, interactive: Bool
    ) -> Int {
        let days = reminderDays
        func section(_ i: RemindersSnapshot.Item) -> Int {
            if i.done { return 4 }
            if days.isOverdue(i) { return 0 }
            if days.isDueToday(i) { return 1 }
            return i.due == nil ? 3 : 2
        }
        let names = ["Overdue", "Today", "Later", "No date", "Done"]
        let size: Double = isSmall ? 13 : 14
        let lineHeight = b.lineHeightOf(run("Ag", size: size, colour: palette.primary))
        let groups = Dictionary(grouping: items, by: section)
        let headingHeight = 15.0
        // Medium: sections flow down the first column, then the second, when one column cannot hold them
        // all (a short list keeps the whole width, so titles are not cut beside an empty column).
        let oneColumnHeight = groups.values.reduce(0.0) { $0 + headingHeight + Double($1.count) * (lineHeight + 5) + 4 }
        let columns = family == .medium && oneColumnHeight - 9 > area.height ? 2 : 1
        let columnWidth = (area.width - Double(columns - 1) * 12) / Double(columns)
        var column = 0
        var y = area.minY
        var shown = 0
        outer: for s in 0..<names.count {
            guard let rows = groups[s], !rows.isEmpty else { continue }
            if y + headingHeight + lineHeight > area.maxY {
                guard column + 1 < columns else { break }
                column += 1
                y = area.minY
            }
            let x = area.minX + Double(column) * (columnWidth + 12)
            b.addText(
                run(
                    names[s].uppercased(), size: 10, weight: 700,
                    colour: s == 0 ? palette.accent(.red) : palette.secondary),
                x: x, y: y, width: columnWidth)
            b.textLines.append(names[s])
            y += headingHeight
            for item in rows {
                if y + lineHeight > area.maxY {
                    guard column + 1 < columns else { break outer }
                    column += 1
                    y = area.minY
                }
                reminderRow(
                    item, snapshot: snapshot, x: area.minX + Double(column) * (columnWidth + 12), y: y,
                    width: columnWidth,
                    size: size, interactive: interactive)
                y += lineHeight + 5
                shown += 1
            }
            y += 4
        }
        return shown
    }

    /// A task's title as a row draws it: tabs (a todo line indented with one) and runs of spaces
    /// as one space, no white space at the ends. Pango lays a tab out to an 8-column stop, which
    /// drew as a wide blank before the text; the file keeps the title as written.
    static func shownReminderTitle(_ title: String) -> String {
        guard title.contains(where: { $0 == "\t" || $0 == " " }) else { return title }
        return title.split(whereSeparator: { $0 == "\t" || $0 == " " }).joined(separator: " ")
    }
}
