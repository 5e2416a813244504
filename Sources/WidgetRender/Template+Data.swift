import Foundation
import Variables
import WidgetDesign

/// Weather, Next Up and Reminders: templates whose content comes from a snapshot file, each with
/// an honest state when the file is missing.
extension TemplateContext {
    // MARK: - Weather

    /// The Weather template. `style.weatherScale` scales it as in the seed app
    /// (`StyleSpec.weatherRenderScale`, 0.85…1.35): type, symbols, padding and spacing. The
    /// chart takes the height the text leaves; when a large scale leaves too little, the layout
    /// gives way in this order until the chart fits (at least 22 pt of plot): the high/low moves
    /// to the footer row, the secondary line goes, the headline keeps to one line (shrinking to
    /// 0.8 of its size, the seed's minimum scale, rather than cutting it); failing all of that,
    /// the chart is left out and the text drawn in full.
    func weather() {
        let style = spec.style
        let s = style.weatherRenderScale
        let dark = style.background == .subtleMaterial || inputs.appearance == .dark
        let ink: RGBA = dark ? .white : .black
        let dim: RGBA = dark ? RGBA(hex: 0xEBEBF5, alpha: 0.6) : RGBA(hex: 0x3C3C43, alpha: 0.6)
        let w = inputs.weather
        let rainSoon = (w?.rainStartMinutes ?? 999) < 60
        if style.background == .subtleMaterial {
            let (top, bottom, glowColour): (Double, Double, RGBA) = w?.hasForecast != true ? (0.55, 0.75, accent.opacity(0.25))
                : rainSoon ? (0.40, 0.78, accent.opacity(0.35)) : (0.45, 0.82, RGBA.white.opacity(0.08))
            b.fill(bounds, .solid(RGBA(hex: 0x1C2433)), kind: .background)
            b.fill(bounds, .linear(start: Point(x: 0, y: 0), end: Point(x: 0, y: bounds.height), stops: [GradientStop(0, RGBA.black.opacity(top)), GradientStop(1, RGBA.black.opacity(bottom))]), kind: .background)
            let g = isSmall ? 110.0 : (family == .medium ? 150 : 220)
            b.fill(bounds, .radial(centre: Point(x: bounds.midX + g * 0.4, y: bounds.midY - g * 0.27), radius: g, stops: [GradientStop(0, glowColour), GradientStop(1, glowColour.opacity(0))]), kind: .background)
        } else {
            defaultBackdrop()
        }
        let pad = min(18, max(10, style.paddingPoints * (isSmall ? 0.85 : family == .medium ? 0.9 : 1))) * s
        let glass = bounds.insetBy(6)
        b.fill(glass, .solid(dark ? RGBA.white.opacity(0.11) : RGBA.black.opacity(0.07)), radius: min(26, max(14, style.cornerRadiusPoints)) - 4, stroke: RGBA.white.opacity(0.10))
        let area = bounds.insetBy(pad)
        guard let w, w.hasForecast else {
            let title = primary.isEmpty ? "Weather" : primary
            b.addText(run(title, size: 18 * s, weight: 700, colour: ink), x: area.minX, y: area.minY, width: area.width)
            b.addText(run("No weather data", size: 13 * s, weight: 600, colour: ink.opacity(0.85)), x: area.minX, y: area.minY + 30 * s, width: area.width)
            let hint = inputs.unreadableSnapshots.contains("weather.json") ? "snapshots/weather.json could not be read."
                : w?.location == nil ? "No snapshot in snapshots/weather.json yet." : "Waiting for a forecast for \(w!.location!)."
            b.addText(run(hint, size: 12 * s, colour: dim, lines: 3), x: area.minX, y: area.minY + 50 * s, width: area.width, maxY: area.maxY - 28 * s)
            _ = b.symbol("cloud", centre: Point(x: area.maxX - 14 * s, y: area.maxY - 14 * s), size: 28 * s, colour: dim)
            b.textLines = [title, "No weather data"]
            return
        }
        let location = w.location ?? resolve("{{__weather_location|}}")
        let headline = Self.nowcastHeadline(w)
        let temp = w.temperatureC.map { temperatureText($0) } ?? "—"
        let hilo: String? = (w.highC != nil && w.lowC != nil) ? "H \(degrees(w.highC!)) L \(degrees(w.lowC!))" : nil
        b.textLines = [location, headline, [temp, w.condition ?? ""].filter { !$0.isEmpty }.joined(separator: " "), hilo ?? ""].filter { !$0.isEmpty }
        var y = area.minY
        if !location.isEmpty {
            if let r = b.addText(run(location, size: (isSmall ? 12 : 13) * s, weight: 600, colour: dim), x: area.minX, y: y, width: area.width - 30 * s) { y = r.maxY + 2 * s }
        }
        var smallSymbol: Rect?
        if isSmall, let sym = w.symbol, !sym.isEmpty {
            smallSymbol = b.symbol(sym, centre: Point(x: area.maxX - 11 * s, y: area.minY + 9 * s), size: 22 * s, colour: ink, field: "snapshots/weather.json symbol")
        }
        let nowSize: Double = (isSmall ? 16 : (family == .medium ? 18 : 20)) * s
        var leftWidth = isSmall ? area.width : area.width * 0.62
        let secondText = isSmall ? nil : (w.nowcastSecondary ?? w.condition).flatMap { $0.isEmpty ? nil : $0 }
        let secondRun = secondText.map { run($0, size: 12 * s, colour: dim, lines: family == .large ? 2 : 1) }
        // Temperature: bottom on small, right column on medium/large.
        let tempSize: Double = (isSmall ? 28 : (family == .medium ? 30 : 34)) * s
        let tr = run(temp, size: tempSize, weight: 700, colour: ink, tabular: true)
        let tm = b.measure(tr, width: isSmall ? area.width : area.width - leftWidth)
        if !isSmall, let sym = w.symbol, !sym.isEmpty {
            // The left column stops short of the symbol beside the temperature.
            leftWidth = min(leftWidth, area.maxX - tm.width - 31 * s - 8 * s - area.minX)
        }
        // Small: a headline that would run under the symbol starts below it.
        func headlineTop(_ r: TextRun) -> Double {
            guard let symbolRect = smallSymbol else { return y }
            let m = b.measure(r, width: leftWidth)
            return Rect(x: area.minX, y: y, width: m.width, height: m.height).intersects(symbolRect) ? symbolRect.maxY : y
        }
        let labelSpace = isSmall ? 0 : 14 * s
        // Small: the high/low beside the temperature, or on its own line above it when it would be cut there.
        let hiloRun = hilo.map { run($0, size: 12 * s, weight: 500, colour: dim) }
        let hiloAbove = isSmall && hiloRun.map { b.measure($0, width: 10_000).width > area.width - tm.width - 8 * s } == true
        let hiloAboveHeight = hiloAbove ? b.measure(hiloRun!, width: area.width).height + 2 * s : 0
        let chartBottom = isSmall ? area.maxY - tm.height - hiloAboveHeight - 6 * s : area.maxY - 16 * s - 4 * s
        let minChart = 22 + labelSpace

        // The first arrangement whose chart fits (see the doc comment).
        struct Arrangement { var headline: TextRun; var secondary: Bool; var hiloInFooter: Bool; var chartTop: Double }
        let twoLines = run(headline, size: nowSize, weight: 700, colour: ink, lines: 2)
        let oneLine = shrunkToOneLine(twoLines, width: leftWidth)
        var options: [(TextRun?, Bool, Bool)] = [(twoLines, true, false)]
        if !isSmall { options += [(twoLines, true, true), (twoLines, false, true), (oneLine, true, true), (oneLine, false, true)] } else { options.append((oneLine, false, false)) }
        var chosen: Arrangement?
        for case let (headlineRun?, secondary, hiloInFooter) in options {
            var top = headlineTop(headlineRun) + b.measure(headlineRun, width: leftWidth).height + 3 * s
            if secondary, let secondRun { top += b.measure(secondRun, width: leftWidth).height + 4 * s }
            top += 6 * s
            if !isSmall {
                // Below the temperature column: the temperature (and the high/low under it).
                top = max(top, hiloInFooter ? area.minY + tm.height + 6 * s : area.minY + (family == .large ? 64 : 58) * s)
            }
            if chartBottom - top >= minChart {
                chosen = Arrangement(headline: headlineRun, secondary: secondary, hiloInFooter: hiloInFooter, chartTop: top)
                break
            }
        }
        let layout = chosen ?? Arrangement(headline: twoLines, secondary: true, hiloInFooter: false, chartTop: .infinity)
        if let r = b.addText(layout.headline, x: area.minX, y: headlineTop(layout.headline), width: leftWidth) { y = r.maxY + 3 * s }
        if layout.secondary, let secondRun {
            if let r = b.addText(secondRun, x: area.minX, y: y, width: leftWidth) { y = r.maxY + 4 * s }
        }
        if isSmall {
            let ty = area.maxY - tm.height
            b.addText(tr, x: area.minX, y: ty, width: area.width)
            if let hiloRun {
                let besideWidth = area.width - tm.width - 8 * s
                if !hiloAbove {
                    b.addText(hiloRun, x: area.minX + tm.width + 8 * s, y: ty + tm.height - 20 * s, width: besideWidth)
                } else if chosen != nil || ty - hiloAboveHeight >= y {
                    b.addText(hiloRun, x: area.minX, y: ty - hiloAboveHeight, width: area.width)
                } else if let shrunk = shrunkToOneLine(hiloRun, width: besideWidth) {
                    b.addText(shrunk, x: area.minX + tm.width + 8 * s, y: ty + tm.height - 20 * s, width: besideWidth)
                }
                // Otherwise there is no room for it at this scale (the text rendition keeps it).
            }
            if chosen != nil { chart(Rect(x: area.minX, y: layout.chartTop, width: area.width, height: chartBottom - layout.chartTop), w, labels: false, scale: s) }
        } else {
            let tempRect = b.addText(tr, x: area.minX + leftWidth, y: area.minY, width: area.width - leftWidth, align: .trailing)
            if let sym = w.symbol, !sym.isEmpty, let tempRect {
                _ = b.symbol(sym, centre: Point(x: tempRect.minX - 18 * s, y: tempRect.midY), size: 26 * s, colour: ink, field: "snapshots/weather.json symbol")
            }
            if let hilo {
                if layout.hiloInFooter {
                    b.addText(run(hilo, size: 12 * s, weight: 500, colour: dim), x: area.minX, y: area.maxY - 15 * s, width: area.width / 2)
                } else {
                    b.addText(run(hilo, size: 13 * s, weight: 500, colour: dim), x: area.minX + leftWidth, y: area.minY + tempSize * 1.25, width: area.width - leftWidth, align: .trailing)
                }
            }
            if chosen != nil { chart(Rect(x: area.minX, y: layout.chartTop, width: area.width, height: chartBottom - layout.chartTop), w, labels: true, scale: s) }
            if let at = w.fetchedAt {
                b.addText(run(Self.updatedAgo(at, now: inputs.context.now), size: 11 * s, weight: 500, colour: dim), x: area.minX, y: area.maxY - 14 * s, width: area.width, align: .trailing)
            }
        }
    }

