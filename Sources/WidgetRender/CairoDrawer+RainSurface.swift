import CCairo
import Foundation

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
            var rng = SurfaceRandom(seed: s.seed)
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
            if let (texture, tcr) = offscreen(s.plot, scale: k) {
                mist(s, coarse, &rng, k, tcr)
                grain(s, fine, &rng, k, crest, tcr)
                surfaceBand(s, wide, &rng, k, tcr)
                cairo_destroy(tcr)
                cairo_surface_flush(texture.pointer)
                composite(texture, over: s.plot, scale: k, operator: CAIRO_OPERATOR_OVER, alpha: 1, cr)
            }
        }
        cairo_restore(cr)
    }

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
    private func setTile(_ tile: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ cr: OpaquePointer) {
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
    /// where the chance is 1, `base + gain` where it is 0.
    private func certaintyMask(_ s: RainSurface, base: Double, gain: Double, _ cr: OpaquePointer) {
        guard !s.certainty.isEmpty else { return }
        let perMinute = s.plot.width / 60
        let pattern = cairo_pattern_create_linear(s.plot.minX, 0, s.plot.maxX, 0)!
        for (i, chance) in s.certainty.enumerated() {
            let offset = (Double(i) + 0.5) * perMinute / s.plot.width
            cairo_pattern_add_color_stop_rgba(pattern, offset, 0, 0, 0, min(1, base + gain * (1 - chance)))
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_pattern_destroy(pattern)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    /// White micro-highlights through the body, strong at the surface and fading to the baseline.
    private func grain(
        _ s: RainSurface, _ fine: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ crest: Double,
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
        certaintyMask(s, base: 0.45, gain: 0.55, cr)
        keepInsideCore(s, cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_paint_with_alpha(cr, 0.30)
        cairo_restore(cr)
    }

    /// Turbulence along the contour, inside the body: coarse clumps and fine detail kept to a
    /// band around the ridge.
    private func surfaceBand(
        _ s: RainSurface, _ wide: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ cr: OpaquePointer
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
        certaintyMask(s, base: 0.55, gain: 0.45, cr)
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
        _ s: RainSurface, _ coarse: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ cr: OpaquePointer
    ) {
        let reach = max(5, min(16, s.plot.height * 0.3))
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
        certaintyMask(s, base: 0.25, gain: 0.75, cr)
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
