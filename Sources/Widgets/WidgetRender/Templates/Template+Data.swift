import CivilDates
import Foundation
import Snapshots
import WidgetDataKeys
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
        let now = inputs.context.now
        // The nowcast at the render's clock (the minute bins), not at the fetch.
        let w = inputs.weather?.at(now)
        // Data past its validity is drawn without colour and says so.
        let old = w?.isOld(at: now) == true
        let ink: RGBA = old ? RGBA(0.56, 0.56, 0.58) : dark ? .white : .black
        let dim: RGBA =
            old ? RGBA(0.56, 0.56, 0.58, 0.7) : dark ? RGBA(hex: 0xEBEBF5, alpha: 0.6) : RGBA(hex: 0x3C3C43, alpha: 0.6)
        let rainSoon = (w?.rainStartMinutes ?? 999) < 60
        if style.background == .subtleMaterial {
            let (top, bottom, glowColour): (Double, Double, RGBA) =
                w?.hasForecast != true
                ? (0.55, 0.75, accent.opacity(0.25))
                : rainSoon ? (0.40, 0.78, accent.opacity(0.35)) : (0.45, 0.82, RGBA.white.opacity(0.08))
            b.fill(bounds, .solid(RGBA(hex: 0x1C2433)), kind: .background)
            b.fill(
                bounds,
                .linear(
                    start: Point(x: 0, y: 0), end: Point(x: 0, y: bounds.height),
                    stops: [GradientStop(0, RGBA.black.opacity(top)), GradientStop(1, RGBA.black.opacity(bottom))]),
                kind: .background)
            let g = isSmall ? 110.0 : (family == .medium ? 150 : 220)
            b.fill(
                bounds,
                .radial(
                    centre: Point(x: bounds.midX + g * 0.4, y: bounds.midY - g * 0.27), radius: g,
                    stops: [GradientStop(0, glowColour), GradientStop(1, glowColour.opacity(0))]), kind: .background)
        } else {
            defaultBackdrop()
        }
        let pad = min(18, max(10, style.paddingPoints * (isSmall ? 0.85 : family == .medium ? 0.9 : 1))) * s
        let glass = bounds.insetBy(6)
        b.fill(
            glass, .solid(dark ? RGBA.white.opacity(0.11) : RGBA.black.opacity(0.07)),
            radius: min(26, max(14, style.cornerRadiusPoints)) - 4, stroke: RGBA.white.opacity(0.10))
        let area = bounds.insetBy(pad)
        guard let w, w.hasForecast else {
            let title = primary.isEmpty ? "Weather" : primary
            b.addText(run(title, size: 18 * s, weight: 700, colour: ink), x: area.minX, y: area.minY, width: area.width)
            b.addText(
                run("No weather data", size: 13 * s, weight: 600, colour: ink.opacity(0.85)), x: area.minX,
                y: area.minY + 30 * s, width: area.width)
            let hint =
                inputs.unreadableSnapshots.contains(SnapshotFile.weather.fileName)
                ? "snapshots/weather.json could not be read."
                : w?.location == nil
                    // What to do, where it is done (issue 41.17: the Data page showed a file name and
                    // a CLI command beside the very box that sets the place).
                    ? "Choose a place on the Data page." : "Waiting for a forecast for \(w!.location!)."
            b.addText(
                run(hint, size: 12 * s, colour: dim, lines: 3), x: area.minX, y: area.minY + 50 * s, width: area.width,
                maxY: area.maxY - 28 * s)
            _ = b.symbol(
                "cloud", centre: Point(x: area.maxX - 14 * s, y: area.maxY - 14 * s), size: 28 * s, colour: dim)
            b.textLines = [title, "No weather data"]
            return
        }
        let location = w.location ?? resolve("{{__weather_location|}}")
        let headline = Self.nowcastHeadline(w)
        // No minute data for the next hour (past the last bin, or a fetch that had none): no chart
        // plate is reserved for it. The headline says "Next-hour rain unavailable"; large moves its
        // hours and days up, medium shows the next hours there when they fit (the seed's fallbacks).
        let hasNowcast = w.window.map { !$0.isEmpty } ?? (w.nowcast != Nowcast.unavailable)
        let temp = w.temperatureC.map { temperatureText($0) } ?? "—"
        let hilo: String? = (w.highC != nil && w.lowC != nil) ? "H \(degrees(w.highC!)) L \(degrees(w.lowC!))" : nil
        let status = weatherStatus(w, old: old)
        b.textLines = [
            location, headline, w.nowcastSecondary ?? "",
            [temp, w.condition ?? ""].filter { !$0.isEmpty }.joined(separator: " "), hilo ?? "",
            status.long,
        ].filter { !$0.isEmpty }
        var y = area.minY
        if !location.isEmpty {
            if let r = b.addText(
                run(location, size: (isSmall ? 12 : 13) * s, weight: 600, colour: dim), x: area.minX, y: y,
                width: area.width - 30 * s)
            {
                y = r.maxY + 2 * s
            }
        }
        var smallSymbol: Rect?
        if isSmall, let sym = w.symbol, !sym.isEmpty {
            smallSymbol = b.symbol(
                sym, centre: Point(x: area.maxX - 11 * s, y: area.minY + 9 * s), size: 22 * s, colour: ink,
                field: "snapshots/weather.json symbol")
        }
        let nowSize: Double = (isSmall ? 16 : (family == .medium ? 18 : 20)) * s
        var leftWidth = isSmall ? area.width : area.width * 0.62
        let secondText = isSmall ? nil : (w.nowcastSecondary ?? w.condition).flatMap { $0.isEmpty ? nil : $0 }
        // Small: "Update failed" / "Weather data is old" on its own line above the temperature.
        let smallStatusRun = isSmall ? status.short.map { run($0, size: 11 * s, weight: 600, colour: dim) } : nil
        let smallStatusHeight = smallStatusRun.map { b.measure($0, width: area.width).height + 2 * s } ?? 0
        // Large: the next hours and the coming days under the chart.
        let extrasHeight = family == .large ? largeExtrasHeight(w, scale: s) : 0
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
            return Rect(x: area.minX, y: y, width: m.width, height: m.height).intersects(symbolRect)
                ? symbolRect.maxY : y
        }
        let labelSpace = isSmall ? 0 : 14 * s
        // Small: the high/low beside the temperature, or on its own line above it when it would be cut there.
        let hiloRun = hilo.map { run($0, size: 12 * s, weight: 500, colour: dim) }
        let hiloAbove =
            isSmall && hiloRun.map { b.measure($0, width: 10_000).width > area.width - tm.width - 8 * s } == true
        let hiloAboveHeight = hiloAbove ? b.measure(hiloRun!, width: area.width).height + 2 * s : 0
        let chartBottom =
            isSmall
            ? area.maxY - tm.height - hiloAboveHeight - smallStatusHeight - 6 * s
            : area.maxY - 16 * s - 4 * s - extrasHeight
        let minChart = 22 + labelSpace

        // The first arrangement whose chart fits (see the doc comment).
        struct Arrangement {
            var headline: TextRun
            var secondary: Bool
            var hiloInFooter: Bool
            var chartTop: Double
        }
        let twoLines = run(headline, size: nowSize, weight: 700, colour: ink, lines: 2)
        let oneLine = shrunkToOneLine(twoLines, width: leftWidth)
        var options: [(TextRun?, Bool, Bool)] = [(twoLines, true, false)]
        if !isSmall {
            options += [(twoLines, true, true), (twoLines, false, true), (oneLine, true, true), (oneLine, false, true)]
        } else {
            options.append((oneLine, false, false))
        }
        // Without a chart the text is drawn in full, whatever the room.
        if !hasNowcast { options = [options[0]] }
        var chosen: Arrangement?
        for case let (headlineRun?, secondary, hiloInFooter) in options {
            var top = headlineTop(headlineRun) + b.measure(headlineRun, width: leftWidth).height + 3 * s
            if secondary, let secondRun { top += b.measure(secondRun, width: leftWidth).height + 4 * s }
            top += 6 * s
            if !isSmall {
                // Below the temperature column: the temperature (and the high/low under it).
                top = max(
                    top, hiloInFooter ? area.minY + tm.height + 6 * s : area.minY + (family == .large ? 64 : 58) * s)
            }
            if chartBottom - top >= minChart || !hasNowcast {
                chosen = Arrangement(
                    headline: headlineRun, secondary: secondary, hiloInFooter: hiloInFooter, chartTop: top)
                break
            }
        }
        let layout =
            chosen ?? Arrangement(headline: twoLines, secondary: true, hiloInFooter: false, chartTop: .infinity)
        if let r = b.addText(layout.headline, x: area.minX, y: headlineTop(layout.headline), width: leftWidth) {
            y = r.maxY + 3 * s
        }
        if layout.secondary, let secondRun {
            if let r = b.addText(secondRun, x: area.minX, y: y, width: leftWidth) { y = r.maxY + 4 * s }
        }
        if isSmall {
            let ty = area.maxY - tm.height
            b.addText(tr, x: area.minX, y: ty, width: area.width)
            if let smallStatusRun {
                let sy = ty - hiloAboveHeight - smallStatusHeight
                _ = b.symbol(
                    "exclamationmark.triangle.fill",
                    centre: Point(x: area.minX + 6 * s, y: sy + smallStatusHeight / 2 - 1 * s), size: 11 * s,
                    colour: dim)
                b.addText(smallStatusRun, x: area.minX + 14 * s, y: sy, width: area.width - 14 * s)
            }
            if let hiloRun {
                let besideWidth = area.width - tm.width - 8 * s
                if !hiloAbove {
                    b.addText(hiloRun, x: area.minX + tm.width + 8 * s, y: ty + tm.height - 20 * s, width: besideWidth)
                } else if (chosen != nil && hasNowcast) || ty - hiloAboveHeight >= y {
                    b.addText(hiloRun, x: area.minX, y: ty - hiloAboveHeight, width: area.width)
                } else if let shrunk = shrunkToOneLine(hiloRun, width: besideWidth) {
                    b.addText(shrunk, x: area.minX + tm.width + 8 * s, y: ty + tm.height - 20 * s, width: besideWidth)
                }
                // Otherwise there is no room for it at this scale (the text rendition keeps it).
            }
            if chosen != nil, hasNowcast {
                chart(
                    Rect(x: area.minX, y: layout.chartTop, width: area.width, height: chartBottom - layout.chartTop), w,
                    labels: false, scale: s, old: old)
            }
        } else {
            let tempRect = b.addText(
                tr, x: area.minX + leftWidth, y: area.minY, width: area.width - leftWidth, align: .trailing)
            if let sym = w.symbol, !sym.isEmpty, let tempRect {
                _ = b.symbol(
                    sym, centre: Point(x: tempRect.minX - 18 * s, y: tempRect.midY), size: 26 * s, colour: ink,
                    field: "snapshots/weather.json symbol")
            }
            if let hilo {
                if layout.hiloInFooter {
                    b.addText(
                        run(hilo, size: 12 * s, weight: 500, colour: dim), x: area.minX, y: area.maxY - 15 * s,
                        width: area.width / 2)
                } else {
                    b.addText(
                        run(hilo, size: 13 * s, weight: 500, colour: dim), x: area.minX + leftWidth,
                        y: area.minY + tempSize * 1.25, width: area.width - leftWidth, align: .trailing)
                }
            }
            if hasNowcast {
                if chosen != nil {
                    chart(
                        Rect(
                            x: area.minX, y: layout.chartTop, width: area.width, height: chartBottom - layout.chartTop),
                        w, labels: true, scale: s, old: old)
                }
                if family == .large, extrasHeight > 0 {
                    largeExtras(w, top: chartBottom + 8 * s, area: area, scale: s, ink: ink, dim: dim, old: old)
                }
            } else if family == .large, extrasHeight > 0 {
                // Under the text, where the chart would have started.
                largeExtras(
                    w, top: min(layout.chartTop, chartBottom + 8 * s), area: area, scale: s, ink: ink, dim: dim,
                    old: old)
            } else if family == .medium, chosen != nil,
                area.maxY - 16 * s - layout.chartTop >= (Self.hourStripHeight - 2) * s
            {
                // The strip's last line ends ~2 pt above its nominal height: down to the footer's top.
                hourStrip(upcomingHours(w), top: layout.chartTop, area: area, scale: s, ink: ink, dim: dim)
            }
            if !status.long.isEmpty {
                let footer = run(status.long, size: 11 * s, weight: 500, colour: dim)
                let footerX = layout.hiloInFooter ? area.minX + area.width / 2 : area.minX
                if let r = b.addText(
                    footer, x: footerX, y: area.maxY - 14 * s, width: area.maxX - footerX, align: .trailing),
                    w.refreshFailed || old
                {
                    _ = b.symbol(
                        "exclamationmark.triangle.fill", centre: Point(x: r.minX - 8 * s, y: r.midY), size: 11 * s,
                        colour: dim)
                }
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
            _ = b.measure(&r, width: width)
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
        case ..<1440:
            let h = minutes / 60
            return "Updated \(h) hr\(h == 1 ? "" : "s") ago"
        default:
            let d = minutes / 1440
            return "Updated \(d) day\(d == 1 ? "" : "s") ago"
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

    /// What the footer (medium, large) or the status line (small) says about the data's age and
    /// the last refresh: "Updated 44 mins ago · Update failed", "Weather data is old · Updated 5
    /// hrs ago"; `short` is small's line ("Update failed · 22:05", the time of the last good data).
    func weatherStatus(_ w: WeatherState, old: Bool) -> (long: String, short: String?) {
        guard let at = w.fetchedAt else {
            return (w.refreshFailed ? "Update failed" : "", w.refreshFailed ? "Update failed" : nil)
        }
        let ago = Self.updatedAgo(at, now: inputs.context.now)
        let clock = CivilTime.local(at, in: inputs.context.timeZone).hourMinute
        if old {
            return ("Weather data is old · \(ago)" + (w.refreshFailed ? " · Update failed" : ""), "Weather data is old")
        }
        if w.refreshFailed { return ("\(ago) · Update failed", "Update failed · \(clock)") }
        return (ago, nil)
    }

    /// The window the chart draws: the bins at the render's clock, or, for a snapshot without
    /// bins, the fetch's summary as a flat run from the rain's start to its end at its peak.
    func chartWindow(_ w: WeatherState) -> [Nowcast.Minute] {
        if let window = w.window { return window }
        guard let start = w.rainStartMinutes, start < 60 else {
            return Array(repeating: Nowcast.Minute(intensityMMh: 0, chance: 0), count: 60)
        }
        let end = min(60, Int((w.rainEndMinutes ?? 60).rounded()))
        let peak = Nowcast.Minute(intensityMMh: w.rainPeakIntensityMMh ?? 1, chance: w.rainPeakChance ?? 1)
        return (0..<60).map {
            $0 >= Int(start.rounded()) && $0 < max(Int(start.rounded()) + 1, end)
                ? peak : Nowcast.Minute(intensityMMh: 0, chance: 0)
        }
    }

    /// The nowcast chart: a black plate with the seed's rain surface over the next 60 minutes,
    /// "Now" and "60m" under it on medium and large.
    func chart(_ r: Rect, _ w: WeatherState, labels: Bool, scale s: Double = 1, old: Bool = false) {
        guard r.height > 8 else { return }
        let labelSpace = labels ? 14.0 * s : 0
        let plot = Rect(x: r.minX, y: r.minY, width: r.width, height: r.height - labelSpace)
        b.fill(plot, .solid(.black), radius: 8 * s)
        let surface = RainSurface(
            window: chartWindow(w), plot: plot.insetBy(dx: 3 * s, dy: 0), seed: Self.surfaceSeed(w),
            colours: old ? .old : .rain)
        b.add(.chart, plot, .rainSurface(surface))
        if labels {
            let dim = RGBA.white.opacity(0.45)
            b.addText(
                run("Now", size: 11 * s, weight: 500, colour: dim), x: r.minX + 2, y: plot.maxY + 1, width: 60 * s)
            b.addText(
                run("60m", size: 11 * s, weight: 500, colour: dim), x: r.maxX - 2 - 60 * s, y: plot.maxY + 1,
                width: 60 * s, align: .trailing)
        }
    }

    /// The texture's seed: the window's first minute, so a redraw in the same minute of the same
    /// snapshot draws the same pixels and the next minute moves the grain on.
    static func surfaceSeed(_ w: WeatherState) -> UInt64 {
        let minute = Int64(((w.windowStartsAt ?? w.fetchedAt)?.timeIntervalSince1970 ?? 0) / 60)
        return UInt64(bitPattern: minute) &* 0x9E37_79B9_7F4A_7C15 ^ 0x5241_494E
    }

    /// Large: the next hours (a strip of up to six) and the coming days (up to three rows).
    func largeExtrasHeight(_ w: WeatherState, scale s: Double) -> Double {
        let hours = upcomingHours(w), days = comingDays(w)
        var h = 0.0
        if !hours.isEmpty { h += Self.hourStripHeight * s }
        if !days.isEmpty { h += Double(days.count) * 19 * s + 4 * s }
        return h > 0 ? h + 8 * s : 0
    }

    func upcomingHours(_ w: WeatherState) -> [WeatherState.Hour] {
        Array(w.hourly.filter { $0.time > inputs.context.now }.prefix(6))
    }

    /// Days after the render's local date (today's high and low are in the header).
    func comingDays(_ w: WeatherState) -> [WeatherState.Day] {
        let today = CivilTime.local(inputs.context.now, in: inputs.context.timeZone)
        let key = String(format: "%04d-%02d-%02d", today.year, today.month, today.day)
        return Array(w.daily.filter { $0.date > key }.prefix(3))
    }

    /// The hour strip's height at scale 1, points.
    static let hourStripHeight = 50.0

    /// A row of up to six hours: time, symbol, temperature; nothing when `hours` is empty.
    func hourStrip(_ hours: [WeatherState.Hour], top y: Double, area: Rect, scale s: Double, ink: RGBA, dim: RGBA) {
        guard !hours.isEmpty else { return }
        let cell = area.width / Double(hours.count)
        for (i, h) in hours.enumerated() {
            let x = area.minX + Double(i) * cell
            let local = CivilTime.local(h.time, in: inputs.context.timeZone)
            b.addText(
                run(local.hourMinute, size: 11 * s, weight: 500, colour: dim, tabular: true), x: x, y: y,
                width: cell, align: .centre)
            if let sym = h.symbol, !sym.isEmpty {
                _ = b.symbol(
                    sym, centre: Point(x: x + cell / 2, y: y + 23 * s), size: 16 * s, colour: ink,
                    field: "snapshots/weather.json snapshot.hourly symbol")
            }
            let t = h.temperatureC.map(degrees) ?? "—"
            b.addText(
                run(t, size: 12 * s, weight: 600, colour: ink, tabular: true), x: x, y: y + 33 * s, width: cell,
                align: .centre)
        }
    }

    func largeExtras(_ w: WeatherState, top: Double, area: Rect, scale s: Double, ink: RGBA, dim: RGBA, old: Bool) {
        var y = top
        let hours = upcomingHours(w)
        if !hours.isEmpty {
            hourStrip(hours, top: y, area: area, scale: s, ink: ink, dim: dim)
            y += Self.hourStripHeight * s
        }
        let days = comingDays(w)
        if !days.isEmpty {
            y += 4 * s
            b.add(
                .line, Rect(x: area.minX, y: y - 2 * s, width: area.width, height: 0.5),
                .line(
                    from: Point(x: area.minX, y: y - 2 * s), to: Point(x: area.maxX, y: y - 2 * s),
                    colour: dim.opacity(0.35), width: 0.5, roundCaps: false))
            for d in days {
                b.addText(
                    run(Self.weekdayName(d.date), size: 12 * s, weight: 600, colour: ink), x: area.minX, y: y + 1 * s,
                    width: area.width * 0.4)
                if let sym = d.symbol, !sym.isEmpty {
                    _ = b.symbol(
                        sym, centre: Point(x: area.minX + area.width * 0.45, y: y + 9 * s), size: 14 * s, colour: ink,
                        field: "snapshots/weather.json snapshot.daily symbol")
                }
                if let chance = d.precipitationChance, chance >= 0.2 {
                    b.addText(
                        run(
                            "\(Int((chance * 100).rounded()))%", size: 11 * s, weight: 500,
                            colour: RGBA(0.35, 0.65, 1).opacity(old ? 0.5 : 1)),
                        x: area.minX + area.width * 0.5, y: y + 2 * s, width: area.width * 0.15)
                }
                let hl = [d.highC.map { "H \(degrees($0))" }, d.lowC.map { "L \(degrees($0))" }].compactMap { $0 }
                    .joined(separator: " ")
                b.addText(
                    run(hl, size: 12 * s, weight: 500, colour: dim, tabular: true), x: area.minX + area.width * 0.6,
                    y: y + 1 * s, width: area.width * 0.4, align: .trailing)
                y += 19 * s
            }
        }
    }

    /// "Mon" for `yyyy-MM-dd` (the civil date's weekday; no time zone involved).
    static func weekdayName(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return date }
        let days = CivilCalendar.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
        // 1970-01-01 was a Thursday.
        return ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
    }

    // MARK: - Next Up

    func nextUp() {
        defaultBackdrop()
        let area = contentRect().insetBy(isSmall ? 0 : 2)
        let now = inputs.context.now
        guard let cal = inputs.calendar, !cal.accessDenied else {
            emptyCalendar(
                area, title: inputs.calendar == nil ? "Nothing next" : "Calendar access is off.",
                detail: inputs.unreadableSnapshots.contains(SnapshotFile.calendar.fileName)
                    ? "snapshots/calendar.json could not be read."
                    : inputs.calendar == nil
                        ? "No calendar snapshot (snapshots/calendar.json) yet."
                        : "Allow calendar access to show your events.")
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
        b.addText(
            run(header, size: 12, weight: 600, colour: palette.secondary), x: area.minX, y: area.minY,
            width: area.width / 2)
        b.addText(
            run(short, size: 12, weight: 600, colour: accent), x: area.midX, y: area.minY, width: area.width / 2,
            align: .trailing)
        var y = area.minY + 26
        if let r = b.addText(
            run(first.title, size: 17, weight: 600, colour: palette.primary, lines: isSmall ? 2 : 3), x: area.minX,
            y: y, width: area.width, maxY: area.maxY)
        {
            y = r.maxY + 4
        }
        if let r = b.addText(
            run(label, size: 12, colour: palette.secondary), x: area.minX, y: y, width: area.width, maxY: area.maxY)
        {
            y = r.maxY + 4
        }
        let range =
            first.isAllDay
            ? "All day" : engine.templates.eventTimeRange(start: first.start, end: first.end, in: inputs.context)
        if let r = b.addText(
            run(range, size: 11, colour: palette.secondary), x: area.minX, y: y, width: area.width, maxY: area.maxY)
        {
            y = r.maxY + 4
        }
        if !isSmall, !(family == .medium && events.count > 1), let loc = first.location, !loc.isEmpty {
            if let r = b.addText(
                run(loc, size: 11, colour: palette.secondary), x: area.minX, y: y, width: area.width, maxY: area.maxY)
            {
                y = r.maxY + 4
            }
        }
        b.textLines = ["\(header): \(first.title) (\(label))", range]
        if !isSmall, events.count > 1 {
            let second = events[1]
            let (short2, _) = Self.countdown(
                second.start.timeIntervalSince(now), event: second.start, now: now, context: inputs.context)
            let top = family == .medium ? max(y + 4, area.maxY - 40) : y + 10
            guard top + 38 <= area.maxY + 1 else { return }
            b.fill(
                Rect(x: area.minX, y: top, width: area.width, height: 1), .solid(palette.primary.opacity(0.35 * 0.4)))
            b.addText(
                run("Then", size: 11, weight: 600, colour: palette.secondary), x: area.minX, y: top + 6,
                width: area.width / 2)
            b.addText(
                run(short2, size: 11, weight: 600, colour: accent.opacity(0.85)), x: area.midX, y: top + 6,
                width: area.width / 2, align: .trailing)
            b.addText(
                run(second.title, size: 15, weight: 600, colour: palette.primary), x: area.minX, y: top + 20,
                width: area.width)
            b.textLines.append("Then: \(second.title)")
        }
    }

    func emptyCalendar(_ area: Rect, title: String, detail: String) {
        b.addText(
            run("Next Up", size: 12, weight: 600, colour: palette.secondary), x: area.minX, y: area.minY,
            width: area.width - 24)
        _ = b.symbol(
            inputs.calendar?.accessDenied == true ? "calendar.badge.exclamationmark" : "calendar",
            centre: Point(x: area.maxX - 9, y: area.minY + 8), size: 18, colour: accent.opacity(0.9))
        b.addText(
            run(title, size: 17, weight: 600, colour: palette.primary, lines: 2), x: area.minX, y: area.minY + 26,
            width: area.width)
        b.addText(
            run(detail, size: 12, colour: palette.secondary, lines: 3), x: area.minX, y: area.minY + 50,
            width: area.width, maxY: area.maxY)
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
        let days =
            (CivilTime.dayNumber(CivilTime.local(event, in: tz).isoDate) ?? 0)
            - (CivilTime.dayNumber(CivilTime.local(now, in: tz).isoDate) ?? 0)
        if days == 1 { return ("1d", "Tomorrow") }
        if days < 7 { return ("\(days)d", "In \(days) days") }
        let f = DateFormatter()
        f.locale = context.locale
        f.timeZone = tz
        f.dateFormat =
            DateFormatter.dateFormat(fromTemplate: "EEEMMMd", options: 0, locale: context.locale) ?? "EEE MMM d"
        let on = "On " + f.string(from: event)
        if days < 14 { return ("\(days)d", on) }
        f.dateFormat = DateFormatter.dateFormat(fromTemplate: "MMMd", options: 0, locale: context.locale) ?? "MMM d"
        return (f.string(from: event), on)
    }
}