    /// `text` on one line, shrunk in steps down to 0.8 of its size (the seed's
    /// `minimumScaleFactor`) until it is not cut; nil when even 0.8 would cut it.
    func shrunkToOneLine(_ text: TextRun, width: Double) -> TextRun? {
        for step in 0...4 {
            var r = text
            r.lineLimit = 1
            r.sizePoints = text.sizePoints * (1 - Double(step) * 0.05)
            _ = b.text.measure(&r, width: width)
            if !r.isTruncated { return r }
        }
        return nil
    }

    func degrees(_ c: Double) -> String {
        let v = inputs.context.locale.usesMetricSystem ? c : c * 9 / 5 + 32
        return "\(Int(v.rounded()))°"
    }

    func temperatureText(_ c: Double) -> String {
        degrees(c) + (inputs.context.locale.usesMetricSystem ? "C" : "F")
    }

    static func updatedAgo(_ at: Date, now: Date) -> String {
        let minutes = Int(max(0, now.timeIntervalSince(at)) / 60)
        switch minutes {
        case 0: return "Updated now"
        case 1: return "Updated 1 min ago"
        case ..<60: return "Updated \(minutes) mins ago"
        case ..<1440: let h = minutes / 60; return "Updated \(h) hr\(h == 1 ? "" : "s") ago"
        default: let d = minutes / 1440; return "Updated \(d) day\(d == 1 ? "" : "s") ago"
        }
    }

