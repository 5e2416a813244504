import CivilDates
import Foundation
import TemplateLanguage
import WidgetDesign

/// The Countdown template: the time left to `countdown.target` (a time, a variable holding one,
/// or the noise sleep timer's end), `m:ss` under an hour and `h:mm:ss` above, in the accent
/// colour, red in the last 10 seconds, then "end" (the seed's Timer widget). The layout asks a
/// live host to draw again when the text next changes (`CountdownReading.nextChange`).
extension TemplateContext {
    /// What the countdown counts to, or why there is nothing to count.
    enum CountdownSource {
        case target(Date, ticking: Bool, detail: String)
        case missing(title: String, detail: String)
    }

    func countdownSource() -> CountdownSource {
        guard let target = spec.countdown?.target else {
            return .missing(
                title: "No target", detail: "Set one: weaver designs set ID countdown.target=2026-12-31T23:59:00Z")
        }
        let now = inputs.context.now
        switch target {
        case .instant(let date):
            return .target(date, ticking: true, detail: untilText(date))
        case .variable(let key):
            let value = resolve("{{\(key)}}")
            guard !value.isEmpty else { return .missing(title: "Not set", detail: "{{\(key)}} holds no time yet") }
            guard let date = DateParsing.parse(value, now: now, timeZone: inputs.context.timeZone) else {
                b.warnings.append(
                    "countdown.target: {{\(key)}} holds '\(value.prefix(60))', not a time; showing no countdown")
                return .missing(title: "Not a time", detail: "{{\(key)}} holds '\(value.prefix(40))'")
            }
            return .target(date, ticking: true, detail: untilText(date))
        case .sleepTimer:
            guard let noise = inputs.noise, noise.playback != .stopped, let remaining = noise.timerRemainingSeconds
            else {
                return .missing(title: "No timer", detail: "No sleep timer is running")
            }
            // A paused player's timer stands still: drawn as it is, nothing to tick.
            let playing = noise.playback == .playing
            let end = now.addingTimeInterval(remaining)
            return .target(
                end, ticking: playing, detail: playing ? "Sleep timer · \(untilText(end))" : "Sleep timer · paused")
        }
    }

    func untilText(_ date: Date) -> String {
        var context = inputs.context
        context.now = date
        let time = engine.templates.render("{{__time}}", in: context)
        let tz = inputs.context.timeZone
        let sameDay = CivilTime.local(date, in: tz).isoDate == CivilTime.local(inputs.context.now, in: tz).isoDate
        guard !sameDay else { return "until \(time)" }
        let f = DateFormatter()
        f.locale = inputs.context.locale
        f.timeZone = tz
        f.dateFormat =
            DateFormatter.dateFormat(fromTemplate: "EEEdMMM", options: 0, locale: inputs.context.locale) ?? "EEE d MMM"
        return "until \(f.string(from: date)) \(time)"
    }

    /// The reading at the render clock, with its redraw moment handed to the layout.
    func countdownReading() -> (reading: CountdownReading?, title: String, detail: String) {
        switch countdownSource() {
        case .missing(let title, let detail):
            return (nil, title, detail)
        case .target(let date, let ticking, let detail):
            let reading = CountdownReading.at(inputs.context.now, target: date, ticking: ticking)
            if let next = reading.nextChange { b.redraw(at: next) }
            let said = reading.phase == .ended ? detail.replacingOccurrences(of: "until ", with: "ended ") : detail
            return (reading, reading.text, said)
        }
    }

    /// The red of the last seconds (the system red, as the seed's `.red`).
    var countdownRed: RGBA { inputs.appearance == .dark ? RGBA(hex: 0xFF453A) : RGBA(hex: 0xFF3B30) }

    func countdownColour(_ reading: CountdownReading?) -> RGBA {
        switch reading?.phase {
        case .lastSeconds?: countdownRed
        case .ended?: palette.primary
        case .running?: accent
        case nil: palette.secondary
        }
    }

