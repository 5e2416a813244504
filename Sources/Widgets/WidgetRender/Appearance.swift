import WidgetDesign

/// Light or dark: changes the system background, text colours and accent shades, as on iOS.
public enum Appearance: String, CaseIterable, Codable, Sendable {
    case light, dark
}

/// Every colour the renderer uses, in one place (Apple's published system colours for the
/// tokens; see docs/rendering.md).
public struct Palette: Sendable {
    public let appearance: Appearance
    public init(_ appearance: Appearance) { self.appearance = appearance }

    var isDark: Bool { appearance == .dark }

    public func accent(_ token: AccentToken) -> RGBA {
        let (light, dark): (UInt32, UInt32) =
            switch token {
            case .blue: (0x007AFF, 0x0A84FF)
            case .purple: (0xAF52DE, 0xBF5AF2)
            case .pink: (0xFF2D55, 0xFF375F)
            case .orange: (0xFF9500, 0xFF9F0A)
            case .green: (0x34C759, 0x30D158)
            case .teal: (0x30B0C7, 0x40C8E0)
            case .red: (0xFF3B30, 0xFF453A)
            case .yellow: (0xFFCC00, 0xFFD60A)
            case .gray: (0x8E8E93, 0x8E8E93)
            case .indigo: (0x5856D6, 0x5E5CE6)
            }
        return RGBA(hex: isDark ? dark : light)
    }

    var mint: RGBA { RGBA(hex: isDark ? 0x63E6E2 : 0x00C7BE) }
    /// The app's own accent (`AccentColor` asset): steps rings, the Noise Machine's buttons.
    public var appAccent: RGBA { RGBA(hex: isDark ? 0xFF9E40 : 0xFF7D17) }
    public var systemBackground: RGBA { isDark ? .black : .white }
    public var primary: RGBA { isDark ? .white : .black }
    public var secondary: RGBA { isDark ? RGBA(hex: 0xEBEBF5, alpha: 0.6) : RGBA(hex: 0x3C3C43, alpha: 0.6) }
    /// `.fill.tertiary`: the Noise Machine and steps containers.
    public var tertiaryFill: RGBA { isDark ? RGBA(hex: 0x767680, alpha: 0.24) : RGBA(hex: 0x767680, alpha: 0.12) }
    public var quaternaryFill: RGBA { isDark ? RGBA(hex: 0x767680, alpha: 0.18) : RGBA(hex: 0x747480, alpha: 0.08) }
    /// `.ultraThinMaterial` over the system background, as an opaque-ish grey.
    var material: RGBA { isDark ? RGBA(hex: 0x1C1C1E, alpha: 0.7) : RGBA(hex: 0xF2F2F7, alpha: 0.7) }
    /// A solid widget container under `.fill.tertiary` (what the home screen shows through it).
    var containerBase: RGBA { isDark ? RGBA(hex: 0x1C1C1E) : RGBA(hex: 0xF2F2F7) }

    /// A background token as a fill over the widget `bounds`; gradients run top-leading →
    /// bottom-trailing as in the seed app.
    public func background(_ token: BackgroundToken, accent a: RGBA, bounds: Rect) -> Paint {
        let start = Point(x: bounds.minX, y: bounds.minY)
        let end = Point(x: bounds.maxX, y: bounds.maxY)
        func linear(_ stops: [GradientStop]) -> Paint { .linear(start: start, end: end, stops: stops) }
        switch token {
        case .plain: return .solid(systemBackground)
        case .accentGlow: return linear([GradientStop(0, a.opacity(0.35)), GradientStop(1, a.opacity(0))])
        case .radialGlow:
            return .radial(
                centre: start, radius: 320,
                stops: [
                    GradientStop(0, a.opacity(0.42)), GradientStop(0.5, a.opacity(0.12)), GradientStop(1, a.opacity(0)),
                ])
        case .solidAccent: return .solid(a.opacity(0.18))
        case .subtleMaterial: return .solid(material)
        case .aurora:
            return linear([
                GradientStop(0, a.opacity(0.45)), GradientStop(0.55, accent(.green).opacity(0.25)),
                GradientStop(1, accent(.blue).opacity(0.25)),
            ])
        case .sunset:
            return linear([
                GradientStop(0, accent(.orange).opacity(0.35)), GradientStop(0.5, accent(.pink).opacity(0.25)),
                GradientStop(1, accent(.purple).opacity(0.25)),
            ])
        case .midnight:
            return linear([
                GradientStop(0, RGBA.black.opacity(0.35)), GradientStop(0.6, accent(.blue).opacity(0.25)),
                GradientStop(1, accent(.purple).opacity(0.25)),
            ])
        case .candy:
            return linear([
                GradientStop(0, accent(.pink).opacity(0.35)), GradientStop(0.55, accent(.blue).opacity(0.25)),
                GradientStop(1, mint.opacity(0.25)),
            ])
        }
    }

    /// Multiplies every colour of a paint's alpha by `opacity` (the overlay's opacity).
    public static func scaled(_ paint: Paint, opacity: Double) -> Paint {
        switch paint {
        case .solid(let c): .solid(c.opacity(opacity))
        case .linear(let s, let e, let stops):
            .linear(start: s, end: e, stops: stops.map { GradientStop($0.offset, $0.colour.opacity(opacity)) })
        case .radial(let c, let r, let stops):
            .radial(centre: c, radius: r, stops: stops.map { GradientStop($0.offset, $0.colour.opacity(opacity)) })
        }
    }

    /// The lock screen draws accessory widgets in one vibrant tone.
    public var accessoryPrimary: RGBA { .white }
    public var accessorySecondary: RGBA { RGBA.white.opacity(0.62) }
    public var accessoryFill: RGBA { RGBA.white.opacity(0.16) }
}
