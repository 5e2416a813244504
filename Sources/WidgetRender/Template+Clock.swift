import Foundation
import Variables

/// The clock template: an analogue face at the render clock, minute-accurate (hands from the
/// local hour and minute; no seconds hand, since a rendered file lives for a minute).
extension TemplateContext {
    func clock() {
        let face = ClockFacePalette.classic(inputs.appearance)
        b.fill(bounds, .linear(start: Point(x: 0, y: 0), end: Point(x: bounds.width, y: bounds.height),
                               stops: [GradientStop(0, face.backgroundTop), GradientStop(1, face.backgroundBottom)]), kind: .background)
        b.fill(bounds, .radial(centre: Point(x: bounds.midX, y: bounds.midY), radius: 260, stops: [GradientStop(0, face.accent.opacity(0.10)), GradientStop(1, face.accent.opacity(0))]), kind: .background)
        let local = CivilTime.local(inputs.context.now, in: inputs.context.timeZone)
        let time = local.hourMinute
        b.textLines = [time]
        switch family {
        case .small:
            drawFace(centre: Point(x: bounds.midX, y: bounds.midY), radius: 70, face: face, local: local)
        case .medium:
            drawFace(centre: Point(x: 16 + 69, y: bounds.midY), radius: 69, face: face, local: local)
            let x = 170.0 + 8, w = bounds.width - x - 18
            b.addText(run(time, size: 44, weight: 600, colour: face.numerals, tabular: true), x: x, y: 40, width: w)
            b.addText(run(dateText(), size: 15, weight: 500, colour: face.numerals.opacity(0.7)), x: x, y: 98, width: w)
            b.textLines.append(dateText())
        default:
            drawFace(centre: Point(x: bounds.midX, y: 24 + 142), radius: 142, face: face, local: local)
            b.addText(run(dateText(), size: 17, weight: 600, colour: face.numerals.opacity(0.8)), x: 16, y: bounds.maxY - 40, width: bounds.width - 32, align: .centre)
            b.textLines.append(dateText())
        }
    }

    func dateText() -> String {
        let f = DateFormatter()
        f.locale = inputs.context.locale
        f.timeZone = inputs.context.timeZone
        f.dateFormat = "EEEE d MMMM"
        return f.string(from: inputs.context.now)
    }

    /// Hand angles in degrees clockwise from 12: hour (h12 + m/60)·30, minute m·6.
    static func handAngles(hour: Int, minute: Int) -> (hour: Double, minute: Double) {
        (Double(hour % 12) * 30 + Double(minute) * 0.5, Double(minute) * 6)
    }

    func drawFace(centre c: Point, radius r: Double, face: ClockFacePalette, local: CivilTime) {
        let dial = Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
        b.add(.shape, dial, .ellipse(fill: .radial(centre: Point(x: c.x - r * 0.3, y: c.y - r * 0.35), radius: r * 1.4,
                                                  stops: [GradientStop(0, face.dial.opacity(1)), GradientStop(1, face.dialEdge)]),
                                     stroke: RGBA.white.opacity(0.12), strokeWidth: 1))
        for i in 0..<60 {
            let a = Double(i) * 6 * .pi / 180
            let major = i % 5 == 0
            let outer = r * 0.93, inner = r * (major ? 0.84 : 0.89)
            let p0 = Point(x: c.x + sin(a) * inner, y: c.y - cos(a) * inner)
            let p1 = Point(x: c.x + sin(a) * outer, y: c.y - cos(a) * outer)
            b.add(.line, dial, .line(from: p0, to: p1, colour: major ? face.numerals.opacity(0.9) : face.ticks.opacity(0.5), width: major ? max(1.5, r * 0.025) : max(0.6, r * 0.01), roundCaps: true))
        }
        if r >= 60 {
            for n in 1...12 {
                let a = Double(n) * 30 * .pi / 180
                let d = r * 0.68
                let size = r * 0.16
                let t = run("\(n)", size: size, weight: 600, colour: face.numerals, tabular: true)
                let m = b.measure(t, width: size * 3)
                b.addText(t, x: c.x + sin(a) * d - m.width / 2, y: c.y - cos(a) * d - m.height / 2, width: m.width + 0.5)
            }
        }
        let angles = Self.handAngles(hour: local.hour, minute: local.minute)
        func hand(_ degrees: Double, length: Double, width: Double, colour: RGBA) {
            let a = degrees * .pi / 180
            let tail = Point(x: c.x - sin(a) * r * 0.08, y: c.y + cos(a) * r * 0.08)
            let tip = Point(x: c.x + sin(a) * length, y: c.y - cos(a) * length)
            b.add(.line, dial, .line(from: tail, to: tip, colour: RGBA.black.opacity(0.35), width: width + 1.5, roundCaps: true))
            b.add(.line, dial, .line(from: tail, to: tip, colour: colour, width: width, roundCaps: true))
        }
        hand(angles.hour, length: r * 0.5, width: max(3, r * 0.075), colour: face.hourHand)
        hand(angles.minute, length: r * 0.78, width: max(2, r * 0.045), colour: face.minuteHand)
        let dot = max(4, r * 0.07)
        b.add(.shape, Rect(x: c.x - dot, y: c.y - dot, width: 2 * dot, height: 2 * dot), .ellipse(fill: .solid(face.accent), stroke: nil, strokeWidth: 0))
    }
}
