import CivilDates
import Foundation
import Snapshots
import WidgetDataKeys
import WidgetDesign

/// The Forecast template (the seed's lock-screen weather widget): four days from the weather
/// snapshot, each with its weekday, high and low, condition, the chance of rain as five drops
/// (one filled per 20 %), and the day's real hourly temperatures as a curve behind it (06:00 to
/// midnight). Stale rules from the last good fetch: the current temperature is hidden after 3
/// hours, everything shows as unknown ("?") after 6; a missing value is "?", never 0.
extension TemplateContext {
    struct ForecastColumn {
        var date: String
        var weekday: String
        var high: String
        var low: String
        var symbol: String?
        var condition: String
        /// 0…5 drops filled; nil when unknown.
        var drops: Int?
        /// (fraction of the day's 06:00…24:00 span, °C).
        var curve: [(Double, Double)]
    }

    /// Drops filled for a chance of rain (0…1): one per full 20 %.
    static func raindrops(_ chance: Double) -> Int { min(5, max(0, Int((chance * 100 + 1e-9) / 20))) }

    func forecastColumns(_ f: ForecastSnapshot?, freshness: ForecastFreshness, count: Int = 4) -> [ForecastColumn] {
        // The snapshot's dates are the place's: its days (and "today") are counted in its zone.
        let tz = f?.timeZone.flatMap(TimeZone.init(identifier:)) ?? inputs.context.timeZone
        let today = CivilTime.local(inputs.context.now, in: tz)
        let todayNumber = CivilTime.daysSinceEpoch(year: today.year, month: today.month, day: today.day)
        let weekdayFormatter = DateFormatter()
        weekdayFormatter.locale = inputs.context.locale
        weekdayFormatter.timeZone = TimeZone(identifier: "UTC")
        weekdayFormatter.dateFormat = "EEE"
        let known = freshness != .unknown
        var columns: [ForecastColumn] = []
        for i in 0..<count {
            let n = todayNumber + i
            let d = CivilTime.date(daysSinceEpoch: n)
            let date = CivilTime(year: d.year, month: d.month, day: d.day).isoDate
            let weekday = weekdayFormatter.string(from: Date(timeIntervalSince1970: Double(n) * 86_400 + 43_200))
            let day = known ? f?.days.first { $0.date == date } : nil
            var curve: [(Double, Double)] = []
            if known, let hours = f?.hours {
                for h in hours {
                    let local = CivilTime.local(h.time, in: tz)
                    guard local.isoDate == date, local.hour >= 6 else { continue }
                    curve.append(((Double(local.hour - 6) + Double(local.minute) / 60) / 18, h.temperatureC))
                }
            }
            columns.append(
                ForecastColumn(
                    date: date, weekday: weekday,
                    high: day?.highC.map(degrees) ?? "?", low: day?.lowC.map(degrees) ?? "?",
                    symbol: day?.symbol.flatMap { $0.isEmpty ? nil : $0 }, condition: day?.condition ?? "?",
                    drops: day?.precipitationChance.map(Self.raindrops), curve: curve))
        }
        return columns
    }

    /// A drop: a circle under a point, `size` tall.
    func raindrop(centre c: Point, size: Double, filled: Bool, colour: RGBA) {
        let r = size * 0.32
        let bottom = Point(x: c.x, y: c.y + size / 2 - r)
        var points: [Point] = [Point(x: c.x, y: c.y - size / 2)]
        // The round bottom, from the right tangent to the left one.
        let steps = 12
        for i in 0...steps {
            let a = -0.35 * .pi + (1.7 * .pi) * Double(i) / Double(steps)
            points.append(Point(x: bottom.x + r * cos(a), y: bottom.y + r * sin(a)))
        }
        b.add(
            .shape, Rect(x: c.x - r, y: c.y - size / 2, width: 2 * r, height: size),
            .polygon(points: points, fill: .solid(filled ? colour : colour.opacity(0.28))))
    }

    /// Five drops centred at `centre`; all dim when unknown.
    func raindrops(_ filled: Int?, centre: Point, size: Double, colour: RGBA) {
        let gap = size * 0.78
        for i in 0..<5 {
            let x = centre.x + (Double(i) - 2) * gap
            raindrop(centre: Point(x: x, y: centre.y), size: size, filled: (filled ?? 0) > i, colour: colour)
        }
    }

    /// Each column's hourly curve in its own slice of `band`, on one temperature scale.
    func forecastCurves(_ columns: [ForecastColumn], band: Rect, colour: RGBA, width: Double) {
        let all = columns.flatMap { $0.curve.map(\.1) }
        guard let lo = all.min(), let hi = all.max() else { return }
        let span = max(hi - lo, 4)
        let mid = (hi + lo) / 2
        let columnWidth = band.width / Double(columns.count)
        for (i, column) in columns.enumerated() where column.curve.count >= 2 {
            let x0 = band.minX + Double(i) * columnWidth + 3, w = columnWidth - 6
            let points = column.curve.map { Point(x: x0 + w * $0.0, y: band.midY - ($0.1 - mid) / span * band.height) }
            for (a, p) in zip(points, points.dropFirst()) {
                b.add(.line, band, .line(from: a, to: p, colour: colour, width: width, roundCaps: true))
            }
        }
    }