    /// The seed's rain-first headline, from the snapshot's summary fields.
    static func nowcastHeadline(_ w: WeatherState) -> String {
        if let n = w.nowcast, !n.isEmpty { return n }
        guard let start = w.rainStartMinutes else { return "No rain next hour" }
        if start <= 1 { return "Rain now" }
        if start < 60 { return "Rain in \(Int(start.rounded()))m" }
        return "Rain later"
    }

    /// The next hour's rain as a smooth ribbon from start, end and peak (the snapshot carries a
    /// summary, not the minute series); a flat baseline when dry.
    func chart(_ r: Rect, _ w: WeatherState, labels: Bool, scale s: Double = 1) {
        guard r.height > 8 else { return }
        let labelSpace = labels ? 14.0 * s : 0
        let plot = Rect(x: r.minX, y: r.minY, width: r.width, height: r.height - labelSpace)
        b.fill(plot, .solid(RGBA.black.opacity(0.35)), radius: 8)
        let baseline = plot.minY + plot.height * 0.83
        b.add(.line, plot, .line(from: Point(x: plot.minX + 6, y: baseline), to: Point(x: plot.maxX - 6, y: baseline), colour: RGBA(0.18, 0.34, 0.98, 0.5), width: 1, roundCaps: true))
        if let start = w.rainStartMinutes, start < 60 {
            let end = min(60, w.rainEndMinutes ?? 60)
            let peak = max(0.1, w.rainPeakIntensityMMPerHour ?? 1)
            let height = (plot.height * 0.75) * pow(min(1, peak / max(1, peak < 2.5 ? 2.5 : 10)), 0.62)
            let x0 = plot.minX + 6 + (plot.width - 12) * max(0, start) / 60
            let x1 = plot.minX + 6 + (plot.width - 12) * max(start + 1, end) / 60
            // A ribbon that swells from the start to the peak and tapers to the end.
            var points: [Point] = [Point(x: x0, y: baseline)]
            let steps = 48
            for i in 0...steps {
                let f = Double(i) / Double(steps)
                let x = x0 + (x1 - x0) * f
                points.append(Point(x: x, y: baseline - max(1, height) * pow(sin(.pi * f), 0.6)))
            }
            points.append(Point(x: x1, y: baseline))
            b.add(.shape, Rect(x: x0, y: baseline - height, width: max(1, x1 - x0), height: max(1, height)),
                  .polygon(points: points, fill: .linear(start: Point(x: 0, y: baseline - height), end: Point(x: 0, y: baseline),
                                                           stops: [GradientStop(0, RGBA(0, 0.41, 0.94)), GradientStop(1, RGBA(0, 0.02, 0.18))])))
        }
        if labels {
            let dim = RGBA.white.opacity(0.45)
            b.addText(run("Now", size: 11 * s, weight: 500, colour: dim), x: r.minX + 2, y: plot.maxY + 1, width: 60 * s)
            b.addText(run("60m", size: 11 * s, weight: 500, colour: dim), x: r.maxX - 2 - 60 * s, y: plot.maxY + 1, width: 60 * s, align: .trailing)
        }
    }

