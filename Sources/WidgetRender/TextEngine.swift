import CCairo

/// Measures and builds Pango layouts for text runs. The layout engine measures with it and the
/// drawing backends draw with it, so both see exactly the same lines. Not thread-safe: one per
/// renderer.
final class TextEngine {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    /// Text beyond this many characters is never visible in a widget; cutting it first keeps
    /// shaping time bounded for enormous strings.
    static let maximumCharacters = 1_500

    init(fonts: FontSystem) {
        fontMap = fonts.makeFontMap()
        context = fonts.makeContext(fontMap: fontMap)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
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
        let layout = makeLayout(run, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        run.lineCount = Int(pango_layout_get_line_count(layout))
        run.isTruncated = pango_layout_is_ellipsized(layout) != 0
            || run.text.count > Self.maximumCharacters
        let scale = Double(PANGO_SCALE)
        return (min(width, Double(logical.width) / scale), Double(logical.height) / scale)
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