    func countdown() {
        defaultBackdrop()
        let area = contentRect(minPad: 12)
        let (reading, big, detail) = countdownReading()
        let label = primary.isEmpty ? name : primary
        let large = family == .large
        // The label row: the symbol, then the label.
        var x = area.minX
        let rowHeight = 18.0
        if let s = spec.symbol {
            _ = b.symbol(
                s.name, centre: Point(x: x + 8, y: area.minY + rowHeight / 2), size: 16, colour: accent, weight: 600,
                field: "symbol.name")
            x += 22
        }
        b.addText(
            run(label, size: large ? 15 : 13, weight: 600, colour: palette.secondary), x: x, y: area.minY,
            width: area.maxX - x)
        let size: Double = isSmall ? 44 : (large ? 84 : 60)
        let colour = countdownColour(reading)
        let digits = run(big, size: reading == nil ? size * 0.55 : size, weight: 700, colour: colour, tabular: true)
        let fitted =
            shrunkToOneLine(digits, width: area.width)
            ?? {
                var r = digits
                r.sizePoints = size * 0.6
                return r
            }()
        let m = b.measure(fitted, width: area.width)
        let detailRun = run(detail, size: large ? 15 : 12, colour: palette.secondary, lines: 2)
        let dm = b.measure(detailRun, width: area.width)
        let block = m.height + 4 + dm.height
        let top = max(area.minY + rowHeight + 4, area.midY + rowHeight / 2 - block / 2)
        let align: TextAlignment = isSmall ? .leading : .centre
        b.addText(fitted, x: area.minX, y: top, width: area.width, align: align)
        b.addText(detailRun, x: area.minX, y: top + m.height + 4, width: area.width, align: align, maxY: area.maxY)
        if large, let reading, reading.phase != .ended, reading.shownSeconds <= 60 {
            // The last minute: a thin bar at the bottom empties as it runs out.
            let fraction = Double(min(reading.shownSeconds, 60)) / 60
            let bar = Rect(x: area.minX, y: area.maxY - 6, width: area.width, height: 6)
            b.fill(bar, .solid(palette.primary.opacity(0.12)), radius: 3)
            b.fill(
                Rect(x: bar.minX, y: bar.minY, width: max(6, bar.width * fraction), height: bar.height),
                .solid(colour.opacity(0.9)), radius: 3)
        }
        b.textLines = [label, big, detail].filter { !$0.isEmpty }
    }

    func countdownAccessory() {
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        let (reading, big, detail) = countdownReading()
        let label = primary.isEmpty ? name : primary
        b.textLines = [label, big].filter { !$0.isEmpty }
        // Lock-screen families are one tone: the last seconds show as a heavier weight instead of red.
        let weight = reading?.phase == .lastSeconds ? 800 : 600
        switch family {
        case .circular:
            b.add(.shape, bounds, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            _ = b.symbol("timer", centre: Point(x: bounds.midX, y: 20), size: 14, colour: dim)
            let r =
                shrunkToOneLine(
                    run(big, size: 17, weight: weight, colour: ink, tabular: true), width: bounds.width - 10)
                ?? run(big, size: 12, weight: weight, colour: ink, tabular: true)
            b.addText(r, x: 5, y: 32, width: bounds.width - 10, align: .centre)
        case .rectangular:
            b.addText(run(label, size: 13, weight: 600, colour: dim), x: 2, y: 2, width: bounds.width - 4)
            b.addText(
                run(big, size: 30, weight: weight, colour: ink, tabular: true), x: 2, y: 18, width: bounds.width - 4)
            b.addText(run(detail, size: 11, colour: dim), x: 2, y: 58, width: bounds.width - 4)
        default:
            b.addText(run("\(label) \(big)", size: 15, weight: 500, colour: ink), x: 0, y: 4, width: bounds.width)
        }
    }
}