    func forecastUpdated(_ f: ForecastSnapshot?, short: Bool = false) -> String {
        guard let at = f?.fetchedAt else { return short ? "?" : "No forecast yet" }
        let text = Self.updatedAgo(at, now: inputs.context.now)
        guard short else { return text }
        let minutes = Int(max(0, inputs.context.now.timeIntervalSince(at)) / 60)
        return minutes < 60 ? "\(minutes)m" : minutes < 1440 ? "\(minutes / 60)h" : "\(minutes / 1440)d"
    }

    /// The current temperature and condition as the stale rules allow.
    func forecastCurrent(_ f: ForecastSnapshot?, _ freshness: ForecastFreshness) -> (
        temp: String, condition: String, symbol: String?
    ) {
        switch freshness {
        case .unknown: return ("?", "?", nil)
        case .currentHidden: return ("–", f?.condition ?? "?", f?.symbol)
        case .fresh: return (f?.temperatureC.map(degrees) ?? "?", f?.condition ?? "?", f?.symbol)
        }
    }

    func coordinates(_ f: ForecastSnapshot?) -> String {
        guard let lat = f?.latitude, let lon = f?.longitude else { return "" }
        return String(format: "%.2f, %.2f", lat, lon)
    }

    func forecast() {
        defaultBackdrop()
        let f = inputs.forecast
        let freshness = ForecastFreshness.at(inputs.context.now, fetchedAt: f?.fetchedAt)
        let columns = forecastColumns(f, freshness: freshness)
        let current = forecastCurrent(f, freshness)
        let area = contentRect(minPad: 12).insetBy(dx: -2, dy: -2)
        let location =
            f?.location
            ?? (inputs.unreadableSnapshots.contains(SnapshotFile.weather.fileName)
                ? "weather.json unreadable" : "No location")
        let updated = forecastUpdated(f)
        b.textLines =
            [location]
            + columns.map {
                "\($0.weekday) \($0.high)/\($0.low) \($0.condition) rain \($0.drops.map { "\($0 * 20)%+" } ?? "?")"
            }
            + ["Now \(current.temp) \(current.condition)", updated]
        let large = family == .large
        b.addText(
            run(location, size: 12, weight: 600, colour: palette.primary), x: area.minX, y: area.minY,
            width: area.width * 0.6)
        b.addText(
            run(coordinates(f), size: 11, colour: palette.secondary, tabular: true), x: area.midX, y: area.minY + 1,
            width: area.width / 2, align: .trailing)
        if isSmall {
            // Rows: weekday, symbol, high/low, drops.
            let top = area.minY + 20, rowHeight = (area.height - 20 - 20) / 4
            for (i, c) in columns.enumerated() {
                let y = top + Double(i) * rowHeight
                b.addText(
                    run(c.weekday, size: 12, weight: 600, colour: palette.primary), x: area.minX, y: y + 2, width: 36)
                forecastSymbol(c, centre: Point(x: area.minX + 44, y: y + rowHeight / 2), size: 15)
                b.addText(
                    run("\(c.high) \(c.low)", size: 12, weight: 600, colour: palette.primary, tabular: true),
                    x: area.minX + 52, y: y + 2, width: 50, align: .trailing)
                raindrops(c.drops, centre: Point(x: area.maxX - 16, y: y + rowHeight / 2), size: 7, colour: accent)
            }
        } else {
            let headerSpace = 20.0, footerSpace = 20.0
            let body = Rect(
                x: area.minX, y: area.minY + headerSpace, width: area.width,
                height: area.height - headerSpace - footerSpace)
            let columnWidth = body.width / 4
            // The curves sit behind the columns, in the band between the high/low and the drops.
            let bandTop = body.minY + (large ? 50 : 36), bandBottom = large ? body.midY + 24 : body.maxY - 16
            let band = Rect(x: body.minX, y: bandTop, width: body.width, height: max(0, bandBottom - bandTop))
            // Opaque (a dimmed accent): translucent segments would darken where their round caps overlap.
            forecastCurves(
                columns, band: band, colour: RGBA(accent.r * 0.7, accent.g * 0.7, accent.b * 0.7),
                width: large ? 2.5 : 2)
            for (i, c) in columns.enumerated() {
                let x = body.minX + Double(i) * columnWidth
                if i > 0 {
                    b.fill(
                        Rect(x: x, y: body.minY + 4, width: 1, height: body.height - 8),
                        .solid(palette.primary.opacity(0.08)))
                }
                b.addText(
                    run(i == 0 ? "Today" : c.weekday, size: large ? 15 : 12, weight: 700, colour: palette.primary),
                    x: x, y: body.minY, width: columnWidth, align: .centre)
                let hilo = run(
                    "\(c.high) \(c.low)", size: large ? 14 : 12, weight: 600, colour: palette.secondary, tabular: true)
                b.addText(hilo, x: x, y: body.minY + (large ? 22 : 16), width: columnWidth, align: .centre)
                forecastSymbol(
                    c, centre: Point(x: x + columnWidth / 2, y: body.midY + (large ? 10 : 6)), size: large ? 34 : 22)
                if large {
                    b.addText(
                        run(c.condition, size: 11, colour: palette.secondary, lines: 2), x: x + 4, y: body.midY + 32,
                        width: columnWidth - 8, align: .centre)
                }
                raindrops(
                    c.drops, centre: Point(x: x + columnWidth / 2, y: body.maxY - (large ? 10 : 6)),
                    size: large ? 11 : 8, colour: accent)
            }
            let footerY = area.maxY - 15
            var x = area.minX
            if let sym = current.symbol, !sym.isEmpty {
                _ = b.symbol(
                    sym, centre: Point(x: x + 8, y: footerY + 7), size: 14, colour: palette.primary,
                    field: "snapshots/weather.json symbol")
                x += 20
            }
            b.addText(
                run("\(current.temp) \(current.condition)", size: 12, weight: 600, colour: palette.primary), x: x,
                y: footerY, width: area.midX - x)
            b.addText(
                run(updated, size: 11, colour: freshness == .fresh ? palette.secondary : countdownRed.opacity(0.9)),
                x: area.midX, y: footerY + 1, width: area.width / 2, align: .trailing)
        }
        if isSmall {
            b.addText(
                run("\(current.temp) \(current.condition)", size: 11, weight: 600, colour: palette.primary),
                x: area.minX, y: area.maxY - 14, width: area.width * 0.55)
            b.addText(
                run(
                    forecastUpdated(f, short: true), size: 11,
                    colour: freshness == .fresh ? palette.secondary : countdownRed.opacity(0.9)),
                x: area.midX, y: area.maxY - 14, width: area.width / 2, align: .trailing)
        }
    }

