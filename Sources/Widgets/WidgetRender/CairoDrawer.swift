import CCairo
import CairoCanvas
import Foundation

/// Draws a `WidgetLayout` on a Cairo context (image surface for PNG, SVG surface for SVG).
struct CairoDrawer {
    let text: TextEngine
    let images: [String: DecodedImage]

    /// How the widget's rounded corners are made.
    enum Corners {
        /// Every element drawn under a rounded clip (vector output: the SVG keeps the shape).
        case clip
        /// Elements drawn unclipped, then the pixels outside the corners cleared, then `backdrop`
        /// (if any) painted behind what is left. On an image surface this is the same picture as
        /// drawing under the clip (at an edge pixel each layer was weighted by the coverage; now
        /// the finished pixel is, which also stops lower layers bleeding through the edge), and
        /// faster: under a non-rectangular clip pixman composites every fill through a mask.
        case cut(backdrop: RGBA?)
    }

    func draw(_ layout: WidgetLayout, on cr: OpaquePointer, scale: Double, corners: Corners) {
        cairo_save(cr)
        cairo_scale(cr, scale, scale)
        switch corners {
        case .clip:
            if layout.cornerRadius > 0 {
                roundedRect(cr, layout.bounds, layout.cornerRadius)
            } else {
                cairo_rectangle(cr, 0, 0, layout.width, layout.height)
            }
            cairo_clip(cr)
            for element in layout.elements { draw(element, cr) }
        case .cut(let backdrop):
            for element in layout.elements { draw(element, cr) }
            cairo_new_path(cr)
            if layout.cornerRadius > 0 {
                cairo_rectangle(cr, 0, 0, layout.width, layout.height)
                roundedRect(cr, layout.bounds, layout.cornerRadius)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
                cairo_fill(cr)
            }
            if let c = backdrop {
                cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OVER)
                cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
                cairo_paint(cr)
            }
        }
        cairo_restore(cr)
    }

    func draw(_ e: LayoutElement, _ cr: OpaquePointer) {
        let r = e.rect
        switch e.primitive {
        case .shape(let fill, let radius, let stroke, let strokeWidth):
            roundedRect(cr, r, min(radius, min(r.width, r.height) / 2))
            fillAndStroke(cr, fill, stroke, strokeWidth)
        case .ellipse(let fill, let stroke, let strokeWidth):
            cairo_save(cr)
            cairo_translate(cr, r.midX, r.midY)
            cairo_scale(cr, max(r.width, 0.001) / 2, max(r.height, 0.001) / 2)
            cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
            cairo_restore(cr)
            fillAndStroke(cr, fill, stroke, strokeWidth)
        case .text(let run):
            // The layout measured for this run (shaped once), wrapped at the measuring width:
            // Pango places right-to-left text at that box's right edge, so shift it back to
            // where the rect (the text's own extent) says.
            let layout = text.shapedLayout(run, width: run.wrapWidth ?? r.width + 0.5)
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            let x = r.minX - Double(logical.x) / Double(PANGO_SCALE)
            if run.shadow {
                cairo_move_to(cr, x, r.minY + 1.5)
                cairo_set_source_rgba(cr, 0, 0, 0, 0.35 * run.colour.a)
                pango_cairo_show_layout(cr, layout)
            }
            cairo_move_to(cr, x, r.minY)
            setColour(cr, run.colour)
            pango_cairo_show_layout(cr, layout)
            cairo_new_path(cr)
        case .symbol(let glyph, let colour, let weight):
            let run = TextRun(text: glyph.character, sizePoints: r.height, colour: colour)
            let layout = text.makeLayout(run, width: nil, family: FontSystem.symbolFamily)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let s = Double(PANGO_SCALE)
            // Material glyphs sit in a square em box; centre the logical box on the rect.
            let w = Double(logical.width) / s, h = Double(logical.height) / s
            cairo_move_to(cr, r.midX - w / 2, r.midY - h / 2)
            pango_cairo_layout_path(cr, layout)
            setColour(cr, colour)
            if weight > 400 {
                // One weight in the icon font: heavier weights thicken the outline. Drawn opaque
                // in a group, then composited once, so a translucent tint has no darker rim.
                let path = cairo_copy_path(cr)
                cairo_new_path(cr)
                cairo_save(cr)
                // A group is as big as the clip: bound it to the glyph's pixels (whole device
                // pixels, so the clip stays a rectangle and costs no mask).
                clipToDevicePixels(cr, r.insetBy(-r.height * 0.1))
                cairo_push_group(cr)
                cairo_append_path(cr, path)
                cairo_path_destroy(path)
                cairo_set_source_rgb(cr, colour.r, colour.g, colour.b)
                cairo_fill_preserve(cr)
                cairo_set_line_width(cr, Double(weight - 400) / 100 * r.height * 0.012)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                cairo_stroke(cr)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, colour.a)
                cairo_restore(cr)
            } else {
                cairo_fill(cr)
            }
        case .image(let key, let mode, let radius, let blurred):
            guard let image = clippedImage(key, to: r, radius, cr) else { return }
            let iw = Double(image.pixelWidth), ih = Double(image.pixelHeight)
            let sx = r.width / iw, sy = r.height / ih
            let k = mode == .fill ? max(sx, sy) : min(sx, sy)
            let dw = iw * k, dh = ih * k
            cairo_translate(cr, r.midX - dw / 2, r.midY - dh / 2)
            cairo_scale(cr, k, k)
            cairo_set_source_surface(cr, image.surface.pointer, 0, 0)
            let pattern = cairo_get_source(cr)
            cairo_pattern_set_filter(pattern, blurred ? CAIRO_FILTER_FAST : CAIRO_FILTER_GOOD)
            if blurred {
                // A cheap blur: paint a tiny downscale back up (bilinear smears it).
                cairo_restore(cr)
                drawBlurred(image, in: r, cr)
                return
            }
            cairo_paint(cr)
            cairo_restore(cr)
        case .croppedImage(let key, let crop, let mode, let radius):
            guard let image = clippedImage(key, to: r, radius, cr) else { return }
            let iw = Double(image.pixelWidth), ih = Double(image.pixelHeight)
            let turns = ((crop.quarterTurns % 4) + 4) % 4
            // The turned picture's size, and the crop in its pixels.
            let tw = turns % 2 == 0 ? iw : ih, th = turns % 2 == 0 ? ih : iw
            let cw = max(1e-6, crop.width) * tw, ch = max(1e-6, crop.height) * th
            let cx = (crop.x + crop.width / 2) * tw, cy = (crop.y + crop.height / 2) * th
            let k = mode == .fill ? max(r.width / cw, r.height / ch) : min(r.width / cw, r.height / ch)
            // Read right to left: master → turned picture → centred on the crop → straightened →
            // scaled → onto the rect's centre.
            cairo_translate(cr, r.midX, r.midY)
            cairo_scale(cr, k, k)
            cairo_rotate(cr, crop.straightenDegrees.isFinite ? crop.straightenDegrees * .pi / 180 : 0)
            cairo_translate(cr, -cx, -cy)
            switch turns {
            case 1: cairo_translate(cr, ih, 0)
            case 2: cairo_translate(cr, iw, ih)
            case 3: cairo_translate(cr, 0, iw)
            default: break
            }
            cairo_rotate(cr, Double(turns) * .pi / 2)
            cairo_set_source_surface(cr, image.surface.pointer, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
        case .arc(let colour, let lineWidth, let start, let end, let roundCaps):
            let radius = min(r.width, r.height) / 2 - lineWidth / 2
            let a0 = (start - 90) * .pi / 180, a1 = (end - 90) * .pi / 180
            cairo_new_path(cr)
            cairo_arc(cr, r.midX, r.midY, max(0, radius), a0, a1)
            setColour(cr, colour)
            cairo_set_line_width(cr, lineWidth)
            cairo_set_line_cap(cr, roundCaps ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
            cairo_stroke(cr)
        case .polygon(let points, let fill):
            guard let first = points.first else { return }
            cairo_move_to(cr, first.x, first.y)
            for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
            cairo_close_path(cr)
            setPaint(cr, fill)
            cairo_fill(cr)
        case .rainSurface(let surface):
            drawRainSurface(surface, cr)
        case .line(let from, let to, let colour, let width, let roundCaps):
            cairo_move_to(cr, from.x, from.y)
            cairo_line_to(cr, to.x, to.y)
            setColour(cr, colour)
            cairo_set_line_width(cr, width)
            cairo_set_line_cap(cr, roundCaps ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
            cairo_stroke(cr)
        }
    }

    /// The design picture `key`, with the state saved and the clip set to `r`'s rounded rect (the caller
    /// restores it); nil, with nothing changed, when the design has no such picture.
    func clippedImage(_ key: String, to r: Rect, _ radius: Double, _ cr: OpaquePointer) -> DecodedImage? {
        guard let image = images[key] else { return nil }
        cairo_save(cr)
        roundedRect(cr, r, radius)
        cairo_clip(cr)
        return image
    }

    func drawBlurred(_ image: DecodedImage, in r: Rect, _ cr: OpaquePointer) {
        let smallW = 24, smallH = max(1, Int(24 * Double(image.pixelHeight) / Double(max(1, image.pixelWidth))))
        guard
            let small = try? CairoSurface(
                owning: cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(smallW), Int32(min(smallH, 96))),
                call: "blur surface")
        else { return }
        let scr = cairo_create(small.pointer)!
        cairo_scale(scr, Double(smallW) / Double(image.pixelWidth), Double(min(smallH, 96)) / Double(image.pixelHeight))
        cairo_set_source_surface(scr, image.surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(scr), CAIRO_FILTER_GOOD)
        cairo_paint(scr)
        cairo_destroy(scr)
        cairo_save(cr)
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_clip(cr)
        let sw = Double(smallW), sh = Double(min(smallH, 96))
        let k = max(r.width / sw, r.height / sh)
        cairo_translate(cr, r.midX - sw * k / 2, r.midY - sh * k / 2)
        cairo_scale(cr, k, k)
        cairo_set_source_surface(cr, small.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    func roundedRect(_ cr: OpaquePointer, _ r: Rect, _ radius: Double) {
        let rad = max(0, min(radius, min(r.width, r.height) / 2))
        cairo_new_sub_path(cr)
        if rad <= 0 {
            cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
            return
        }
        cairo_arc(cr, r.maxX - rad, r.minY + rad, rad, -.pi / 2, 0)
        cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, .pi / 2)
        cairo_arc(cr, r.minX + rad, r.maxY - rad, rad, .pi / 2, .pi)
        cairo_arc(cr, r.minX + rad, r.minY + rad, rad, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    /// Clips to `r` grown outward to whole device pixels.
    func clipToDevicePixels(_ cr: OpaquePointer, _ r: Rect) {
        var x0 = r.minX, y0 = r.minY, x1 = r.maxX, y1 = r.maxY
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        var left = min(x0, x1).rounded(.down), top = min(y0, y1).rounded(.down)
        var right = max(x0, x1).rounded(.up), bottom = max(y0, y1).rounded(.up)
        cairo_device_to_user(cr, &left, &top)
        cairo_device_to_user(cr, &right, &bottom)
        cairo_rectangle(cr, left, top, right - left, bottom - top)
        cairo_clip(cr)
    }

    /// Fills the current path with `fill` and strokes it with `stroke` (either may be absent), then
    /// clears it: what every closed shape ends with.
    func fillAndStroke(_ cr: OpaquePointer, _ fill: Paint?, _ stroke: RGBA?, _ strokeWidth: Double) {
        if let fill {
            setPaint(cr, fill)
            if stroke != nil { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
        }
        if let stroke {
            setColour(cr, stroke)
            cairo_set_line_width(cr, strokeWidth)
            cairo_stroke(cr)
        }
        cairo_new_path(cr)
    }

    func setColour(_ cr: OpaquePointer, _ c: RGBA) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }

    func setPaint(_ cr: OpaquePointer, _ paint: Paint) {
        switch paint {
        case .solid(let c): setColour(cr, c)
        case .linear(let s, let e, let stops):
            let p = cairo_pattern_create_linear(s.x, s.y, e.x, e.y)!
            for stop in stops {
                cairo_pattern_add_color_stop_rgba(
                    p, stop.offset, stop.colour.r, stop.colour.g, stop.colour.b, stop.colour.a)
            }
            cairo_set_source(cr, p)
            cairo_pattern_destroy(p)
        case .radial(let c, let radius, let stops):
            let p = cairo_pattern_create_radial(c.x, c.y, 0, c.x, c.y, radius)!
            for stop in stops {
                cairo_pattern_add_color_stop_rgba(
                    p, stop.offset, stop.colour.r, stop.colour.g, stop.colour.b, stop.colour.a)
            }
            cairo_set_source(cr, p)
            cairo_pattern_destroy(p)
        }
    }
}
