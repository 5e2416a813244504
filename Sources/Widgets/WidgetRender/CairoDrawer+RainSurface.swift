import CCairo
import CairoCanvas
import Foundation
import NoiseDSP

/// Draws a `RainSurface` the seed's way (its README, "Technique: seamless-tile additive
/// dissipation"): a solid core with a vertical gradient, an interior grain, a turbulent band at
/// the surface and a soft mist above it, the last three from the periodic noise tiles and
/// stronger where the chance is low. A fixed number of clipped fills and group composites per
/// chart (no per-pixel loops, no blur), so the cost does not grow with how much rain there is.
extension CairoDrawer {
    func drawRainSurface(_ s: RainSurface, _ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_rectangle(cr, s.plot.minX, s.plot.minY, s.plot.width, s.plot.height)
        cairo_clip(cr)
        let c = s.colours
        baseline(s, cr)
        guard !s.segments.isEmpty else {
            cairo_restore(cr)
            return
        }
        // Core: each run its own gradient, so a light shower is blue at its own ridge too.
        for segment in s.segments {
            outline(segment, cr)
            let crest = RainSurface.crestY(segment)
            setPaint(
                cr,
                .linear(
                    start: Point(x: 0, y: crest), end: Point(x: 0, y: s.baselineY),
                    stops: [GradientStop(0, c.ridge), GradientStop(1, c.deep)]))
            cairo_fill(cr)
        }
        if s.textured, let fine = RainNoiseTiles.fine, let coarse = RainNoiseTiles.coarse,
            let wide = RainNoiseTiles.coarseWide
        {
            var rng = SplitMix64(seed: s.seed)
            let deviceScale = {
                var dx = 1.0, dy = 0.0
                cairo_user_to_device_distance(cr, &dx, &dy)
                return max(0.5, abs(dx))
            }()
            let crest = s.segments.map(RainSurface.crestY).min() ?? s.plot.minY
            // The texture (grain and band inside the core, mist outside it) is drawn at a third of the
            // device resolution into one surface and put on in a single bilinear upscale: every
            // layer costs by its area, and at full resolution the texture took longer than the
            // rest of the widget (35 ms p50 for a small PNG at 2×). The grain's highlights come
            // out as soft dots of a few pixels, and the mist's steps are smoothed.
            let k = max(0.34, deviceScale / 3)
            // The texture's outlines at one point per texture pixel: the dense ridge (a sample every
            // ~1 device pixel) is ~2.5 points per texture pixel there, and every fill and clip
            // below costs by its edges (the rain surface took ~1 ms of a 3 ms small PNG).
            var t = s
            t.segments = s.segments.map { Self.thinned($0, step: 1 / k) }
            if let (texture, tcr) = offscreen(s.plot, scale: k) {
                mist(t, coarse, &rng, k, tcr)
                grain(t, fine, &rng, k, crest, tcr)
                surfaceBand(t, wide, &rng, k, tcr)
                cairo_destroy(tcr)
                cairo_surface_flush(texture.pointer)
                // Only where the texture can be non-transparent: the runs widened by the mist's
                // reach and the bilinear filter's pixel, on whole device pixels (a clip on pixel
                // edges changes no pixel, only how many are scaled and blended).
                let margin = Self.mistReach(s) + 2 / k
                let xs = s.segments.flatMap { [$0.first?.x, $0.last?.x].compactMap { $0 } }
                if let minX = xs.min(), let maxX = xs.max() {
                    pixelAlignedClip(
                        Rect(
                            x: minX - margin, y: crest - margin, width: maxX - minX + 2 * margin,
                            height: s.baselineY - crest + 2 * margin), cr)
                }
                composite(texture, over: s.plot, scale: k, operator: CAIRO_OPERATOR_OVER, alpha: 1, cr)
            }
        }
        cairo_restore(cr)
    }

