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
            setPaint(cr, .linear(start: Point(x: 0, y: crest), end: Point(x: 0, y: s.baselineY),
                                 stops: [GradientStop(0, c.ridge), GradientStop(1, c.deep)]))
            cairo_fill(cr)
        }
        if s.textured, let fine = RainNoiseTiles.fine, let coarse = RainNoiseTiles.coarse {
            var rng = SurfaceRandom(seed: s.seed)
            let deviceScale = { var dx = 1.0, dy = 0.0; cairo_user_to_device_distance(cr, &dx, &dy); return max(0.5, abs(dx)) }()
            let crest = s.segments.map(RainSurface.crestY).min() ?? s.plot.minY
            grain(s, fine, &rng, deviceScale, crest, cr)
            surfaceBand(s, fine, coarse, &rng, deviceScale, cr)
            mist(s, coarse, &rng, deviceScale, cr)
        }
        cairo_restore(cr)
    }

    /// The 1 px baseline along the data, fading over the last 0.18 of each end.
    private func baseline(_ s: RainSurface, _ cr: OpaquePointer) {
        let x0 = s.plot.minX, x1 = max(x0 + 1, s.dataEndX)
        let b = s.colours.baseline
        cairo_rectangle(cr, x0, s.baselineY - 0.5, x1 - x0, 1)
        setPaint(cr, .linear(start: Point(x: x0, y: 0), end: Point(x: x1, y: 0),
                             stops: [GradientStop(0, b.opacity(0)), GradientStop(0.18, b), GradientStop(0.82, b), GradientStop(1, b.opacity(0))]))
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
            if points.count > 2, points[points.startIndex + 1].x == points[points.startIndex].x { points = points.dropFirst() }
            if points.count > 2, points[points.endIndex - 2].x == points[points.endIndex - 1].x { points = points.dropLast() }
            guard let first = points.first else { continue }
            cairo_move_to(cr, first.x, first.y)
            for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        }
    }

    /// The tile as the source, one tile pixel per device pixel times `zoom`, its origin jittered.
    private func setTile(_ tile: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, zoom: Double, _ cr: OpaquePointer) {
        let pattern = cairo_pattern_create_for_surface(tile.pointer)!
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
        let k = deviceScale / zoom
        var m = cairo_matrix_t()
        cairo_matrix_init(&m, k, 0, 0, k, rng.unit() * Double(RainNoiseTiles.side), rng.unit() * Double(RainNoiseTiles.side))
        cairo_pattern_set_matrix(pattern, &m)
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
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

    private func clipToCore(_ s: RainSurface, _ cr: OpaquePointer) {
        for segment in s.segments { outline(segment, cr) }
        cairo_clip(cr)
    }

    /// White micro-highlights through the body, strong at the surface and fading to the baseline.
    private func grain(_ s: RainSurface, _ fine: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ crest: Double, _ cr: OpaquePointer) {
        cairo_save(cr)
        clipToCore(s, cr)
        cairo_push_group(cr)
        setTile(fine, &rng, deviceScale, zoom: 1, cr)
        cairo_paint(cr)
        let fade = cairo_pattern_create_linear(0, crest, 0, s.baselineY)!
        cairo_pattern_add_color_stop_rgba(fade, 0, 0, 0, 0, 1)
        cairo_pattern_add_color_stop_rgba(fade, 1, 0, 0, 0, 0.12)
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        cairo_set_source(cr, fade)
        cairo_paint(cr)
        cairo_pattern_destroy(fade)
        certaintyMask(s, base: 0.45, gain: 0.55, cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_paint_with_alpha(cr, 0.30)
        cairo_restore(cr)
    }

    /// Turbulence along the contour, inside the body: coarse clumps and fine detail kept to a
    /// band around the ridge.
    private func surfaceBand(_ s: RainSurface, _ fine: CairoSurface, _ coarse: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ cr: OpaquePointer) {
        let band = max(2.5, min(6, s.plot.height * 0.06))
        cairo_save(cr)
        clipToCore(s, cr)
        cairo_push_group(cr)
        setTile(coarse, &rng, deviceScale, zoom: 1.5, cr)
        cairo_paint_with_alpha(cr, 0.55)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        setTile(coarse, &rng, deviceScale, zoom: 0.75, cr)
        cairo_paint_with_alpha(cr, 0.35)
        setTile(fine, &rng, deviceScale, zoom: 1, cr)
        cairo_paint_with_alpha(cr, 0.5)
        // Only the band: everything outside the stroked ridge is cleared (DEST_IN is unbounded).
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        ridges(s, cr)
        cairo_set_line_width(cr, band * 2)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_stroke(cr)
        certaintyMask(s, base: 0.55, gain: 0.45, cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_paint_with_alpha(cr, 0.32)
        cairo_restore(cr)
    }

    /// A soft haze above the surface in the core's hue, fading upwards, with the coarse tile's
    /// variation added on (never used as a hard mask); stronger where the chance is low.
    private func mist(_ s: RainSurface, _ coarse: CairoSurface, _ rng: inout SurfaceRandom, _ deviceScale: Double, _ cr: OpaquePointer) {
        let reach = max(5, min(16, s.plot.height * 0.3))
        cairo_save(cr)
        // Outside the core and above the baseline: the even-odd of the area and the core.
        cairo_rectangle(cr, s.plot.minX, s.plot.minY, s.plot.width, s.baselineY - s.plot.minY)
        for segment in s.segments { outline(segment, cr) }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_clip(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_push_group(cr)
        let m = s.colours.mist
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // Nested strokes, narrowing: their overlap makes the haze densest at the surface and
        // fading upwards in steps small enough (eight of them) not to read as bands.
        let passes = 8
        for k in 0..<passes {
            ridges(s, cr)
            cairo_set_line_width(cr, reach * 2 * (1 - Double(k) / Double(passes)))
            cairo_set_source_rgba(cr, m.r, m.g, m.b, m.a * 0.16)
            cairo_stroke(cr)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_ATOP)
        setTile(coarse, &rng, deviceScale, zoom: 1.2, cr)
        cairo_paint_with_alpha(cr, 0.18)
        certaintyMask(s, base: 0.25, gain: 0.75, cr)
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, 0.62)
        cairo_restore(cr)
    }
}
