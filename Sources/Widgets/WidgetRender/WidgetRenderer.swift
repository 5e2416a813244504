import CCairo
import CairoCanvas
import Foundation
import WidgetDesign

/// Output formats of `weaver render`.
public enum RenderFormat: String, CaseIterable, Sendable {
    case png, svg, json, txt

    /// From a file name's extension (`widget.png` → png).
    public static func from(path: String) -> RenderFormat? {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext == "text" ? .txt : RenderFormat(rawValue: ext)
    }
}

/// The one renderer every surface uses (files, browser home screen, MPRIS art, gallery in docs/rendering.md):
/// lay out a design into a `WidgetLayout`, then draw that tree as PNG or SVG, or write it as JSON
/// or text. Not thread-safe (it owns a Pango context and caches formatters): one per thread.
public final class WidgetRenderer {
    let fonts: FontSystem
    let textEngine: TextEngine
    let engine: LayoutEngine
    /// This renderer's PNG writer, made at the first PNG and kept (its deflate state is reused).
    private var encoder: PNGEncoder?
    /// The image surface of the last PNG or pixel render, reused while the size stays the same.
    private var imageSurface: CairoSurface?

    public init(fonts: FontSystem = .shared) {
        self.fonts = fonts
        textEngine = TextEngine(fonts: fonts)
        engine = LayoutEngine(text: textEngine)
    }

    /// Scales accepted for pixel output.
    public static let scales = 1...3

    // MARK: Layout

    public func layout(design: WidgetSpec, family: WidgetFamily, scale: Int = 2, inputs: RenderInputs) -> WidgetLayout {
        var layout = engine.layout(design, family: family, scale: scale, inputs: inputs)
        if !fonts.missingFiles.isEmpty {
            layout.warnings.append(
                """
                fonts missing (install fonts-inter fonts-dejavu-core fonts-quicksand fonts-noto-cjk \
                fonts-noto-color-emoji fonts-material-design-icons-iconfont):\u{20}
                """
                    + fonts.missingFiles.joined(separator: ", "))
        }
        return layout
    }

    // MARK: Backends

    /// PNG bytes at `layout.scale` pixels per point; transparent outside the rounded corners.
    /// `backdrop` fills the whole image behind the widget (previews of lock-screen families, which
    /// are otherwise white on transparent).
    public func png(_ layout: WidgetLayout, images: [String: DecodedImage] = [:], backdrop: RGBA? = nil) throws
        -> [UInt8]
    {
        let surface = try draw(layout, images: images, backdrop: backdrop)
        let encoder = try self.encoder ?? PNGEncoder(compression: .fast)
        self.encoder = encoder
        return try encoder.encode(surface)
    }

