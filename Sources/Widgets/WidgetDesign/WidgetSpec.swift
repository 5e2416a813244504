import BoundedJSON
import Foundation

/// One widget design: the Linux counterpart of the seed app's `WidgetSpec`, with the same JSON
/// keys so `.wwdesign` files travel both ways.
///
/// Values held here are always within `FieldLimits`: the tolerant decoder and the editor clamp or
/// refuse anything else.
public struct WidgetSpec: Sendable, Hashable, Identifiable {
    /// The seed app's schema version (8 since `clockConfig`, `style.weatherScale`, `image.filter`);
    /// written on every design so the app reads our files as current.
    public static let currentVersion = 8

    public var version: Int
    public var id: UUID
    public var name: String
    public var primaryText: String
    public var secondaryText: String?
    public var updatedAt: Date
    public var symbol: SymbolSpec?
    public var image: ImageSpec?
    public var layout: LayoutSpec
    public var style: StyleSpec
    public var actionBar: ActionBarSpec?
    public var matchedSet: MatchedSet?
    /// The seed app's reminders configuration: not modelled here, carried through unchanged so a
    /// round trip through Linux does not lose it.
    public var remindersConfig: JSONValue?
    /// Face and palette of a Clock (Designer) design (`layout.template == .clockIcon`); nil on
    /// other templates, and on clock designs from before the seed app had it (those draw
    /// `ClockDesignConfig.legacyDefault`: see `effectiveClockConfig`).
    public var clockConfig: ClockDesignConfig?
    /// How digital times are written (our own key `clockFormat`); nil is 24-hour without seconds.
    public var clockFormat: ClockFormatToken?
    /// A Countdown design's target (our own key `countdown`); nil on other templates.
    public var countdown: CountdownSpec?
    /// A Play Preset design's preset (our own key `presetButton`); nil on other templates.
    public var presetButton: PresetButtonSpec?

    public init(
        version: Int = WidgetSpec.currentVersion, id: UUID = UUID(), name: String,
        primaryText: String, secondaryText: String? = nil, updatedAt: Date,
        symbol: SymbolSpec? = nil, image: ImageSpec? = nil, layout: LayoutSpec = LayoutSpec(),
        style: StyleSpec = StyleSpec(), actionBar: ActionBarSpec? = nil,
        matchedSet: MatchedSet? = nil, remindersConfig: JSONValue? = nil, clockConfig: ClockDesignConfig? = nil,
        clockFormat: ClockFormatToken? = nil, countdown: CountdownSpec? = nil,
        presetButton: PresetButtonSpec? = nil
    ) {
        self.version = version
        self.id = id
        self.name = name
        self.primaryText = primaryText
        self.secondaryText = secondaryText
        self.updatedAt = updatedAt
        self.symbol = symbol
        self.image = image
        self.layout = layout
        self.style = style
        self.actionBar = actionBar
        self.matchedSet = matchedSet
        self.remindersConfig = remindersConfig
        self.clockConfig = clockConfig
        self.clockFormat = clockFormat
        self.countdown = countdown
        self.presetButton = presetButton
    }

    /// The clock face and palette to draw: `clockConfig`, or the seed app's legacy default
    /// (Classic theme, Ceramic face) for a clock design saved before `clockConfig` existed.
    public var effectiveClockConfig: ClockDesignConfig { clockConfig ?? .legacyDefault }

    /// Every image file name this design references, sorted: the base image, Smart Photo master
    /// and per-size renders, and the same in each matched-set variant.
    public var referencedImageFileNames: [String] {
        var names = Set<String>()
        for img in [image] + (matchedSet?.variants.map(\.image) ?? []) {
            for f in img?.allFileNames ?? [] { names.insert(f) }
        }
        return names.sorted()
    }

    /// Rewrites image references (after an import renamed files), Smart Photo files included.
    public mutating func renameImages(_ map: [String: String]) {
        image?.renameFiles(map)
        if var m = matchedSet {
            for keyPath in [\MatchedSet.small, \MatchedSet.medium, \MatchedSet.large] {
                m[keyPath: keyPath]?.image?.renameFiles(map)
            }
            matchedSet = m
        }
    }

    /// Dates in the exchange format have whole-second precision; designs made here use the same,
    /// so export → import round trips compare equal.
    public static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

public struct SymbolSpec: Sendable, Hashable {
    public var name: String
    public var sizePoints: Double
    public var weight: SymbolWeightToken
    public var renderingMode: SymbolRenderingModeToken
    public var tint: SymbolTintToken
    public var placement: SymbolPlacementToken

    public init(
        name: String, sizePoints: Double = 18, weight: SymbolWeightToken = .regular,
        renderingMode: SymbolRenderingModeToken = .monochrome, tint: SymbolTintToken = .accent,
        placement: SymbolPlacementToken = .beforeName
    ) {
        self.name = name
        self.sizePoints = sizePoints
        self.weight = weight
        self.renderingMode = renderingMode
        self.tint = tint
        self.placement = placement
    }
}

public struct ImageSpec: Sendable, Hashable {
    /// A bare file name in the store's `images/` folder (never a path).
    public var fileName: String
    public var contentMode: ImageContentModeToken
    public var heightPoints: Double
    public var cornerRadiusPoints: Double
    /// Photo filter; nil draws the photo as it is.
    public var filter: PhotoFilterSpec?
    /// Auto-cropped per-size renders (their files are stored and exported with the design).
    public var smartPhoto: SmartPhotoSpec?

