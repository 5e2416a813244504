import Foundation
import NoiseEngine

/// A hearing profile drawn as an SVG chart: gain (dB, the correction `--hearing auto` applies) against
/// frequency on a log axis. Laid out first (`Layout`: plain numbers a test can read), drawn second.
enum HearingChart {
    static let width = 640.0
    static let height = 300.0
    static let plot = (left: 56.0, right: 620.0, top: 36.0, bottom: 256.0)
    static let hzRange = 50.0...16000.0
    static let tickHz: [Double] = [63, 125, 250, 500, 1000, 2000, 4000, 8000, 12500]

    struct Layout {
        var dbRange: ClosedRange<Double>
        var points: [(x: Double, y: Double, hz: Double, db: Double)]
        var pendingX: [Double]
        var xTicks: [(x: Double, label: String)]
        var yTicks: [(y: Double, label: String)]
    }

    static func x(_ hz: Double) -> Double {
        let t = log2(hz / hzRange.lowerBound) / log2(hzRange.upperBound / hzRange.lowerBound)
        return plot.left + t * (plot.right - plot.left)
    }

    static func layout(_ p: HearingProfile) -> Layout {
        // ±12 dB (the correction's limit), wider in 6 dB steps when an answer lies outside.
        let extreme = p.gainsDb.map(abs).max() ?? 0
        let half = max(12, (extreme / 6).rounded(.up) * 6)
        let range = -half...half
        func y(_ db: Double) -> Double {
            plot.bottom - (db - range.lowerBound) / (range.upperBound - range.lowerBound) * (plot.bottom - plot.top)
        }
        let points = zip(p.centresHz, p.gainsDb).map { (x: x($0), y: y($1), hz: $0, db: $1) }
        let yTicks = stride(from: range.lowerBound, through: range.upperBound, by: 6).map { db in
            (y: y(db), label: db > 0 ? "+\(Int(db))" : "\(Int(db))")
        }
        let xTicks = tickHz.map { hz in (x: x(hz), label: hz >= 1000 ? "\(format(hz / 1000))k" : "\(Int(hz))") }
        return Layout(
            dbRange: range, points: points, pendingX: p.pendingCentresHz.map(x), xTicks: xTicks, yTicks: yTicks)
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v) }
    static func n(_ v: Double) -> String { String(format: "%.1f", v) }

    /// The chart of `profile` (of `device`), a standalone SVG document.
    static func svg(_ profile: HearingProfile, device: String) -> String {
        let l = layout(profile)
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height))" \
            width="\(Int(width))" height="\(Int(height))" role="img" font-family="sans-serif" font-size="12">

            """
        let status =
            profile.complete
            ? (profile.retestSpreadDb.map { String(format: ", test-retest spread %.1f dB", $0) } ?? "")
            : ", unfinished: \(profile.pendingCentresHz.count) bands to go"
        let title = "Hearing profile of \(device) (\(profile.mode.rawValue)\(status))"
        s += "<title>\(Page.escape(title))</title>\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        s += "<text x=\"\(n(plot.left))\" y=\"20\" font-size=\"14\" fill=\"#1f2933\">\(Page.escape(title))</text>\n"
        for t in l.yTicks {
            let zero = t.label == "0"
            s += "<line x1=\"\(n(plot.left))\" x2=\"\(n(plot.right))\" y1=\"\(n(t.y))\" y2=\"\(n(t.y))\" "
            s += "stroke=\"\(zero ? "#52606d" : "#d9e2ec")\" stroke-width=\"1\"/>\n"
            s +=
                "<text x=\"\(n(plot.left - 8))\" y=\"\(n(t.y + 4))\" text-anchor=\"end\" "
                + "fill=\"#52606d\">\(t.label)</text>\n"
        }
        for t in l.xTicks {
            s += "<line x1=\"\(n(t.x))\" x2=\"\(n(t.x))\" y1=\"\(n(plot.top))\" y2=\"\(n(plot.bottom))\" "
            s += "stroke=\"#d9e2ec\" stroke-width=\"1\"/>\n"
            s +=
                "<text x=\"\(n(t.x))\" y=\"\(n(plot.bottom + 18))\" text-anchor=\"middle\" "
                + "fill=\"#52606d\">\(t.label)</text>\n"
        }
        s += "<text x=\"\(n((plot.left + plot.right) / 2))\" y=\"\(n(height - 6))\" text-anchor=\"middle\" "
        s += "fill=\"#52606d\">Frequency (Hz)</text>\n"
        s += "<text transform=\"translate(14 \(n((plot.top + plot.bottom) / 2))) rotate(-90)\" text-anchor=\"middle\" "
        s += "fill=\"#52606d\">Gain (dB)</text>\n"
        if l.points.count > 1 {
            let path = l.points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            s += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"#2563eb\" stroke-width=\"2\"/>\n"
        }
        for p in l.points {
            s += "<circle cx=\"\(n(p.x))\" cy=\"\(n(p.y))\" r=\"4\" fill=\"#2563eb\">"
            s += "<title>\(format(p.hz)) Hz: \(String(format: "%+.1f", p.db)) dB</title></circle>\n"
        }
        let zeroY = l.yTicks.first { $0.label == "0" }?.y ?? plot.bottom
        for x in l.pendingX {
            s +=
                "<circle cx=\"\(n(x))\" cy=\"\(n(zeroY))\" r=\"4\" fill=\"none\" "
                + "stroke=\"#9aa5b1\" stroke-width=\"1.5\"/>\n"
        }
        s += "</svg>\n"
        return s
    }
}