    // MARK: - Next Up

    func nextUp() {
        defaultBackdrop()
        let area = contentRect().insetBy(isSmall ? 0 : 2)
        let now = inputs.context.now
        guard let cal = inputs.calendar, !cal.accessDenied else {
            emptyCalendar(area, title: inputs.calendar == nil ? "Nothing next" : "Calendar access is off.",
                          detail: inputs.unreadableSnapshots.contains("calendar.json") ? "snapshots/calendar.json could not be read."
                            : inputs.calendar == nil ? "No calendar snapshot (snapshots/calendar.json) yet." : "Allow calendar access to show your events.")
            return
        }
        let events = cal.upcoming(at: now)
        guard let first = events.first else {
            emptyCalendar(area, title: "Nothing next", detail: "No upcoming events.")
            return
        }
        let seconds = first.start.timeIntervalSince(now)
        let header = (isSmall || seconds >= 86_400) ? "Next" : "Next Up"
        let (short, label) = Self.countdown(seconds, event: first.start, now: now, context: inputs.context)
        b.addText(run(header, size: 12, weight: 600, colour: palette.secondary), x: area.minX, y: area.minY, width: area.width / 2)
        b.addText(run(short, size: 12, weight: 600, colour: accent), x: area.midX, y: area.minY, width: area.width / 2, align: .trailing)
        var y = area.minY + 26
        if let r = b.addText(run(first.title, size: 17, weight: 600, colour: palette.primary, lines: isSmall ? 2 : 3), x: area.minX, y: y, width: area.width, maxY: area.maxY) { y = r.maxY + 4 }
        if let r = b.addText(run(label, size: 12, colour: palette.secondary), x: area.minX, y: y, width: area.width, maxY: area.maxY) { y = r.maxY + 4 }
        let range = first.isAllDay ? "All day" : engine.templates.eventTimeRange(start: first.start, end: first.end, in: inputs.context)
        if let r = b.addText(run(range, size: 11, colour: palette.secondary), x: area.minX, y: y, width: area.width, maxY: area.maxY) { y = r.maxY + 4 }
        if !isSmall, !(family == .medium && events.count > 1), let loc = first.location, !loc.isEmpty {
            if let r = b.addText(run(loc, size: 11, colour: palette.secondary), x: area.minX, y: y, width: area.width, maxY: area.maxY) { y = r.maxY + 4 }
        }
        b.textLines = ["\(header): \(first.title) (\(label))", range]
        if !isSmall, events.count > 1 {
            let second = events[1]
            let (short2, _) = Self.countdown(second.start.timeIntervalSince(now), event: second.start, now: now, context: inputs.context)
            let top = family == .medium ? max(y + 4, area.maxY - 40) : y + 10
            guard top + 38 <= area.maxY + 1 else { return }
            b.fill(Rect(x: area.minX, y: top, width: area.width, height: 1), .solid(palette.primary.opacity(0.35 * 0.4)))
            b.addText(run("Then", size: 11, weight: 600, colour: palette.secondary), x: area.minX, y: top + 6, width: area.width / 2)
            b.addText(run(short2, size: 11, weight: 600, colour: accent.opacity(0.85)), x: area.midX, y: top + 6, width: area.width / 2, align: .trailing)
            b.addText(run(second.title, size: 15, weight: 600, colour: palette.primary), x: area.minX, y: top + 20, width: area.width)
            b.textLines.append("Then: \(second.title)")
        }
    }