    public init(
        fileName: String, contentMode: ImageContentModeToken = .fill, heightPoints: Double = 120,
        cornerRadiusPoints: Double = 16, filter: PhotoFilterSpec? = nil, smartPhoto: SmartPhotoSpec? = nil
    ) {
        self.fileName = fileName
        self.contentMode = contentMode
        self.heightPoints = heightPoints
        self.cornerRadiusPoints = cornerRadiusPoints
        self.filter = filter
        self.smartPhoto = smartPhoto
    }

    mutating func renameFiles(_ map: [String: String]) {
        if let n = map[fileName] { fileName = n }
        smartPhoto?.renameFiles(map)
    }
}

public struct LayoutSpec: Sendable, Hashable {
    public var template: LayoutTemplateToken = .classic
    public var posterOverlayMode: PosterOverlayMode = .caption
    public var showsAccentBar = true
    public var axis: LayoutAxisToken = .vertical
    public var alignment: LayoutAlignmentToken = .leading
    public var spacingPoints: Double = 8
    public var primaryLineLimitSmall = 1
    public var primaryLineLimit = 2
    public var secondaryLineLimitSmall = 1
    public var secondaryLineLimit = 2

    public init() {}
    public init(template: LayoutTemplateToken) { self.template = template }
}

public struct StyleSpec: Sendable, Hashable {
    public var paddingPoints: Double = 16
    public var cornerRadiusPoints: Double = 20
    public var background: BackgroundToken = .subtleMaterial
    public var backgroundOverlay: BackgroundToken = .plain
    public var backgroundOverlayOpacity: Double = 0
    public var backgroundGlowEnabled = false
    public var accent: AccentToken = .blue
    /// The typeface of every text the design draws (`FontSystem.textFamilies(for:)`).
    public var fontDesign: FontDesignToken = .default
    public var nameTextStyle: TextStyleToken = .caption
    public var primaryTextStyle: TextStyleToken = .title3
    public var secondaryTextStyle: TextStyleToken = .caption2
    public var symbolSizePoints: Double = 34
    /// Size multiplier of the Weather template's text, padding and chart, within
    /// `FieldLimits.weatherScale` (0.6…1.4), default 1. The seed app stores this range but draws
    /// with it clamped to 0.85…1.35: `weatherRenderScale`.
    public var weatherScale: Double = 1

    public init() {}

    /// `weatherScale` as the Weather template applies it (clamped to 0.85…1.35, as in the seed app).
    public var weatherRenderScale: Double { min(max(weatherScale, 0.85), 1.35) }
}

public struct ActionSpec: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var title: String
    public var systemImage: String?
    public var kind: WidgetActionKindToken
    public var variableKey: String
    /// Used when `kind == .incrementVariable`; −99…99, never 0.
    public var incrementAmount: Int
    /// Used when `kind == .setVariableToNow`.
    public var nowFormat: WidgetNowFormatToken
    /// Used when `kind == .resetVariable` (our own key `resetValue`): the value set, "0" by default.
    public var resetValue: String
    /// Used when `kind == .openURL` (our own key `url`): a link `OpenURLPolicy` accepts.
    public var url: String?

    public init(
        id: UUID = UUID(), title: String, systemImage: String? = nil, kind: WidgetActionKindToken,
        variableKey: String, incrementAmount: Int = 1, nowFormat: WidgetNowFormatToken = .iso8601,
        resetValue: String = "0", url: String? = nil
    ) {
        self.id = id
        self.title = title
        self.systemImage = systemImage
        self.kind = kind
        self.variableKey = variableKey
        self.incrementAmount = incrementAmount
        self.nowFormat = nowFormat
        self.resetValue = resetValue
        self.url = url
    }
}

extension ActionSpec {
    /// What a button with a blank title says: the seed app's "+1" and "Done", and ours.
    public static func untitled(_ kind: WidgetActionKindToken) -> String {
        switch kind {
        case .incrementVariable: "+1"
        case .setVariableToNow: "Done"
        case .resetVariable: "Reset"
        case .openURL: "Open"
        }
    }
}

public struct ActionBarSpec: Sendable, Hashable {
    /// At most `FieldLimits.maxActions`.
    public var actions: [ActionSpec]
    public var style: WidgetActionButtonStyleToken

    public init(actions: [ActionSpec], style: WidgetActionButtonStyleToken = .prominent) {
        self.actions = actions
        self.style = style
    }
}

/// A per-size override (the seed app's `WidgetSpecVariant`).
public struct SpecVariant: Sendable, Hashable {
    public var primaryText: String
    public var secondaryText: String?
    public var symbol: SymbolSpec?
    public var image: ImageSpec?
    public var layout: LayoutSpec

    public init(
        primaryText: String, secondaryText: String? = nil, symbol: SymbolSpec? = nil,
        image: ImageSpec? = nil, layout: LayoutSpec = LayoutSpec()
    ) {
        self.primaryText = primaryText
        self.secondaryText = secondaryText
        self.symbol = symbol
        self.image = image
        self.layout = layout
    }
}

public struct MatchedSet: Sendable, Hashable {
    public var small: SpecVariant?
    public var medium: SpecVariant?
    public var large: SpecVariant?

    public init(small: SpecVariant? = nil, medium: SpecVariant? = nil, large: SpecVariant? = nil) {
        self.small = small
        self.medium = medium
        self.large = large
    }

    public var variants: [SpecVariant] { [small, medium, large].compactMap { $0 } }
    public var isEmpty: Bool { small == nil && medium == nil && large == nil }
}