    /// The day's condition symbol, or "?" when unknown.
    func forecastSymbol(_ c: ForecastColumn, centre: Point, size: Double, colour: RGBA? = nil) {
        if let s = c.symbol {
            _ = b.symbol(
                s, centre: centre, size: size, colour: colour ?? palette.primary,
                field: "snapshots/weather.json daily symbol")
        } else {
            let r = run("?", size: size * 0.8, weight: 700, colour: colour ?? palette.secondary)
            let m = b.measure(r, width: size * 2)
            b.addText(r, x: centre.x - size, y: centre.y - m.height / 2, width: size * 2, align: .centre)
        }
    }

    func forecastAccessory() {
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        let f = inputs.forecast
        let freshness = ForecastFreshness.at(inputs.context.now, fetchedAt: f?.fetchedAt)
        let columns = forecastColumns(f, freshness: freshness)
        let current = forecastCurrent(f, freshness)
        b.textLines =
            [f?.location ?? "Forecast"] + columns.map { "\($0.weekday) \($0.high)/\($0.low)" } + ["Now \(current.temp)"]
        switch family {
        case .circular:
            b.add(.shape, bounds, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            forecastSymbol(columns[0], centre: Point(x: bounds.midX, y: 24), size: 18, colour: ink)
            b.addText(
                run(current.temp, size: 17, weight: 700, colour: ink), x: 6, y: 36, width: bounds.width - 12,
                align: .centre)
        case .rectangular:
            // The seed's lock-screen layout: place and age on top, four day columns, the curve behind.
            b.addText(
                run("\(current.temp) \(f?.location ?? "")", size: 11, weight: 600, colour: ink), x: 1, y: 0,
                width: bounds.width - 30)
            b.addText(
                run(forecastUpdated(f, short: true), size: 10, colour: dim), x: bounds.width - 30, y: 1, width: 29,
                align: .trailing)
            let columnWidth = bounds.width / 4
            forecastCurves(
                columns, band: Rect(x: 0, y: 30, width: bounds.width, height: 18), colour: RGBA(0.6, 0.6, 0.62),
                width: 1.5)
            for (i, c) in columns.enumerated() {
                let x = Double(i) * columnWidth
                b.addText(
                    run(c.weekday, size: 10, weight: 700, colour: ink), x: x, y: 15, width: columnWidth, align: .centre)
                forecastSymbol(c, centre: Point(x: x + columnWidth / 2, y: 37), size: 12, colour: ink)
                b.addText(
                    run("\(c.high)/\(c.low)", size: 10, weight: 600, colour: ink, tabular: true),
                    x: x, y: 46, width: columnWidth, align: .centre)
                raindrops(c.drops, centre: Point(x: x + columnWidth / 2, y: 69), size: 5.5, colour: ink)
            }
        default:
            let days = columns.prefix(2).map { "\($0.weekday) \($0.high)/\($0.low)" }.joined(separator: " · ")
            b.addText(
                run("\(current.temp) · \(days)", size: 15, weight: 500, colour: ink), x: 0, y: 4, width: bounds.width)
        }
    }
}