    func emptyCalendar(_ area: Rect, title: String, detail: String) {
        b.addText(run("Next Up", size: 12, weight: 600, colour: palette.secondary), x: area.minX, y: area.minY, width: area.width - 24)
        _ = b.symbol(inputs.calendar?.accessDenied == true ? "calendar.badge.exclamationmark" : "calendar", centre: Point(x: area.maxX - 9, y: area.minY + 8), size: 18, colour: accent.opacity(0.9))
        b.addText(run(title, size: 17, weight: 600, colour: palette.primary, lines: 2), x: area.minX, y: area.minY + 26, width: area.width)
        b.addText(run(detail, size: 12, colour: palette.secondary, lines: 3), x: area.minX, y: area.minY + 50, width: area.width, maxY: area.maxY)
        b.textLines = [title]
    }

    /// (short countdown, label) per the seed's wording; minutes round up.
    static func countdown(_ seconds: Double, event: Date, now: Date, context: RenderContext) -> (String, String) {
        if seconds <= 0 { return ("Now", "Now") }
        let minutes = Int((seconds / 60).rounded(.up))
        if minutes <= 1 { return ("\(minutes)m", "Soon") }
        if minutes < 60 { return ("\(minutes)m", "In \(minutes) min") }
        let hours = minutes / 60
        if minutes < 1440 { return ("\(hours)h", "In \(hours) hr") }
        let tz = context.timeZone
        let days = (CivilTime.dayNumber(CivilTime.local(event, in: tz).isoDate) ?? 0) - (CivilTime.dayNumber(CivilTime.local(now, in: tz).isoDate) ?? 0)
        if days == 1 { return ("1d", "Tomorrow") }
        if days < 7 { return ("\(days)d", "In \(days) days") }
        let f = DateFormatter()
        f.locale = context.locale
        f.timeZone = tz
        f.dateFormat = DateFormatter.dateFormat(fromTemplate: "EEEMMMd", options: 0, locale: context.locale) ?? "EEE MMM d"
        let on = "On " + f.string(from: event)
        if days < 14 { return ("\(days)d", on) }
        f.dateFormat = DateFormatter.dateFormat(fromTemplate: "MMMd", options: 0, locale: context.locale) ?? "MMM d"
        return (f.string(from: event), on)
    }

