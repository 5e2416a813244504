import CCairo
import Foundation
import WidgetDesign

/// The renderer's own fontconfig configuration: only the font files listed here, so a render does
/// not depend on what else the host has installed (a pinned input, like a seed).
///
/// Text uses Inter; what Inter lacks falls back to DejaVu Sans (Arabic, Hebrew, symbols), Noto
/// Sans CJK, then Noto Color Emoji. Icons come from Material Icons (see `SymbolMap`).
public final class FontSystem: @unchecked Sendable {
    /// Font files, in fallback order within each family. Missing files are reported in `missingFiles`.
    public static let fontFiles: [String] = {
        let inter = "/usr/share/fonts/opentype/inter/Inter-"
        return ["Regular", "Light", "Medium", "SemiBold", "Bold", "ExtraBold", "Black"].map { inter + $0 + ".otf" } + [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
            "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
            SymbolMap.fontFile,
        ]
    }()

    public static let textFamilies = "Inter, DejaVu Sans, Noto Sans CJK SC, Noto Color Emoji"
    public static let symbolFamily = "Material Icons"

    /// The one configuration of this process. A fontconfig configuration is thread-safe to
    /// share; Pango font maps are not (Pango's own default map is per thread), so each
    /// `TextEngine` makes its own map over this configuration.
    public static let shared = FontSystem()

    let config: OpaquePointer
    public let missingFiles: [String]

    private init() {
        let config = FcConfigCreate()!
        var missing: [String] = []
        for file in Self.fontFiles {
            if FileManager.default.fileExists(atPath: file) {
                if FcConfigAppFontAddFile(config, file) == 0 { missing.append(file) }
            } else {
                missing.append(file)
            }
        }
        missingFiles = missing
        self.config = config
    }

    deinit { FcConfigDestroy(config) }

    /// A Pango font map over this configuration, for one thread. The caller unrefs it.
    func makeFontMap() -> UnsafeMutablePointer<PangoFontMap> {
        let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        return map
    }

    /// A Pango context at 72 dpi (1 pt = 1 user unit) with hinting off, so text measures the same
    /// at every scale and layout in points matches drawing at 2× and 3×.
    func makeContext(fontMap: UnsafeMutablePointer<PangoFontMap>) -> OpaquePointer {
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        return context
    }
}

/// SwiftUI text styles at the default Dynamic Type size ("Large").
public enum TextStyleMetrics {
    /// (size in points, weight).
    public static func font(_ token: TextStyleToken, fallback: TextStyleToken) -> (size: Double, weight: Int) {
        switch token == .automatic ? fallback : token {
        case .automatic, .body: (17, 400)
        case .caption2: (11, 400)
        case .caption: (12, 400)
        case .footnote: (13, 400)
        case .subheadline: (15, 400)
        case .headline: (17, 600)
        case .title3: (20, 400)
        case .title2: (22, 400)
        case .title: (28, 400)
        }
    }

    public static func weight(_ token: SymbolWeightToken) -> Int {
        switch token {
        case .ultraLight: 200
        case .thin: 200
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        }
    }
}
