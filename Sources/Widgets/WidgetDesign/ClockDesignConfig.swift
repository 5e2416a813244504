import Foundation

/// Clock colour scheme (the seed app's `WidgetWeaverClockDesignConfig.theme`). Raw values are
/// the JSON values.
public enum ClockThemeToken: String, DesignToken {
    case classic, ocean, mint, orchid, sunset, ember, graphite
}

/// Clock face. `icon` (12 numerals) is the default for new designs; `ceramic` (4 numerals) is
/// what the seed app shows for an older design whose `clockConfig` has no `face`; `segmented`
/// is the Quick clock's face.
public enum ClockFaceToken: String, DesignToken {
    case ceramic, icon, segmented
}

/// Dial fill override for the Icon face (`iconDialColourToken`); nil follows the theme.
public enum ClockIconDialColourToken: String, DesignToken {
    case classic, ocean, mint, orchid, sunset, ember, graphite

    /// The seed app's curated second-hand colours for this dial, and the one it picks when the
    /// stored colour is not among them.
    public var secondHandCompatibility:
        (allowed: Set<ClockSecondHandColourToken>, recommended: ClockSecondHandColourToken)
    {
        switch self {
        case .classic: ([.red, .orange, .ocean, .graphite, .white], .red)
        case .ocean: ([.red, .ocean, .orange, .graphite, .white], .ocean)
        case .mint: ([.red, .mint, .orange, .graphite, .white], .mint)
        case .orchid: ([.red, .orchid, .sunset, .graphite, .white], .orchid)
        case .sunset: ([.red, .sunset, .orchid, .graphite, .white], .sunset)
        case .ember: ([.red, .orange, .sunset, .graphite, .white], .orange)
        case .graphite: ([.red, .graphite, .orange, .ocean, .white], .graphite)
        }
    }
}

/// Second-hand colour override for the Icon face (`iconSecondHandColourToken`); nil is red.
public enum ClockSecondHandColourToken: String, DesignToken {
    case red, orange, ocean, mint, orchid, sunset, graphite, white
}

/// The `clockConfig` of a Clock (Designer) design: face and palette. Every field has a typed
/// value; `effective…` give what the renderer draws when an override is absent.
public struct ClockDesignConfig: Sendable, Hashable {
    /// A new clock design is the Icon face in the Classic theme.
    public var theme: ClockThemeToken = .classic
    public var face: ClockFaceToken = .icon
    /// Icon face only; nil means "the dial colour of the theme".
    public var iconDialColour: ClockIconDialColourToken?
    /// Icon face only; nil means red (the seed app stores red as nil).
    public var iconSecondHandColour: ClockSecondHandColourToken?

    /// What a clock design without `clockConfig` shows (the seed app's legacy default).
    public static let legacyDefault = ClockDesignConfig(theme: .classic, face: .ceramic)

    /// The dial family: the override, else the theme's own dial colour.
    public var effectiveDialColour: ClockIconDialColourToken {
        iconDialColour ?? ClockIconDialColourToken(rawValue: theme.rawValue) ?? .classic
    }

    public var effectiveSecondHandColour: ClockSecondHandColourToken { iconSecondHandColour ?? .red }

    /// The seed app's rules: on the Icon face a second-hand colour outside the dial's curated set
    /// becomes the recommended one, and red is stored as nil. Returns a description of the change,
    /// or nil when nothing changed.
    public mutating func normalise() -> String? {
        guard face == .icon else { return nil }
        let (allowed, recommended) = effectiveDialColour.secondHandCompatibility
        let current = effectiveSecondHandColour
        if !allowed.contains(current) {
            iconSecondHandColour = recommended == .red ? nil : recommended
            return "second hand \(current.rawValue) does not match the \(effectiveDialColour.rawValue) dial "
                + "(allowed: \(allowed.map(\.rawValue).sorted().joined(separator: "|"))); using \(recommended.rawValue)"
        }
        // Red is the default and stored as nil (no visible change, so no finding).
        if current == .red { iconSecondHandColour = nil }
        return nil
    }
}