    // MARK: - Reminders

    func reminders() {
        defaultBackdrop()
        let area = contentRect(minPad: 10)
        var y = header(in: area, y: area.minY)
        let items = inputs.reminders?.items ?? []
        let title = primary.isEmpty ? "Today" : primary
        let done = items.filter(\.done).count
        b.addText(run(title, spec.style.primaryTextStyle, fallback: .headline, colour: palette.primary, weight: 600), x: area.minX, y: y, width: area.width - 50)
        if !items.isEmpty {
            b.addText(run("\(done)/\(items.count)", size: 11, weight: 600, colour: palette.secondary, tabular: true), x: area.maxX - 50, y: y + 4, width: 50, align: .trailing)
        }
        y += 28
        b.textLines = [title]
        guard !items.isEmpty else {
            let empty = inputs.unreadableSnapshots.contains("reminders.json") ? "snapshots/reminders.json could not be read."
                : inputs.reminders == nil ? "No reminders snapshot (snapshots/reminders.json) yet." : "No reminders to show."
            b.addText(run(empty, size: 12, colour: palette.secondary, lines: 3), x: area.minX, y: y, width: area.width)
            b.textLines.append("No reminders to show.")
            return
        }
        let columns = family == .medium ? 2 : 1
        let capacity = isSmall ? 3 : (family == .medium ? 6 : 10)
        let footerSpace = 18.0
        let rowSize: Double = isSmall ? 14 : (family == .medium ? 13 : 15)
        let columnWidth = (area.width - Double(columns - 1) * 12) / Double(columns)
        var shown = 0
        let ordered = items.filter { !$0.done } + items.filter(\.done)
        var rowY = y
        for (index, item) in ordered.prefix(capacity).enumerated() {
            var rr = run(item.title, size: rowSize, colour: item.done ? palette.secondary : palette.primary)
            rr.strikethrough = item.done
            let lh = b.lineHeightOf(rr)
            let column = index % columns
            if column == 0, index > 0 { rowY += lh + 8 }
            guard rowY + lh <= area.maxY - footerSpace else { break }
            let x = area.minX + Double(column) * (columnWidth + 12)
            let icon = rowSize + 2
            _ = b.symbol(item.done ? "checkmark.circle.fill" : "circle", centre: Point(x: x + icon / 2, y: rowY + lh / 2), size: icon, colour: item.done ? palette.secondary : accent)
            var due = ""
            if let d = item.due { due = CivilTime.local(d, in: inputs.context.timeZone).hourMinute }
            let dueWidth = due.isEmpty ? 0.0 : 40
            b.addText(rr, x: x + icon + 7, y: rowY, width: columnWidth - icon - 7 - dueWidth)
            if !due.isEmpty { b.addText(run(due, size: 11, colour: palette.secondary, tabular: true), x: x + columnWidth - dueWidth, y: rowY + 2, width: dueWidth, align: .trailing) }
            b.textLines.append("\(item.done ? "[x]" : "[ ]") \(item.title)\(due.isEmpty ? "" : " \(due)")")
            shown += 1
        }
        var footerLeft = area.minX
        if ordered.count > shown {
            let more = run("+\(ordered.count - shown) more", size: 11, weight: 600, colour: palette.secondary)
            footerLeft = (b.addText(more, x: area.minX, y: area.maxY - 14, width: area.width / 2)?.maxX ?? area.minX) + 8
        }
        if let at = inputs.reminders?.updatedAt {
            // The footer's room is what "+N more" leaves; on small that is too little for
            // "Updated 12 mins ago", so the word "Updated" goes before the time would be cut.
            var updated = run(Self.updatedAgo(at, now: inputs.context.now), size: 11, colour: palette.secondary)
            let room = area.maxX - footerLeft
            if b.measure(updated, width: 1_000).width > room, updated.text.hasPrefix("Updated ") {
                updated.text = String(updated.text.dropFirst("Updated ".count))
            }
            b.addText(updated, x: footerLeft, y: area.maxY - 14, width: room, align: .trailing)
        }
    }
}