    /// Raw premultiplied ARGB32 pixels (for tests and in-process consumers).
    public func pixels(_ layout: WidgetLayout, images: [String: DecodedImage] = [:], backdrop: RGBA? = nil) throws
        -> PixelImage
    {
        let surface = try draw(layout, images: images, backdrop: backdrop)
        cairo_surface_flush(surface.pointer)
        let w = surface.width, h = surface.height
        let stride = Int(cairo_image_surface_get_stride(surface.pointer)) / 4
        let data = cairo_image_surface_get_data(surface.pointer)!.withMemoryRebound(
            to: UInt32.self, capacity: stride * h
        ) { $0 }
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { out[y * w + x] = data[y * stride + x] } }
        return PixelImage(width: w, height: h, argb: out)
    }

    /// Draws `layout` on this renderer's image surface (made again only when the pixel size
    /// changes: a fresh 340×340 surface is a 462 kB calloc whose page faults cost more than a
    /// clear) and returns it; valid until the next draw.
    private func draw(_ layout: WidgetLayout, images: [String: DecodedImage], backdrop: RGBA?) throws -> CairoSurface {
        let s = Double(max(1, layout.scale))
        let w = Int((layout.width * s).rounded()), h = Int((layout.height * s).rounded())
        let surface: CairoSurface
        // A surface that ever failed (out of memory) stays failed in Cairo: never reuse one.
        if let kept = imageSurface, kept.width == w, kept.height == h,
            cairo_surface_status(kept.pointer) == CAIRO_STATUS_SUCCESS
        {
            surface = kept
        } else {
            imageSurface = nil
            surface = try CairoSurface(
                owning: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)),
                call: "cairo_image_surface_create")
            imageSurface = surface
        }
        let cr = try CairoContext(surface: surface)
        cairo_set_operator(cr.pointer, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr.pointer)
        cairo_set_operator(cr.pointer, CAIRO_OPERATOR_OVER)
        CairoDrawer(text: textEngine, images: images).draw(
            layout, on: cr.pointer, scale: s, corners: .cut(backdrop: backdrop))
        try cr.check("drawing")
        return surface
    }

    /// Draws `layout` straight onto a Cairo context the caller owns (a desktop window's, in
    /// points: the context's device scale does HiDPI), over cleared pixels, corners cut as in PNG
    /// output. Same drawing as `png`, without the image surface and the encoding.
    public func draw(_ layout: WidgetLayout, onContext cr: OpaquePointer, images: [String: DecodedImage] = [:]) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        CairoDrawer(text: textEngine, images: images).draw(layout, on: cr, scale: 1, corners: .cut(backdrop: nil))
        cairo_restore(cr)
    }

    /// An SVG document in points (the viewBox is the widget in points; width/height in pixels at
    /// the layout's scale).
    public func svg(_ layout: WidgetLayout, images: [String: DecodedImage] = [:]) throws -> String {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        try withExtendedLifetime(sink) {
            let raw = cairo_svg_surface_create_for_stream(
                { closure, data, length in
                    let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque(), layout.width, layout.height)!
            cairo_svg_surface_set_document_unit(raw, CAIRO_SVG_UNIT_PT)
            let surface = try CairoSurface(owning: raw, call: "cairo_svg_surface_create")
            let cr = try CairoContext(surface: surface)
            CairoDrawer(text: textEngine, images: images).draw(layout, on: cr.pointer, scale: 1, corners: .clip)
            try cr.check("drawing")
            cairo_surface_finish(surface.pointer)
            try RenderError.check(cairo_surface_status(surface.pointer), "SVG output")
        }
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// The layout tree as JSON, in points (schema in docs/rendering.md).
    public func json(_ layout: WidgetLayout) -> String { LayoutJSON.encode(layout) }

    /// Characters of a text rendition's line (`inline`: the whole line; others: each line) before
    /// it is cut with "…": a status bar or terminal shows far less, and a 64 kB variable
    /// substituted into a design would otherwise come out as one 64 kB line.
    public static let textLineLimits = (inline: 200, other: 500)

    /// A plain-text rendition for terminals and status bars: one line for `inline`.
    public func text(_ layout: WidgetLayout) -> String {
        func cut(_ line: String, _ limit: Int) -> String { line.count > limit ? line.prefix(limit - 1) + "…" : line }
        let lines = layout.textLines.map { $0.replacingOccurrences(of: "\n", with: " ") }.filter { !$0.isEmpty }
        if layout.family == .inline { return cut(lines.joined(separator: " · "), Self.textLineLimits.inline) + "\n" }
        return lines.map { cut($0, Self.textLineLimits.other) }.joined(separator: "\n") + "\n"
    }

    /// One call for any format: PNG and SVG as bytes, JSON and text as UTF-8.
    public func render(
        _ layout: WidgetLayout, format: RenderFormat, images: [String: DecodedImage] = [:], backdrop: RGBA? = nil
    ) throws -> [UInt8] {
        switch format {
        case .png: try png(layout, images: images, backdrop: backdrop)
        case .svg: Array(try svg(layout, images: images).utf8)
        case .json: Array(json(layout).utf8)
        case .txt: Array(text(layout).utf8)
        }
    }

    /// PNG bytes of a Cairo image surface (see `PNGEncoder`: fast for renders, small for files kept
    /// in the repository).
    static func writePNG(_ surface: CairoSurface, compression: PNGEncoder.Compression = .fast) throws -> [UInt8] {
        try PNGEncoder(compression: compression).encode(surface)
    }
}
