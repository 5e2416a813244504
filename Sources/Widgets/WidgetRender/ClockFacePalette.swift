import WidgetDesign

/// Every colour of the clock template in one place, resolved from a design's `clockConfig` and
/// the appearance (the seed app's `WidgetWeaverClockPalette` through its appearance resolver).
///
/// From the seed app (docs/rendering.md, "Clock faces"): the theme accents, the widget
/// backgrounds per theme and appearance, the Classic icon dial (#22364B / #2A4158), the red
/// second hand (#F53842), the Ceramic dial, bezel, baton, numeral, hand and hub colours, and
/// the Segmented face's fixed materials (olive blocks, matte ticks, yellow second hand). Our
/// choice (the seed keeps them in code we could not read): the icon dial colours of the six
/// other dial families and the seven other second-hand colours, each picked to sit with the
/// theme of the same name.
public struct ClockFacePalette: Sendable, Hashable {
    // Widget background (outside the face).
    public var accent: RGBA
    public var backgroundTop: RGBA
    public var backgroundBottom: RGBA
    /// Opacity of the radial accent tint over the background.
    public var accentTint: Double

    // Bezel: metal rim, matte ring, thin inner ring.
    public var bezelBright: RGBA
    public var bezelMid: RGBA
    public var bezelDark: RGBA
    public var bezelMatte: [RGBA]

    // Dial: the Ceramic and Segmented dial field (centre, mid, edge), the Icon dial (flat).
    public var dialCentre: RGBA
    public var dialMid: RGBA
    public var dialEdge: RGBA
    public var iconDial: RGBA
    public var secondHand: RGBA

    // Marks.
    public var minuteDot: RGBA
    public var majorTick: RGBA
    public var minorTick: RGBA
    public var batonBright: RGBA
    public var batonMid: RGBA
    public var batonDark: RGBA
    public var numeral: RGBA

    // Hands and hub.
    public var handLight: RGBA
    public var handMid: RGBA
    public var handDark: RGBA
    public var handShadow: RGBA
    public var hubBase: RGBA
    public var hubCapLight: RGBA
    public var hubCapDark: RGBA

    // Text beside the face (medium and large).
    public var ink: RGBA
    public var inkSecondary: RGBA

    /// The palette a design draws with: its theme, and on the Icon face its dial and second-hand
    /// colours (`effectiveDialColour`, `effectiveSecondHandColour`). The Ceramic second hand is
    /// the theme accent, as in the seed app.
    public static func resolve(_ config: ClockDesignConfig, appearance: Appearance) -> ClockFacePalette {
        let dark = appearance == .dark
        let theme = themeColours(config.theme)
        let accent = RGBA(hex: theme.accent)
        return ClockFacePalette(
            accent: accent, backgroundTop: RGBA(hex: dark ? theme.darkTop : theme.lightTop),
            backgroundBottom: RGBA(hex: dark ? theme.darkBottom : theme.lightBottom), accentTint: dark ? 0.22 : 0.12,
            bezelBright: RGBA(hex: 0xF6FAFF, alpha: 0.96), bezelMid: RGBA(hex: 0xB9C7DB, alpha: 0.92),
            bezelDark: RGBA(hex: 0x2C3442, alpha: 0.96),
            bezelMatte: [RGBA(hex: 0x0A0E14), RGBA(hex: 0x0B0F15), RGBA(hex: 0x05080C)],
            dialCentre: RGBA(hex: 0x101722), dialMid: RGBA(hex: 0x0E141E), dialEdge: RGBA(hex: 0x0B0F15),
            iconDial: iconDial(config.effectiveDialColour, dark: dark),
            secondHand: config.face == .ceramic ? accent : secondHand(config.effectiveSecondHandColour),
            minuteDot: RGBA(hex: 0xD0DBEE, alpha: 0.80), majorTick: RGBA(hex: 0xEEF5FF, alpha: 0.92),
            minorTick: RGBA(hex: 0xD0DBEE, alpha: 0.55),
            batonBright: RGBA(hex: 0xF2F6FB, alpha: 0.96), batonMid: RGBA(hex: 0xC3D0E2, alpha: 0.92),
            batonDark: RGBA(hex: 0x5E6E89, alpha: 0.96),
            numeral: RGBA(hex: 0xEEF5FF, alpha: 0.92),
            handLight: RGBA(hex: 0xF1F7FF, alpha: 0.94), handMid: RGBA(hex: 0xBCCADF, alpha: 0.92),
            handDark: RGBA(hex: 0x55657F, alpha: 0.95),
            handShadow: RGBA(0, 0, 0, dark ? 0.62 : 0.30),
            hubBase: RGBA(hex: 0x0C121B), hubCapLight: RGBA(hex: 0xF7FBFF, alpha: 0.96),
            hubCapDark: RGBA(hex: 0x5B6A82, alpha: 0.96),
            ink: dark ? RGBA(hex: 0xF1F7FF) : RGBA(hex: 0x141A22),
            inkSecondary: dark ? RGBA(hex: 0xF1F7FF, alpha: 0.7) : RGBA(hex: 0x141A22, alpha: 0.65))
    }

