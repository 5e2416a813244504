import CivilDates
import Foundation
import WidgetDataKeys

/// Lock-screen families: one vibrant (white) tone, no background.
extension TemplateContext {
    func accessory() {
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        switch spec.layout.template {
        case .noiseMachine:
            noiseAccessory()
            return
        case .month:
            monthAccessory()
            return
        case .countdown:
            countdownAccessory()
            return
        case .forecast:
            forecastAccessory()
            return
        case .presetButton:
            presetButtonAccessory()
            return
        case .weather where family == .rectangular:
            if weatherAccessory() { return }
        case .clockIcon:
            let local = CivilTime.local(inputs.context.now, in: inputs.context.timeZone)
            let time = digitalTime
            b.textLines = [time]
            switch family {
            case .circular:
                monochromeFace(centre: Point(x: bounds.midX, y: bounds.midY), radius: 37, local: local)
            case .rectangular:
                b.addText(
                    shrunkToOneLine(
                        run(time, size: 34, weight: 600, colour: ink, tabular: true), width: bounds.width - 4)
                        ?? run(time, size: 26, weight: 600, colour: ink, tabular: true), x: 2, y: 2,
                    width: bounds.width - 4)
                b.addText(run(dateText(), size: 13, colour: dim), x: 2, y: 48, width: bounds.width - 4)
            default:
                b.addText(
                    run("\(time) · \(dateText())", size: 15, weight: 500, colour: ink), x: 0, y: 4, width: bounds.width)
            }
            return
        default: break
        }
        let (symbolName, title, detail, small) = accessoryContent()
        b.textLines = [title, detail].filter { !$0.isEmpty }
        switch family {
        case .circular:
            b.add(.shape, bounds, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            if let symbolName {
                _ = b.symbol(
                    symbolName, centre: Point(x: bounds.midX, y: 24), size: 20, colour: ink, field: "symbol.name")
            }
            let t = small.isEmpty ? title : small
            b.addText(
                run(t, size: 15, weight: 600, colour: ink), x: 6, y: symbolName == nil ? 28 : 38,
                width: bounds.width - 12, align: .centre)
        case .rectangular:
            var x = 2.0
            if let symbolName {
                _ = b.symbol(symbolName, centre: Point(x: 10, y: 12), size: 18, colour: ink, field: "symbol.name")
                x = 24
            }
            b.addText(run(title, size: 17, weight: 600, colour: ink), x: x, y: 2, width: bounds.width - x)
            b.addText(
                run(detail, size: 13, colour: dim, lines: 2), x: 2, y: 26, width: bounds.width - 4, maxY: bounds.maxY)
        default:
            var x = 0.0
            if let symbolName {
                _ = b.symbol(
                    symbolName, centre: Point(x: 9, y: bounds.midY), size: 16, colour: ink, field: "symbol.name")
                x = 20
            }
            let line = detail.isEmpty ? title : "\(title) · \(detail)"
            b.addText(run(line, size: 15, weight: 500, colour: ink), x: x, y: 4, width: bounds.width - x)
        }
    }

    /// (symbol, title, detail, short text for the circular family) per template.
    func accessoryContent() -> (String?, String, String, String) {
        switch spec.layout.template {
        case .weather:
            guard let w = inputs.weather?.at(inputs.context.now), w.hasForecast else {
                return ("cloud", "Weather", "No weather data", "—")
            }
            let temp = w.temperatureC.map(degrees) ?? "—"
            return (
                w.symbol.flatMap { $0.isEmpty ? nil : $0 } ?? "cloud", temp,
                [w.condition, Self.nowcastHeadline(w)].compactMap { $0 }.joined(separator: " · "), temp
            )
        case .nextUpCalendar:
            guard let e = inputs.calendar?.upcoming(at: inputs.context.now).first else {
                return ("calendar", "Nothing next", "No upcoming events", "—")
            }
            let (short, label) = Self.countdown(
                e.start.timeIntervalSince(inputs.context.now), event: e.start, now: inputs.context.now,
                context: inputs.context)
            return ("calendar", e.title, label, short)
        case .reminders:
            // The design's mode and lists, as on the home screen; the circular family shows how
            // many are open (the seed's count).
            let selection = ReminderSelection(snapshot: inputs.reminders, config: remindersConfig, days: reminderDays)
            let open = selection.items.filter { !$0.done }
            guard let first = open.first else {
                return (
                    "checklist", inputs.reminders == nil ? "No reminders" : "All done",
                    Self.remindersModeTitle(remindersConfig.mode), "0"
                )
            }
            let due = reminderDueText(first)
            let detail = [due, open.count > 1 ? "+\(open.count - 1) more" : ""].filter { !$0.isEmpty }.joined(
                separator: " · ")
            return ("checklist", first.title, detail, "\(open.count)")
        default:
            let p = primary, s = secondary
            return (spec.symbol?.name, p.isEmpty ? name : p, s, p)
        }
    }

    /// The lock-screen "Rain" accessory: the next hour as temperature, nowcast and the rain
    /// surface in the vibrant tone. False (and nothing drawn) without a forecast: the common
    /// accessory path says "No weather data" then.
    func weatherAccessory() -> Bool {
        let now = inputs.context.now
        guard let w = inputs.weather?.at(now), w.hasForecast else { return false }
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        let old = w.isOld(at: now)
        let temp = w.temperatureC.map(degrees) ?? "—"
        let headline =
            old
            ? "Weather data is old"
            : w.refreshFailed ? "\(Self.nowcastHeadline(w)) · Update failed" : Self.nowcastHeadline(w)
        b.textLines = [
            temp, w.condition ?? "", Self.nowcastHeadline(w),
            old ? "Weather data is old" : w.refreshFailed ? "Update failed" : "",
        ].filter { !$0.isEmpty }
        let t = b.addText(
            run(temp, size: 17, weight: 700, colour: old ? dim : ink, tabular: true), x: 2, y: 0, width: 60)
        let x = (t?.maxX ?? 2) + 6
        b.addText(run(headline, size: 13, weight: 600, colour: dim), x: x, y: 3, width: bounds.width - x - 2)
        let plot = Rect(x: 0, y: 24, width: bounds.width, height: bounds.height - 24)
        b.fill(plot, .solid(palette.accessoryFill), radius: 8)
        let surface = RainSurface(
            window: chartWindow(w), plot: plot.insetBy(dx: 3, dy: 0), seed: Self.surfaceSeed(w),
            colours: old ? .old : .monochrome)
        b.add(.chart, plot, .rainSurface(surface))
        return true
    }
}
