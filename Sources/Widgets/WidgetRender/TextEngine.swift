import CCairo
import Foundation
import WidgetDesign

/// Measures and builds Pango layouts for text runs. The layout engine measures with it and the
/// drawing backends draw with it, so both see exactly the same lines. Not thread-safe: one per
/// renderer.
final class TextEngine {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    /// Text beyond this many characters is never visible in a widget; cutting it first keeps
    /// shaping time bounded for enormous strings.
    static let maximumCharacters = 1_500

    /// What a Pango layout depends on (not the colour, which is set when drawing).
    struct ShapeKey: Hashable {
        var text: String
        var sizePoints: Double
        var weight: Int
        var lineLimit: Int
        var tabularDigits: Bool
        var strikethrough: Bool
        var fontDesign: FontDesignToken
        var width: Double

        init(_ run: TextRun, width: Double) {
            text = run.text
            sizePoints = run.sizePoints
            weight = run.weight
            lineLimit = run.lineLimit
            tabularDigits = run.tabularDigits
            strikethrough = run.strikethrough
            fontDesign = run.fontDesign
            self.width = width
        }
    }

    /// Layouts shaped while laying out the current widget, so a run measured more than once
    /// (templates measure, then add) and then drawn is shaped once. Emptied when the next
    /// widget's layout starts (`beginWidget`): a render never draws from an earlier render's
    /// shaping, so a benchmark of repeated renders measures the whole work each time.
    private var shaped: [ShapeKey: OpaquePointer] = [:]
    /// Bounds `shaped` for a pathological widget (the catalogue's largest keeps ~40).
    static let maximumShaped = 256

    init(fonts: FontSystem) {
        fontMap = fonts.makeFontMap()
        context = fonts.makeContext(fontMap: fontMap)
    }

    deinit {
        beginWidget()
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// Forgets the layouts shaped for the previous widget.
    func beginWidget() {
        for layout in shaped.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        shaped.removeAll(keepingCapacity: true)
    }

    /// The layout of `run` wrapped at `width`, shaped once per widget; owned by the engine
    /// (valid until the next `beginWidget`; do not unref).
    func shapedLayout(_ run: TextRun, width: Double) -> OpaquePointer {
        let key = ShapeKey(run, width: width)
        if let layout = shaped[key] { return layout }
        if shaped.count >= Self.maximumShaped { beginWidget() }
        let layout = makeLayout(run, width: width, family: FontSystem.textFamilies(for: run.fontDesign))
        shaped[key] = layout
        return layout
    }

    /// A layout for `run` wrapped at `width` points (nil: one unwrapped line). The caller unrefs it.
    func makeLayout(_ run: TextRun, width: Double?, family: String = FontSystem.textFamilies) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, family)
        pango_font_description_set_absolute_size(description, run.sizePoints * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(run.weight)))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        let text = run.text.count > Self.maximumCharacters ? String(run.text.prefix(Self.maximumCharacters)) : run.text
        pango_layout_set_text(layout, text, -1)
        if run.tabularDigits || run.strikethrough {
            let attributes = pango_attr_list_new()!
            if run.tabularDigits { pango_attr_list_insert(attributes, pango_attr_font_features_new("tnum 1")) }
            if run.strikethrough { pango_attr_list_insert(attributes, pango_attr_strikethrough_new(1)) }
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        if let width {
            pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_height(layout, Int32(-max(1, run.lineLimit)))
        }
        pango_layout_set_single_paragraph_mode(layout, run.lineLimit == 1 ? 1 : 0)
        return layout
    }

    /// Measures `run` in a box `width` wide: its size in points, the lines drawn and whether it
    /// was cut. Fills the run's `lineCount` / `isTruncated`.
    func measure(_ run: inout TextRun, width: Double) -> (width: Double, height: Double) {
        let layout = shapedLayout(run, width: width)
        run.wrapWidth = width
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        run.lineCount = Int(pango_layout_get_line_count(layout))
        run.isTruncated =
            pango_layout_is_ellipsized(layout) != 0
            || run.text.count > Self.maximumCharacters
        run.shownText = run.isTruncated ? Self.shownText(layout) : nil
        let scale = Double(PANGO_SCALE)
        return (min(width, Double(logical.width) / scale), Double(logical.height) / scale)
    }

    /// What a cut layout shows: each line's runs as drawn, "…" for the run Pango put in place of
    /// the elided text, lines joined with a space (the text renditions carry this, not the whole
    /// text the picture does not show).
    static func shownText(_ layout: OpaquePointer) -> String {
        guard let start = pango_layout_get_text(layout) else { return "" }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self), count: strlen(start))
        // PANGO_ANALYSIS_FLAG_IS_ELLIPSIS, (1 << 1) in pango-item.h.
        let ellipsisFlag: UInt8 = 1 << 1
        var lines: [String] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            var text = ""
            if let line = n.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) {
                var runNode = line.pointee.runs
                while let r = runNode {
                    if let item = r.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item {
                        if item.pointee.analysis.flags & ellipsisFlag != 0 {
                            text += "…"
                        } else {
                            let from = max(0, min(Int(item.pointee.offset), bytes.count))
                            let to = max(from, min(from + Int(item.pointee.length), bytes.count))
                            text += String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
                        }
                    }
                    runNode = r.pointee.next
                }
            }
            lines.append(text.trimmingCharacters(in: .whitespaces))
            node = n.pointee.next
        }
        return lines.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Glyphs the fonts could not draw (tofu) in `text` with `family`.
    func unknownGlyphCount(_ text: String, family: String, sizePoints: Double = 20) -> Int {
        var run = TextRun(text: text, sizePoints: sizePoints, colour: .black)
        run.lineLimit = 1
        let layout = makeLayout(run, width: nil, family: family)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return Int(pango_layout_get_unknown_glyphs_count(layout))
    }
}