    /// A theme's colours in one row: its accent (the seed's high-contrast scheme accents) and the
    /// widget background, top-leading → bottom-trailing, in the dark and the light appearance.
    static func themeColours(
        _ theme: ClockThemeToken
    ) -> (accent: UInt32, darkTop: UInt32, darkBottom: UInt32, lightTop: UInt32, lightBottom: UInt32) {
        switch theme {
        case .classic: (0xFF9F0A, 0x141A22, 0x0B0F15, 0xECF1F8, 0xC7D2E5)
        case .ocean: (0x339CFF, 0x10263F, 0x070F19, 0xE8F3FF, 0xBFD9FF)
        case .mint: (0x34C759, 0x112A24, 0x060E0C, 0xE8FBF4, 0xBEEBDD)
        case .orchid: (0xAF52DE, 0x241A33, 0x0F0A16, 0xF2E9FF, 0xD9C2F4)
        case .sunset: (0xFF2D55, 0x2A1822, 0x120A0F, 0xFFE9F0, 0xF7C2D4)
        case .ember: (0xFF3B30, 0x2A1611, 0x120A07, 0xFFF0E8, 0xF5C8B7)
        case .graphite: (0x8E8E93, 0x1B1D22, 0x0D0E10, 0xF3F4F6, 0xD4D8E1)
        }
    }

    /// The Icon face's flat dial (Classic from the seed app; the others ours).
    static func iconDial(_ token: ClockIconDialColourToken, dark: Bool) -> RGBA {
        let (d, l): (UInt32, UInt32) =
            switch token {
            case .classic: (0x22364B, 0x2A4158)
            case .ocean: (0x143B63, 0x1B4A78)
            case .mint: (0x17463A, 0x1E5647)
            case .orchid: (0x372650, 0x453163)
            case .sunset: (0x4A2034, 0x5A2940)
            case .ember: (0x47251B, 0x582F23)
            case .graphite: (0x2C3038, 0x393E47)
            }
        return RGBA(hex: dark ? d : l)
    }

    /// The Icon face's second hand (red from the seed app; the others ours, after the theme accents).
    static func secondHand(_ token: ClockSecondHandColourToken) -> RGBA {
        switch token {
        case .red: RGBA(hex: 0xF53842)
        case .orange: RGBA(hex: 0xFF9F0A)
        case .ocean: RGBA(hex: 0x4AA8FF)
        case .mint: RGBA(hex: 0x3DDC84)
        case .orchid: RGBA(hex: 0xC77DFF)
        case .sunset: RGBA(hex: 0xFF4F7A)
        case .graphite: RGBA(hex: 0xA7ADB8)
        case .white: RGBA(hex: 0xF4F6FA)
        }
    }

    /// The Segmented face's fixed materials (the same in every theme, as in the seed app).
    static let segmentedBezel: [RGBA] = [RGBA(hex: 0x1E2228), RGBA(hex: 0x4A515C), RGBA(hex: 0x8A939F)]
    static let segmentedBed = RGBA(hex: 0x0C0F13)
    static let segmentedBlockEven: [RGBA] = [RGBA(hex: 0x6B6A2D), RGBA(hex: 0x4F4D1F), RGBA(hex: 0x343312)]
    static let segmentedBlockOdd: [RGBA] = [RGBA(hex: 0x67662A), RGBA(hex: 0x4A481C), RGBA(hex: 0x313010)]
    static let segmentedNumeral = RGBA(hex: 0xE7EBF2, alpha: 0.92)
    static let segmentedTick = RGBA(hex: 0xE2E7EF)
    static let segmentedSecond: [RGBA] = [RGBA(hex: 0xE5D05A), RGBA(hex: 0xBCA429), RGBA(hex: 0x6B5A14)]
}
