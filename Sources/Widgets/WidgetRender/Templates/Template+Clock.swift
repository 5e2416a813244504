import CivilDates
import Foundation
import WidgetDataKeys
import WidgetDesign

/// The clock template: the design's `clockConfig` face (Ceramic, Icon or Segmented) in its
/// theme's palette, at the render clock. The face shows the minute as it began: hour hand
/// (h + m/60)·30°, minute hand m·6°, the second hand at 12, since a rendered file lives for a
/// minute. A design without `clockConfig` draws the legacy default (Ceramic, Classic), as the
/// seed app does. Faces are in Template+ClockFaces.swift, colours in `ClockFacePalette`.
extension TemplateContext {
    func clock() {
        // As the seed's resolver, through the pairing rules: a second hand outside the dial's
        // set draws as the dial's recommended one.
        var config = spec.effectiveClockConfig
        _ = config.normalise()
        let face = ClockFacePalette.resolve(config, appearance: inputs.appearance)
        clockBackground(face)
        let local = CivilTime.local(inputs.context.now, in: inputs.context.timeZone)
        let hands = Self.handAngles(hour: local.hour, minute: local.minute)
        let angles = ClockHandAngles(hour: hands.hour, minute: hands.minute, second: 0)
        let time = digitalTime
        b.textLines = [time]
        switch family {
        case .small:
            clockFace(
                config.face, centre: Point(x: bounds.midX, y: bounds.midY),
                outerRadius: Self.faceOuterRadius(side: 170), palette: face, hands: angles)
        case .medium:
            clockFace(
                config.face, centre: Point(x: 85, y: bounds.midY), outerRadius: Self.faceOuterRadius(side: 170),
                palette: face, hands: angles)
            let x = 170.0 + 8, w = bounds.width - x - 18
            b.addText(run(time, size: 44, weight: 600, colour: face.ink, tabular: true), x: x, y: 40, width: w)
            b.addText(run(dateText(), size: 15, weight: 500, colour: face.inkSecondary), x: x, y: 98, width: w)
            b.textLines.append(dateText())
        default:
            clockFace(
                config.face, centre: Point(x: bounds.midX, y: 166), outerRadius: 143, palette: face, hands: angles)
            b.addText(
                run(dateText(), size: 17, weight: 600, colour: face.inkSecondary), x: 16, y: bounds.maxY - 40,
                width: bounds.width - 32, align: .centre)
            b.textLines.append(dateText())
        }
    }

    /// The time as digital text in the design's `clock.format` (24-hour `HH:mm` by default).
    var digitalTime: String { engine.templates.render("{{__time}}", in: inputs.context) }

    /// The seed's clock face fills 92.5 % of its square container.
    static func faceOuterRadius(side: Double) -> Double { side * 0.925 / 2 }

    /// The seed's `WidgetWeaverClockBackgroundView`: the theme gradient top-leading →
    /// bottom-trailing, a radial accent tint (the seed blends it with `overlay`; drawn here as a
    /// faint plain tint), and a 1 pt highlight along the edge.
    func clockBackground(_ face: ClockFacePalette) {
        b.fill(
            bounds,
            .linear(
                start: Point(x: 0, y: 0), end: Point(x: bounds.width, y: bounds.height),
                stops: [GradientStop(0, face.backgroundTop), GradientStop(1, face.backgroundBottom)]), kind: .background
        )
        b.fill(
            bounds,
            .radial(
                centre: Point(x: bounds.midX, y: bounds.midY), radius: 260,
                stops: [
                    GradientStop(0, face.accent.opacity(face.accentTint * 0.4)),
                    GradientStop(1, face.accent.opacity(0)),
                ]), kind: .background)
        b.add(
            .background, bounds.insetBy(0.5),
            .shape(
                fill: nil, cornerRadius: max(0, engine.cornerRadius(spec) - 0.5), stroke: RGBA.white.opacity(0.10),
                strokeWidth: 1))
    }

    func dateText() -> String {
        let f = DateFormatter()
        f.locale = inputs.context.locale
        f.timeZone = inputs.context.timeZone
        // The locale's own order and punctuation ("Saturday 24 January", "Samstag, 24. Januar",
        // "Saturday, January 24"), not one English pattern for every language.
        f.dateFormat =
            DateFormatter.dateFormat(fromTemplate: "EEEEdMMMM", options: 0, locale: inputs.context.locale)
            ?? "EEEE d MMMM"
        return f.string(from: inputs.context.now)
    }

    /// Hand angles in degrees clockwise from 12: hour (h12 + m/60)·30, minute m·6.
    static func handAngles(hour: Int, minute: Int) -> (hour: Double, minute: Double) {
        (Double(hour % 12) * 30 + Double(minute) * 0.5, Double(minute) * 6)
    }

    /// The lock-screen (circular) face: one vibrant tone, ticks and hands only.
    func monochromeFace(centre c: Point, radius r: Double, local: CivilTime) {
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        let dial = Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
        b.add(
            .shape, dial,
            .ellipse(
                fill: .radial(
                    centre: Point(x: c.x - r * 0.3, y: c.y - r * 0.35), radius: r * 1.4,
                    stops: [GradientStop(0, RGBA.white.opacity(0.16)), GradientStop(1, RGBA.white.opacity(0.10))]),
                stroke: RGBA.white.opacity(0.12), strokeWidth: 1))
        for i in 0..<60 {
            let major = i % 5 == 0
            let p0 = ClockGeometry.point(c, r * (major ? 0.84 : 0.89), Double(i) * 6)
            let p1 = ClockGeometry.point(c, r * 0.93, Double(i) * 6)
            b.add(
                .line, dial,
                .line(
                    from: p0, to: p1, colour: major ? ink.opacity(0.9) : dim.opacity(0.5),
                    width: major ? max(1.5, r * 0.025) : max(0.6, r * 0.01), roundCaps: true))
        }
        let angles = Self.handAngles(hour: local.hour, minute: local.minute)
        func hand(_ degrees: Double, length: Double, width: Double) {
            let tail = ClockGeometry.point(c, -r * 0.08, degrees), tip = ClockGeometry.point(c, length, degrees)
            b.add(
                .line, dial,
                .line(from: tail, to: tip, colour: RGBA.black.opacity(0.35), width: width + 1.5, roundCaps: true))
            b.add(.line, dial, .line(from: tail, to: tip, colour: ink, width: width, roundCaps: true))
        }
        hand(angles.hour, length: r * 0.5, width: max(3, r * 0.075))
        hand(angles.minute, length: r * 0.78, width: max(2, r * 0.045))
        let dot = max(4, r * 0.07)
        b.add(
            .shape, Rect(x: c.x - dot, y: c.y - dot, width: 2 * dot, height: 2 * dot),
            .ellipse(fill: .solid(ink), stroke: nil, strokeWidth: 0))
    }
}

/// Where the hands point, degrees clockwise from 12.
struct ClockHandAngles: Sendable, Hashable {
    var hour: Double
    var minute: Double
    var second: Double
}
