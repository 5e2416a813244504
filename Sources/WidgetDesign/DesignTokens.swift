/// A closed set of string tokens stored in design JSON. Decoding an unknown raw value never fails
/// the whole design: the field falls back to `fallback` and a `Finding` records it.
public protocol DesignToken: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == String {
    /// Spellings accepted on input besides the raw values (older seed-app files use some of them).
    static var aliases: [String: Self] { get }
}

extension DesignToken {
    public static var aliases: [String: Self] { [:] }

    /// Parses a raw value or an alias; case-sensitive for raw values (they are camelCase
    /// identifiers in the seed format), case-insensitive for aliases.
    public static func parse(_ raw: String) -> Self? {
        if let v = Self(rawValue: raw) { return v }
        if let v = aliases[raw.lowercased()] { return v }
        return allCases.first { $0.rawValue.lowercased() == raw.lowercased() }
    }

    public static var allowedList: String { allCases.map(\.rawValue).joined(separator: "|") }
}

public enum LayoutTemplateToken: String, DesignToken {
    case classic, hero, poster, weather, nextUpCalendar, reminders, clockIcon, noiseMachine

    public static var aliases: [String: LayoutTemplateToken] {
        ["nextup": .nextUpCalendar, "next-up": .nextUpCalendar, "calendar": .nextUpCalendar,
         "clock": .clockIcon, "noise": .noiseMachine, "noise-machine": .noiseMachine]
    }

    public var displayName: String {
        switch self {
        case .classic: "Classic"
        case .hero: "Hero"
        case .poster: "Poster"
        case .weather: "Weather"
        case .nextUpCalendar: "Next Up (Calendar)"
        case .reminders: "Reminders"
        case .clockIcon: "Clock (Designer)"
        case .noiseMachine: "Noise Machine"
        }
    }

    /// Templates whose content comes from a data source (weather, calendar, reminders, clock,
    /// the noise machine), so an empty primary text is legitimate.
    public var ignoresPrimaryText: Bool {
        switch self {
        case .weather, .nextUpCalendar, .reminders, .clockIcon, .noiseMachine: true
        case .classic, .hero, .poster: false
        }
    }
}

public enum LayoutAxisToken: String, DesignToken {
    case vertical, horizontal
}

public enum LayoutAlignmentToken: String, DesignToken {
    case leading, centre, trailing
    /// Poster-only: anchors the caption at the top.
    case topLeading, top, topTrailing

    public static var aliases: [String: LayoutAlignmentToken] {
        ["center": .centre, "top-leading": .topLeading, "top_leading": .topLeading,
         "top-trailing": .topTrailing, "top_trailing": .topTrailing, "topcentre": .top, "topcenter": .top]
    }

    public var isTopAnchored: Bool { self == .topLeading || self == .top || self == .topTrailing }
}

public enum PosterOverlayMode: String, DesignToken {
    case caption, none
}

public enum BackgroundToken: String, DesignToken {
    case plain, accentGlow, radialGlow, solidAccent, subtleMaterial, aurora, sunset, midnight, candy
}

public enum AccentToken: String, DesignToken {
    case blue, purple, pink, orange, green, teal, red, yellow, gray, indigo
    public static var aliases: [String: AccentToken] { ["grey": .gray] }
}

public enum TextStyleToken: String, DesignToken {
    case automatic, caption2, caption, footnote, subheadline, body, headline, title3, title2, title
}

public enum SymbolWeightToken: String, DesignToken {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
}

public enum SymbolRenderingModeToken: String, DesignToken {
    case monochrome, hierarchical, multicolor
}

public enum SymbolTintToken: String, DesignToken {
    case accent, primary, secondary
}

public enum SymbolPlacementToken: String, DesignToken {
    case aboveName, beforeName
}

public enum ImageContentModeToken: String, DesignToken {
    case fill, fit
}

public enum WidgetActionKindToken: String, DesignToken {
    case incrementVariable, setVariableToNow
}

public enum WidgetActionButtonStyleToken: String, DesignToken {
    case prominent, subtle
}

public enum WidgetNowFormatToken: String, DesignToken {
    case iso8601, unixSeconds, unixMilliseconds, dateOnly, timeOnly

    /// The names `weaver vars set-now --format` takes, so a button is written as the command is
    /// (`now:fed:time`); the seed's names stay the stored ones and are still read.
    public static var aliases: [String: WidgetNowFormatToken] {
        ["iso": .iso8601, "unix": .unixSeconds, "unixms": .unixMilliseconds, "date": .dateOnly, "time": .timeOnly]
    }
}
