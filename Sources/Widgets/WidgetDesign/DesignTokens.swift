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
    /// Ours (the seed app has none): a month grid, a countdown, a four-day forecast, a one-tap
    /// button that plays a noise preset.
    case month, countdown, forecast, presetButton

    public static var aliases: [String: LayoutTemplateToken] {
        [
            "nextup": .nextUpCalendar, "next-up": .nextUpCalendar, "calendar": .nextUpCalendar,
            "clock": .clockIcon, "noise": .noiseMachine, "noise-machine": .noiseMachine,
            "timer": .countdown, "calendar-month": .month, "play-preset": .presetButton,
            "preset-button": .presetButton, "preset": .presetButton,
        ]
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
        case .month: "Month"
        case .countdown: "Countdown"
        case .forecast: "Forecast"
        case .presetButton: "Play Preset"
        }
    }

    /// Templates whose content comes from a data source (weather, calendar, reminders, clock,
    /// the noise machine), so an empty primary text is legitimate.
    public var ignoresPrimaryText: Bool {
        switch self {
        case .weather, .nextUpCalendar, .reminders, .clockIcon, .noiseMachine, .month, .countdown, .forecast,
            .presetButton:
            true
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
        [
            "center": .centre, "top-leading": .topLeading, "top_leading": .topLeading,
            "top-trailing": .topTrailing, "top_trailing": .topTrailing, "topcentre": .top, "topcenter": .top,
        ]
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

/// The typeface of a design's texts, as SwiftUI's `Font.Design` names it (`.fontDesign(.rounded)`):
/// our own key `style.fontDesign` (the seed app has no such field and ignores the member).
public enum FontDesignToken: String, DesignToken {
    case `default`, rounded, serif, monospaced
    public static var aliases: [String: FontDesignToken] { ["mono": .monospaced, "monospace": .monospaced] }
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
    /// Ours (the seed app's count widget has a reset button, its action bar no such kind): set a
    /// variable to the action's `resetValue`.
    case resetVariable
    /// Ours: open the action's `url` (http, https or `weaver:` only; see `OpenURLPolicy`).
    case openURL
}

/// How digital times are written (`clock.format`, our own key `clockFormat`): 24- or 12-hour,
/// with or without seconds. Applies to `{{__time}}` in any template and to the clock texts.
public enum ClockFormatToken: String, DesignToken {
    case h24, h12, h24Seconds, h12Seconds

    public static var aliases: [String: ClockFormatToken] {
        [
            "24h": .h24, "24": .h24, "12h": .h12, "12": .h12, "24h-seconds": .h24Seconds, "24hs": .h24Seconds,
            "12h-seconds": .h12Seconds, "12hs": .h12Seconds, "24h+seconds": .h24Seconds, "12h+seconds": .h12Seconds,
        ]
    }

    public var showsSeconds: Bool { self == .h24Seconds || self == .h12Seconds }
    public var isTwelveHour: Bool { self == .h12 || self == .h12Seconds }
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
