import CCairo
import Foundation
import WidgetDesign

/// The seed's photo theme extraction: the colours a picture is made of, and the accent and
/// background tokens that suit it (the Editor's "theme from photo"). Deterministic: a fixed grid
/// of at most 64×64 samples, no randomness, so the same picture always suggests the same theme.
public struct PhotoTheme: Sendable, Equatable {
    /// Up to five colours, most present first, as `#rrggbb`.
    public var palette: [String]
    public var accent: AccentToken
    public var background: BackgroundToken

    /// Reads `image` (already decoded within the store's pixel cap).
    public init(_ image: DecodedImage) {
        let surface = image.surface.pointer
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard width > 0, height > 0, let data = cairo_image_surface_get_data(surface) else {
            self.init(palette: [], accent: .gray, background: .subtleMaterial)
            return
        }
        // 12 hue buckets × (saturated or not), each summing the colours that fall in it.
        struct Bucket { var r = 0.0, g = 0.0, b = 0.0, weight = 0.0 }
        var buckets = [Bucket](repeating: Bucket(), count: 26)
        var lightness = 0.0, count = 0.0
        let steps = 64
        for sy in 0..<min(steps, height) {
            let y = (sy * height) / min(steps, height)
            for sx in 0..<min(steps, width) {
                let x = (sx * width) / min(steps, width)
                // ARGB32/RGB24, native-endian 32-bit words (premultiplied; opaque photos are not).
                let word = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
                    $0.pointee
                }
                let alpha = Double((word >> 24) & 0xFF) / 255
                let isOpaqueFormat = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
                let a = isOpaqueFormat ? 1 : alpha
                guard a > 0.1 else { continue }
                let r = Double((word >> 16) & 0xFF) / 255 / a, g = Double((word >> 8) & 0xFF) / 255 / a,
                    b = Double(word & 0xFF) / 255 / a
                let (h, s, l) = Self.hsl(r, g, b)
                lightness += l
                count += 1
                let i =
                    s < 0.18 || l < 0.08 || l > 0.94 ? 24 + (l < 0.5 ? 0 : 1) : Int(h * 12) % 12 + (s > 0.45 ? 12 : 0)
                buckets[i].r += r
                buckets[i].g += g
                buckets[i].b += b
                buckets[i].weight += 1
            }
        }
        let ranked = buckets.enumerated().filter { $0.element.weight > 0 }.sorted {
            $0.element.weight > $1.element.weight
        }
        let palette = ranked.prefix(5).map { item -> String in
            let w = item.element.weight
            return Self.hex(item.element.r / w, item.element.g / w, item.element.b / w)
        }
        // The accent: the strongest colourful bucket (saturated ones count double), matched by
        // hue to the token whose dark-palette colour is nearest; a grey picture gets gray.
        let colourful = ranked.filter { $0.offset < 24 }.max { a, b in
            a.element.weight * (a.offset >= 12 ? 2 : 1) < b.element.weight * (b.offset >= 12 ? 2 : 1)
        }
        var accent = AccentToken.gray
        var hue: Double?
        if let c = colourful, c.element.weight >= max(1, count * 0.04) {
            let w = c.element.weight
            let h = Self.hsl(c.element.r / w, c.element.g / w, c.element.b / w).h
            hue = h
            let palette = Palette(.dark)
            accent =
                AccentToken.allCases.filter { $0 != .gray }.min { a, b in
                    Self.hueDistance(Self.hsl(palette.accent(a)).h, h)
                        < Self.hueDistance(Self.hsl(palette.accent(b)).h, h)
                } ?? .gray
        }
        let meanLightness = count > 0 ? lightness / count : 0.5
        let background: BackgroundToken
        switch hue {
        case nil: background = meanLightness < 0.35 ? .midnight : .subtleMaterial
        case let h? where h < 0.12 || h >= 0.9: background = .sunset  // reds, oranges, pinks
        case let h? where h < 0.5: background = .aurora  // yellows, greens, teals
        default: background = meanLightness < 0.4 ? .midnight : .radialGlow  // blues, purples
        }
        self.init(palette: palette, accent: accent, background: background)
    }

    public init(palette: [String], accent: AccentToken, background: BackgroundToken) {
        self.palette = palette
        self.accent = accent
        self.background = background
    }

    static func hsl(_ c: RGBA) -> (h: Double, s: Double, l: Double) { hsl(c.r, c.g, c.b) }

    static func hsl(_ r: Double, _ g: Double, _ b: Double) -> (h: Double, s: Double, l: Double) {
        let mx = max(r, g, b), mn = min(r, g, b), l = (mx + mn) / 2
        guard mx > mn else { return (0, 0, l) }
        let d = mx - mn
        let s = l > 0.5 ? d / (2 - mx - mn) : d / (mx + mn)
        var h: Double
        if mx == r {
            h = (g - b) / d + (g < b ? 6 : 0)
        } else if mx == g {
            h = (b - r) / d + 2
        } else {
            h = (r - g) / d + 4
        }
        h /= 6
        return (h, s, l)
    }

    static func hueDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b)
        return min(d, 1 - d)
    }

    static func hex(_ r: Double, _ g: Double, _ b: Double) -> String {
        func byte(_ v: Double) -> String {
            let s = String(Int((min(max(v, 0), 1) * 255).rounded()), radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(r) + byte(g) + byte(b)
    }
}