    /// Clips to `rect` grown outwards to whole device pixels (the context is scaled, not rotated).
    private func pixelAlignedClip(_ rect: Rect, _ cr: OpaquePointer) {
        var x0 = rect.minX, y0 = rect.minY, x1 = rect.maxX, y1 = rect.maxY
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        x0 = min(x0, x1).rounded(.down)
        y0 = min(y0, y1).rounded(.down)
        x1 = max(x0, x1).rounded(.up)
        y1 = max(y0, y1).rounded(.up)
        cairo_device_to_user(cr, &x0, &y0)
        cairo_device_to_user(cr, &x1, &y1)
        cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
        cairo_clip(cr)
    }

    /// How far the mist rises above and spreads beside a run, points.
    static func mistReach(_ s: RainSurface) -> Double { max(5, min(16, s.plot.height * 0.3)) }

    /// A transparent surface covering `rect` at `scale` pixels per point, with a context whose
    /// user space is widget points.
    private func offscreen(_ rect: Rect, scale k: Double) -> (CairoSurface, OpaquePointer)? {
        let width = Int32((rect.width * k).rounded(.up)) + 1, height = Int32((rect.height * k).rounded(.up)) + 1
        guard width > 1, height > 1,
            let surface = try? CairoSurface(
                owning: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height), call: "rain texture"),
            let context = cairo_create(surface.pointer)
        else { return nil }
        cairo_scale(context, k, k)
        cairo_translate(context, -rect.minX, -rect.minY)
        return (surface, context)
    }

    /// Paints an `offscreen` surface back over `rect`, scaled up bilinearly.
    private func composite(
        _ surface: CairoSurface, over rect: Rect, scale k: Double, operator op: cairo_operator_t, alpha: Double,
        _ cr: OpaquePointer
    ) {
        cairo_save(cr)
        cairo_translate(cr, rect.minX, rect.minY)
        cairo_scale(cr, 1 / k, 1 / k)
        cairo_set_source_surface(cr, surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_set_operator(cr, op)
        cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
    }

    /// The 1 px baseline along the data, fading over the last 0.18 of each end.
    private func baseline(_ s: RainSurface, _ cr: OpaquePointer) {
        let x0 = s.plot.minX, x1 = max(x0 + 1, s.dataEndX)
        let b = s.colours.baseline
        cairo_rectangle(cr, x0, s.baselineY - 0.5, x1 - x0, 1)
        setPaint(
            cr,
            .linear(
                start: Point(x: x0, y: 0), end: Point(x: x1, y: 0),
                stops: [
                    GradientStop(0, b.opacity(0)), GradientStop(0.18, b), GradientStop(0.82, b),
                    GradientStop(1, b.opacity(0)),
                ]))
        cairo_fill(cr)
    }

    /// `segment` with its first and last points and, between them, only points at least `step`
    /// apart in x (the outline runs left to right, up the left taper and down the right one).
    static func thinned(_ segment: [Point], step: Double) -> [Point] {
        guard segment.count > 2, let first = segment.first, let last = segment.last else { return segment }
        var result = [first]
        result.reserveCapacity(segment.count)
        var lastX = first.x
        for p in segment.dropFirst().dropLast() where p.x - lastX >= step || p.x == lastX && p.y != result.last!.y {
            result.append(p)
            lastX = p.x
        }
        result.append(last)
        return result
    }

    private func outline(_ segment: [Point], _ cr: OpaquePointer) {
        guard let first = segment.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for p in segment.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_close_path(cr)
    }

    /// The ridge alone, what the band and the mist follow: without the baseline closure, and
    /// without an untapered run's vertical side at the edge of the data (that is the chart's
    /// edge, not the rain's surface).
    private func ridges(_ s: RainSurface, _ cr: OpaquePointer) {
        for segment in s.segments {
            var points = segment[...]
            if points.count > 2, points[points.startIndex + 1].x == points[points.startIndex].x {
                points = points.dropFirst()
            }
            if points.count > 2, points[points.endIndex - 2].x == points[points.endIndex - 1].x {
                points = points.dropLast()
            }
            guard let first = points.first, let last = points.last else { continue }
            // Every 2 points is smooth enough for a soft band, and a wide stroke's cost grows
            // with its vertices (each join is tessellated).
            cairo_move_to(cr, first.x, first.y)
            var lastX = first.x
            for p in points.dropFirst().dropLast() where p.x - lastX >= 2 {
                cairo_line_to(cr, p.x, p.y)
                lastX = p.x
            }
            cairo_line_to(cr, last.x, last.y)
        }
    }

    /// The tile as the source, one tile pixel per device pixel, its origin jittered by whole
    /// pixels: an integer translation with nearest sampling is pixman's fast repeat path.
    private func setTile(_ tile: CairoSurface, _ rng: inout SplitMix64, _ deviceScale: Double, _ cr: OpaquePointer) {
        let pattern = cairo_pattern_create_for_surface(tile.pointer)!
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
        var m = cairo_matrix_t()
        let side = Double(tile.width)
        cairo_matrix_init(
            &m, deviceScale, 0, 0, deviceScale, (rng.unit() * side).rounded(.down), (rng.unit() * side).rounded(.down))
        cairo_pattern_set_matrix(pattern, &m)
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
    }

    /// Clears the group outside the core (DEST_IN is unbounded), so the group is then painted
    /// under the plain rectangular clip: under a path clip every composite goes through a mask.
    private func keepInsideCore(_ s: RainSurface, _ cr: OpaquePointer) {
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        for segment in s.segments { outline(segment, cr) }
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_fill(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    /// Keeps what the group holds in proportion to a horizontal mask of the certainty: `base`
    /// where the chance is 1, `base + gain` where it is 0, linear between minute centres and held
    /// past the first and last (a padded linear gradient). Written as one row of texture pixels,
    /// sampled at their centres and repeated down: a 60-stop gradient made pixman look up its stops
    /// again at nearly every pixel (a fifth of the texture's time).
    private func certaintyMask(
        _ s: RainSurface, base: Double, gain: Double, _ deviceScale: Double, _ cr: OpaquePointer
    ) {
        guard !s.certainty.isEmpty else { return }
        let k = deviceScale
        let width = Int32((s.plot.width * k).rounded(.up)) + 1
        guard
            let row = try? CairoSurface(
                owning: cairo_image_surface_create(CAIRO_FORMAT_A8, width, 1), call: "certainty mask"),
            let data = cairo_image_surface_get_data(row.pointer)
        else { return }
        let stops = s.certainty.map { min(1, base + gain * (1 - $0)) }
        // The gradient's stops sit at minute centres, (i + 0.5) / 60 of the width (the axis is
        // always an hour, whatever the data's length).
        for px in 0..<Int(width) {
            let minute = (Double(px) + 0.5) / k / s.plot.width * 60 - 0.5
            let v: Double
            if minute <= 0 {
                v = stops[0]
            } else if minute >= Double(stops.count - 1) {
                v = stops[stops.count - 1]
            } else {
                let i = Int(minute), f = minute - Double(i)
                v = stops[i] + (stops[i + 1] - stops[i]) * f
            }
            data[px] = UInt8((v * 255).rounded())
        }
        cairo_surface_mark_dirty(row.pointer)
        let pattern = cairo_pattern_create_for_surface(row.pointer)!
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
        var m = cairo_matrix_t()
        cairo_matrix_init(&m, k, 0, 0, k, -s.plot.minX * k, -s.plot.minY * k)
        cairo_pattern_set_matrix(pattern, &m)
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_pattern_destroy(pattern)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    /// White micro-highlights through the body, strong at the surface and fading to the baseline.
    private func grain(
        _ s: RainSurface, _ fine: CairoSurface, _ rng: inout SplitMix64, _ deviceScale: Double, _ crest: Double,
        _ cr: OpaquePointer
    ) {
        cairo_save(cr)
        cairo_push_group(cr)
        setTile(fine, &rng, deviceScale, cr)
        cairo_paint(cr)
        let fade = cairo_pattern_create_linear(0, crest, 0, s.baselineY)!
        cairo_pattern_add_color_stop_rgba(fade, 0, 0, 0, 0, 1)
        cairo_pattern_add_color_stop_rgba(fade, 1, 0, 0, 0, 0.12)
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        cairo_set_source(cr, fade)
        cairo_paint(cr)
        cairo_pattern_destroy(fade)
        certaintyMask(s, base: 0.45, gain: 0.55, deviceScale, cr)
        keepInsideCore(s, cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_paint_with_alpha(cr, 0.30)
        cairo_restore(cr)
    }

    /// Turbulence along the contour, inside the body: coarse clumps and fine detail kept to a
    /// band around the ridge.
    private func surfaceBand(
        _ s: RainSurface, _ wide: CairoSurface, _ rng: inout SplitMix64, _ deviceScale: Double, _ cr: OpaquePointer
    ) {
        let band = max(2.5, min(6, s.plot.height * 0.06))
        cairo_save(cr)
        cairo_push_group(cr)
        setTile(wide, &rng, deviceScale, cr)
        cairo_paint_with_alpha(cr, 0.8)
        // Only the band: everything outside the stroked ridge is cleared (DEST_IN is unbounded).
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        ridges(s, cr)
        cairo_set_line_width(cr, band * 2)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_stroke(cr)
        certaintyMask(s, base: 0.55, gain: 0.45, deviceScale, cr)
        keepInsideCore(s, cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_paint_with_alpha(cr, 0.32)
        cairo_restore(cr)
    }

    /// A soft haze above the surface in the core's hue, fading upwards, with the coarse tile's
    /// variation added on (never used as a hard mask); stronger where the chance is low. Drawn
    /// at a quarter of the device resolution and scaled up bilinearly: the haze is soft anyway,
    /// the upscale smooths the steps between its nested strokes, and wide strokes cost by area
    /// (at full resolution the mist alone took longer than the rest of the widget).
    private func mist(
        _ s: RainSurface, _ coarse: CairoSurface, _ rng: inout SplitMix64, _ deviceScale: Double, _ cr: OpaquePointer
    ) {
        let reach = Self.mistReach(s)
        cairo_save(cr)
        cairo_push_group(cr)
        let m = s.colours.mist
        // Nested copies of each run's outline, raised and widened by up to `reach`: their
        // overlap makes the haze densest at the surface and fading upwards and outwards. Fills,
        // not wide strokes: a stroke's joins are tessellated, a fill costs only its area.
        let passes = 4
        cairo_set_source_rgba(cr, m.r, m.g, m.b, m.a * 0.27)
        for p in 0..<passes {
            let d = reach * (1 - Double(p) / Double(passes))
            for segment in s.segments {
                guard let first = segment.first, let last = segment.last, last.x > first.x else { continue }
                let centre = (first.x + last.x) / 2, widen = 1 + 2 * d / (last.x - first.x)
                cairo_move_to(cr, centre + (first.x - centre) * widen, s.baselineY)
                for q in segment.dropFirst().dropLast() {
                    cairo_line_to(cr, centre + (q.x - centre) * widen, min(s.baselineY, q.y - d))
                }
                cairo_line_to(cr, centre + (last.x - centre) * widen, s.baselineY)
                cairo_close_path(cr)
            }
            cairo_fill(cr)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_ATOP)
        setTile(coarse, &rng, deviceScale, cr)
        cairo_paint_with_alpha(cr, 0.18)
        certaintyMask(s, base: 0.25, gain: 0.75, deviceScale, cr)
        // Only outside the core and above the baseline.
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        for segment in s.segments { outline(segment, cr) }
        cairo_rectangle(cr, s.plot.minX, s.baselineY, s.plot.width, s.plot.maxY - s.baselineY)
        cairo_fill(cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_paint_with_alpha(cr, 0.62)
        cairo_restore(cr)
    }
}
