/// A widget size, in points (a 6.7-inch phone's sizes: iPhone 430×932 class screens).
public enum WidgetFamily: String, CaseIterable, Codable, Sendable {
    case small, medium, large, circular, rectangular, inline

    /// WidgetKit's name for the family (`systemSmall`, `accessoryCircular`, …).
    public var widgetKitName: String {
        switch self {
        case .small: "systemSmall"
        case .medium: "systemMedium"
        case .large: "systemLarge"
        case .circular: "accessoryCircular"
        case .rectangular: "accessoryRectangular"
        case .inline: "accessoryInline"
        }
    }

    public var sizePoints: (width: Double, height: Double) {
        switch self {
        case .small: (170, 170)
        case .medium: (364, 170)
        case .large: (364, 382)
        case .circular: (76, 76)
        case .rectangular: (172, 76)
        case .inline: (257, 26)
        }
    }

    /// Lock-screen families: monochrome, no background.
    public var isAccessory: Bool { self == .circular || self == .rectangular || self == .inline }

    /// Accepts `small` and `systemSmall` spellings.
    public static func parse(_ text: String) -> WidgetFamily? {
        let t = text.lowercased()
        return allCases.first { $0.rawValue == t || $0.widgetKitName.lowercased() == t }
    }
}
