import Foundation
import WidgetDesign
import WidgetRender

/// The colour tokens as CSS the Editor paints its swatches with, computed from the renderer's own
/// `Palette` (the same colours and gradient stops the widgets are drawn with), so a swatch shows
/// what the token will look like, not a guess.
enum TokenSwatches {
    /// `{"style.accent": {TOKEN: CSS}, "style.background": {…}, "style.backgroundOverlay": {…}}`;
    /// backgrounds drawn with `accent`, over a 100-point square.
    static func css(appearance: Appearance, accent: AccentToken) -> [String: [String: String]] {
        let palette = Palette(appearance)
        var accents: [String: String] = [:]
        for token in AccentToken.allCases { accents[token.rawValue] = colour(palette.accent(token)) }
        var backgrounds: [String: String] = [:]
        let bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        let base = colour(palette.systemBackground)
        for token in BackgroundToken.allCases {
            // Translucent paints sit on the system background, as on a widget.
            backgrounds[token.rawValue] =
                paint(palette.background(token, accent: palette.accent(accent), bounds: bounds)) + ", " + base
        }
        return ["style.accent": accents, "style.background": backgrounds, "style.backgroundOverlay": backgrounds]
    }

    static func colour(_ c: RGBA) -> String {
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        return "rgba(\(byte(c.r)), \(byte(c.g)), \(byte(c.b)), \(String(format: "%.3f", min(max(c.a, 0), 1))))"
    }

    static func stops(_ stops: [GradientStop]) -> String {
        stops.map { "\(colour($0.colour)) \(String(format: "%.1f", $0.offset * 100))%" }.joined(separator: ", ")
    }

    /// A paint as one CSS background layer (the swatch is 100 points square).
    static func paint(_ p: Paint) -> String {
        switch p {
        case .solid(let c):
            return "linear-gradient(\(colour(c)), \(colour(c)))"
        case .linear(let start, let end, let s):
            // CSS angles: 0deg points up, 90deg right.
            let degrees = atan2(end.x - start.x, -(end.y - start.y)) * 180 / .pi
            return "linear-gradient(\(String(format: "%.1f", degrees))deg, \(stops(s)))"
        case .radial(let centre, let radius, let s):
            // Percentages of the 100-point swatch: the same reach relative to the box.
            return
                """
                radial-gradient(ellipse \(String(format: "%.0f", radius))% \(String(format: "%.0f", radius))% at \
                \(String(format: "%.0f", centre.x))% \(String(format: "%.0f", centre.y))%, \(stops(s)))
                """
        }
    }
}
