import CCairo
import CairoCanvas

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws `SpectrumCurves` with Cairo and Pango (Inter): dB against log frequency, 20 Hz–20 kHz,
/// a grid, one colour per layer, the total on top, a measured render dashed, and a legend.
public enum SpectrumChart {
    public enum Format: String, Sendable { case png, svg }

    public struct DrawError: Error, CustomStringConvertible {
        public var description: String
    }

    public static let width = 1200.0
    public static let height = 675.0

    /// Layer colours in mix order, readable on the dark background.
    static let layerColours: [(Double, Double, Double)] = [
        (0.30, 0.79, 0.94), (0.97, 0.40, 0.62), (1.00, 0.82, 0.40), (0.30, 0.86, 0.60),
    ]
    static let background = (0.075, 0.082, 0.106)
    static let panel = (0.105, 0.114, 0.145)
    static let text = (0.90, 0.91, 0.93)
    static let muted = (0.58, 0.61, 0.67)
    static let measuredColour = (1.0, 0.60, 0.25)

    /// Writes the chart to `path` (PNG or SVG); throws with Cairo's reason on failure.
    public static func write(_ curves: SpectrumCurves, to path: String, format: Format) throws {
        switch format {
        case .png:
            let surface = try CairoSurface(
                owning: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
                call: "cairo_image_surface_create")
            try draw(curves, on: surface)
            // The widgets' PNG writer at its smallest: the chart is a picture kept in docs/.
            let png = try PNGEncoder(compression: .small).encode(surface)
            guard let file = fopen(path, "wb") else {
                throw DrawError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            let written = png.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            guard fclose(file) == 0, written == png.count else {
                throw DrawError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        case .svg:
            let surface = try CairoSurface(
                owning: cairo_svg_surface_create(path, width, height), call: "cairo_svg_surface_create")
            try draw(curves, on: surface)
            cairo_surface_finish(surface.pointer)
            let status = cairo_surface_status(surface.pointer)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw DrawError(description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
            }
        }
    }

    /// The vertical range: the loudest point rounded up to 10 dB plus a margin, 70 dB tall.
    static func dbRange(_ curves: SpectrumCurves) -> (low: Double, high: Double) {
        let peak = (curves.totalDb + (curves.measuredDb ?? [])).max() ?? 0
        let high = (peak / 10).rounded(.up) * 10 + 5
        return (high - 70, high)
    }

    static func draw(_ curves: SpectrumCurves, on surface: CairoSurface) throws {
        let context = try CairoContext(surface: surface)
        let cr = context.pointer
        func colour(_ c: (Double, Double, Double), _ alpha: Double = 1) {
            cairo_set_source_rgba(cr, c.0, c.1, c.2, alpha)
        }

        colour(background)
        cairo_paint(cr)

        // Plot area.
        let left = 86.0, right = width - 32, top = 78.0, bottom = height - 70
        colour(panel)
        cairo_rectangle(cr, left, top, right - left, bottom - top)
        cairo_fill(cr)
        let range = dbRange(curves)
        let logLow = log10(SpectrumCurves.lowHz), logHigh = log10(SpectrumCurves.highHz)
        func x(_ hz: Double) -> Double { left + (log10(hz) - logLow) / (logHigh - logLow) * (right - left) }
        func y(_ db: Double) -> Double {
            bottom - (min(max(db, range.low), range.high) - range.low) / (range.high - range.low) * (bottom - top)
        }

        // Grid: every decade's 1-2-5 steps labelled, the others faint.
        cairo_set_line_width(cr, 1)
        var decade = 10.0
        while decade <= 10_000 {
            for m in 1...9 {
                let f = decade * Double(m)
                guard f >= SpectrumCurves.lowHz, f <= SpectrumCurves.highHz else { continue }
                let major = m == 1 || m == 2 || m == 5
                colour(text, major ? 0.16 : 0.06)
                cairo_move_to(cr, x(f).rounded() + 0.5, top)
                cairo_line_to(cr, x(f).rounded() + 0.5, bottom)
                cairo_stroke(cr)
                if major {
                    let label = f >= 1000 ? "\(Int(f / 1000)) k" : "\(Int(f))"
                    Text.draw(cr, label, size: 13, colour: muted, x: x(f), y: bottom + 10, align: .centre)
                }
            }
            decade *= 10
        }
        colour(text, 0.16)
        cairo_move_to(cr, x(SpectrumCurves.highHz).rounded() - 0.5, top)
        cairo_line_to(cr, x(SpectrumCurves.highHz).rounded() - 0.5, bottom)
        cairo_stroke(cr)
        Text.draw(cr, "20 k", size: 13, colour: muted, x: x(SpectrumCurves.highHz), y: bottom + 10, align: .centre)
        var db = range.low
        while db <= range.high + 0.01 {
            if (db.truncatingRemainder(dividingBy: 10) + 10).truncatingRemainder(dividingBy: 10) == 0 {
                colour(text, 0.16)
                cairo_move_to(cr, left, y(db).rounded() + 0.5)
                cairo_line_to(cr, right, y(db).rounded() + 0.5)
                cairo_stroke(cr)
                Text.draw(cr, "\(Int(db))", size: 13, colour: muted, x: left - 10, y: y(db) - 8, align: .right)
            }
            db += 5
        }
        Text.draw(cr, "Hz", size: 13, colour: muted, x: right, y: bottom + 30, align: .right)
        Text.draw(cr, "dBFS per ⅓ octave", size: 13, colour: muted, x: left, y: top - 24, align: .left)

        // Curves: clip to the plot so steep cuts leave through the floor cleanly.
        cairo_save(cr)
        cairo_rectangle(cr, left, top, right - left, bottom - top)
        cairo_clip(cr)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // Below the floor the pen lifts, so a steep cut leaves through the bottom instead of
        // running along it; the segment into and out of the floor is kept.
        func path(_ values: [Double]) {
            var penDown = false
            for (i, v) in values.enumerated() {
                let px = x(curves.frequenciesHz[i]), py = y(v)
                let visible =
                    v > range.low || (i > 0 && values[i - 1] > range.low)
                    || (i + 1 < values.count && values[i + 1] > range.low)
                if visible {
                    if penDown { cairo_line_to(cr, px, py) } else { cairo_move_to(cr, px, py) }
                }
                penDown = visible
            }
        }
        for layer in curves.layers {
            colour(layerColours[layer.index % layerColours.count], 0.95)
            cairo_set_line_width(cr, 2.25)
            path(layer.db)
            cairo_stroke(cr)
        }
        colour(text)
        cairo_set_line_width(cr, 3.25)
        path(curves.totalDb)
        cairo_stroke(cr)
        if let measured = curves.measuredDb {
            colour(measuredColour)
            cairo_set_line_width(cr, 2)
            var dash: [Double] = [7, 5]
            cairo_set_dash(cr, &dash, 2, 0)
            path(measured)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
        }
        cairo_restore(cr)

        // Title and legend.
        Text.draw(cr, curves.title, size: 20, weight: "Semi-Bold", colour: text, x: left, y: 18, align: .left)
        var entries: [(String, (Double, Double, Double), Double, Bool)] = [("Total", text, 3.25, false)]
        if let s = curves.measuredSeconds {
            entries.append(("Measured (\(formatSeconds(s)) render)", measuredColour, 2, true))
        }
        for layer in curves.layers {
            entries.append((layer.label, layerColours[layer.index % layerColours.count], 2.25, false))
        }
        let rowHeight = 22.0
        let legendWidth = entries.map { Text.size(cr, $0.0, size: 13).width }.max()! + 56
        let legendLeft = right - legendWidth - 14, legendTop = top + 14
        colour(background, 0.82)
        cairo_rectangle(cr, legendLeft, legendTop, legendWidth, Double(entries.count) * rowHeight + 12)
        cairo_fill(cr)
        for (i, e) in entries.enumerated() {
            let rowY = legendTop + 8 + Double(i) * rowHeight
            colour(e.1)
            cairo_set_line_width(cr, e.2)
            if e.3 {
                var dash: [Double] = [7, 5]
                cairo_set_dash(cr, &dash, 2, 0)
            }
            cairo_move_to(cr, legendLeft + 12, rowY + 9)
            cairo_line_to(cr, legendLeft + 40, rowY + 9)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            Text.draw(cr, e.0, size: 13, colour: text, x: legendLeft + 48, y: rowY, align: .left)
        }
        try context.check("drawing the chart")
    }

    static func formatSeconds(_ s: Double) -> String {
        s >= 60 && s.truncatingRemainder(dividingBy: 60) == 0
            ? "\(Int(s / 60)) min" : (s == s.rounded() ? "\(Int(s)) s" : "\(s) s")
    }
}

/// Pango text in Inter.
enum Text {
    enum Align { case left, centre, right }

    static func layout(_ cr: OpaquePointer, _ string: String, size: Double, weight: String) -> OpaquePointer? {
        guard let layout = pango_cairo_create_layout(cr) else { return nil }
        let font = pango_font_description_from_string("Inter \(weight) \(size)px")
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, string, -1)
        return layout
    }

    static func size(_ cr: OpaquePointer, _ string: String, size: Double, weight: String = "") -> (
        width: Double, height: Double
    ) {
        guard let l = layout(cr, string, size: size, weight: weight) else { return (0, 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(l, &w, &h)
        return (Double(w), Double(h))
    }

    static func draw(
        _ cr: OpaquePointer, _ string: String, size: Double, weight: String = "", colour: (Double, Double, Double),
        x: Double, y: Double, align: Align
    ) {
        guard let l = layout(cr, string, size: size, weight: weight) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(l, &w, &h)
        let dx: Double =
            switch align {
            case .left: 0
            case .centre: -Double(w) / 2
            case .right: -Double(w)
            }
        cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
        cairo_move_to(cr, x + dx, y)
        pango_cairo_show_layout(cr, l)
    }
}
