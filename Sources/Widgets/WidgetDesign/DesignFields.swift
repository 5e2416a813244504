import FieldTable

/// Every field of a design, described once: the editor (`weaver designs set`), the tolerant
/// decoder's ranges and defaults, `weaver designs fields`, `GET /api/fields` and docs/designs.md
/// all read this table. Keys are the names `weaver designs set` takes first (`style.padding`,
/// `clock.theme`); `actions[].…` and `image.smartPhoto.…` fields are read from files only (the
/// per-size crops are set as `image.crop.FAMILY.x` and so on).
public enum DesignFields {
    /// The app's editor groups, in its order.
    public static let groups = [
        "Text", "Layout", "Style", "Symbol", "Image", "Actions", "Matched set", "Clock", "Weather", "Reminders",
    ]

    static func choice<T: DesignToken>(_ type: T.Type) -> [String] { T.allCases.map(\.rawValue) }

    // MARK: Text

    public static let name = FieldSpec(
        key: "name", kind: .text, group: "Text", label: "Name",
        help: "The design's name in lists and pickers; not empty.",
        default: .text("WidgetWeaver"), maxLength: 120)
    public static let primaryText = FieldSpec(
        key: "primaryText", aliases: ["primary", "text"], kind: .text, group: "Text",
        label: "Primary text", help: "The main line.",
        default: .text(""), maxLength: 2_000, template: true)
    public static let secondaryText = FieldSpec(
        key: "secondaryText", aliases: ["secondary"], kind: .text, group: "Text",
        label: "Secondary text", help: "The line below; empty removes it.",
        optional: true, maxLength: 2_000, template: true)
    public static let countdownTarget = FieldSpec(
        key: "countdown.target", aliases: ["countdown"], kind: .text, group: "Text",
        label: "Countdown target",
        help: "What {{__countdown}} counts to: \(CountdownTarget.allowed); empty removes it.",
        optional: true, maxLength: 160, template: true)
    public static let presetButtonPreset = FieldSpec(
        key: "presetButton.preset", aliases: ["preset"], kind: .text, group: "Text",
        label: "Preset",
        help: "The noise preset a Play Preset design's button plays: \(PresetButtonSpec.allowed); empty removes it.",
        optional: true, maxLength: 64)

    // MARK: Layout

    public static let template = FieldSpec(
        key: "layout.template", aliases: ["template"], kind: .choice, group: "Layout",
        label: "Template", help: "The layout the design is drawn with.",
        allowed: choice(LayoutTemplateToken.self), default: .text("classic"))
    public static let axis = FieldSpec(
        key: "layout.axis", aliases: ["axis"], kind: .choice, group: "Layout", label: "Axis",
        help: "How the classic layout stacks its parts.",
        allowed: choice(LayoutAxisToken.self), default: .text("vertical"))
    public static let alignment = FieldSpec(
        key: "layout.alignment", aliases: ["alignment"], kind: .choice, group: "Layout",
        label: "Alignment", help: "Where the texts sit across the widget.",
        allowed: choice(LayoutAlignmentToken.self), default: .text("leading"))
    public static let spacing = FieldSpec(
        key: "layout.spacing", aliases: ["spacing"], kind: .number, group: "Layout",
        label: "Spacing", help: "Space between the parts.",
        range: 0...32, step: 1, unit: "pt", default: .number(8))
    public static let showsAccentBar = FieldSpec(
        key: "layout.showsAccentBar", aliases: ["accentBar"], kind: .flag, group: "Layout",
        label: "Accent bar", help: "A bar in the accent colour beside the texts.",
        default: .flag(true))
    public static let posterOverlayMode = FieldSpec(
        key: "layout.posterOverlayMode", aliases: ["posterOverlay"], kind: .choice,
        group: "Layout", label: "Poster overlay",
        help: "How a poster's texts sit on its image.",
        allowed: choice(PosterOverlayMode.self), default: .text("caption"))
    public static let primaryLineLimitSmall = FieldSpec(
        key: "layout.primaryLineLimitSmall", kind: .integer, group: "Layout",
        label: "Primary lines (small)",
        help: "Most lines of primary text on a small widget.",
        range: 1...8, step: 1, default: .number(1))
    public static let primaryLineLimit = FieldSpec(
        key: "layout.primaryLineLimit", aliases: ["primaryLines"], kind: .integer,
        group: "Layout", label: "Primary lines",
        help: "Most lines of primary text on medium and large widgets.",
        range: 1...10, step: 1, default: .number(2))
    public static let secondaryLineLimitSmall = FieldSpec(
        key: "layout.secondaryLineLimitSmall", kind: .integer, group: "Layout",
        label: "Secondary lines (small)",
        help: "Most lines of secondary text on a small widget.",
        range: 1...8, step: 1, default: .number(1))
    public static let secondaryLineLimit = FieldSpec(
        key: "layout.secondaryLineLimit", aliases: ["secondaryLines"], kind: .integer,
        group: "Layout", label: "Secondary lines",
        help: "Most lines of secondary text on medium and large widgets.",
        range: 1...10, step: 1, default: .number(2))

    // MARK: Style

    public static let accent = FieldSpec(
        key: "style.accent", aliases: ["accent"], kind: .choice, group: "Style", label: "Accent",
        help: "The accent colour (bar, symbol tint, buttons).",
        allowed: choice(AccentToken.self), default: .text("blue"))
    public static let background = FieldSpec(
        key: "style.background", aliases: ["background"], kind: .choice, group: "Style",
        label: "Background", help: "The widget's background.",
        allowed: choice(BackgroundToken.self), default: .text("subtleMaterial"))
    public static let backgroundOverlay = FieldSpec(
        key: "style.backgroundOverlay", aliases: ["overlay"], kind: .choice,
        group: "Style", label: "Overlay",
        help: "A second background drawn over the first.",
        allowed: choice(BackgroundToken.self), default: .text("plain"))
    public static let backgroundOverlayOpacity = FieldSpec(
        key: "style.backgroundOverlayOpacity", aliases: ["overlayOpacity"],
        kind: .number, group: "Style", label: "Overlay opacity",
        help: "How strongly the overlay shows; 0 hides it.",
        range: 0...1, step: 0.05, default: .number(0))
    public static let backgroundGlow = FieldSpec(
        key: "style.backgroundGlowEnabled", aliases: ["glow"], kind: .flag, group: "Style",
        label: "Glow", help: "A soft accent-coloured glow in the background.",
        default: .flag(false))
    public static let padding = FieldSpec(
        key: "style.padding", aliases: ["padding"], kind: .number, group: "Style",
        label: "Padding", help: "Space between the widget's edge and its content.",
        range: 0...32, step: 1, unit: "pt", default: .number(16))
    public static let cornerRadius = FieldSpec(
        key: "style.cornerRadius", aliases: ["cornerRadius"], kind: .number, group: "Style",
        label: "Corner radius", help: "Roundness of the widget's corners.",
        range: 0...44, step: 1, unit: "pt", default: .number(20))
    public static let nameTextStyle = FieldSpec(
        key: "style.nameTextStyle", aliases: ["nameStyle"], kind: .choice, group: "Style",
        label: "Name style", help: "Text style of the name line.",
        allowed: choice(TextStyleToken.self), default: .text("caption"))
    public static let primaryTextStyle = FieldSpec(
        key: "style.primaryTextStyle", aliases: ["primaryStyle"], kind: .choice,
        group: "Style", label: "Primary style", help: "Text style of the primary text.",
        allowed: choice(TextStyleToken.self), default: .text("title3"))
    public static let secondaryTextStyle = FieldSpec(
        key: "style.secondaryTextStyle", aliases: ["secondaryStyle"], kind: .choice,
        group: "Style", label: "Secondary style",
        help: "Text style of the secondary text.",
        allowed: choice(TextStyleToken.self), default: .text("caption2"))
    public static let fontDesign = FieldSpec(
        key: "style.fontDesign", aliases: ["font", "fontDesign"], kind: .choice, group: "Style",
        label: "Font", help: "The typeface of every text: default, rounded, serif or monospaced.",
        allowed: choice(FontDesignToken.self), default: .text("default"))
    public static let styleSymbolSize = FieldSpec(
        key: "style.symbolSize", kind: .number, group: "Style", label: "Large symbol size",
        help: "Size of the symbol in templates that draw it large (hero, poster).",
        range: 8...96, step: 1, unit: "pt", default: .number(34))

    // MARK: Weather

    public static let weatherScale = FieldSpec(
        key: "style.weatherScale", aliases: ["weatherScale"], kind: .number, group: "Weather",
        label: "Weather scale",
        help: "Size of the Weather template's drawing; it draws 0.85…1.35 of it.",
        range: 0.6...1.4, step: 0.05, default: .number(1))

    // MARK: Clock

    public static let clockTheme = FieldSpec(
        key: "clock.theme", aliases: ["clockConfig.theme"], kind: .choice, group: "Clock",
        label: "Clock theme", help: "The clock's colour theme (Clock designs only).",
        allowed: choice(ClockThemeToken.self), default: .text("classic"))
    public static let clockFace = FieldSpec(
        key: "clock.face", aliases: ["clockConfig.face"], kind: .choice, group: "Clock",
        label: "Clock face",
        help: "icon (12 numerals, new clocks), ceramic (4 numerals), segmented.",
        allowed: choice(ClockFaceToken.self), default: .text("icon"))
    public static let clockDialColour = FieldSpec(
        key: "clock.dialColour",
        aliases: ["clock.dialColor", "clockConfig.iconDialColourToken"], kind: .choice,
        group: "Clock", label: "Dial colour",
        help: "The icon face's dial; none follows the theme.",
        allowed: choice(ClockIconDialColourToken.self), optional: true)
    public static let clockSecondHandColour = FieldSpec(
        key: "clock.secondHandColour",
        aliases: ["clock.secondHandColor", "clockConfig.iconSecondHandColourToken"],
        kind: .choice, group: "Clock", label: "Second hand",
        help: "The icon face's second hand; none is red. Each dial offers five.",
        allowed: choice(ClockSecondHandColourToken.self), optional: true)
    public static let clockFormat = FieldSpec(
        key: "clock.format", aliases: ["clockFormat"], kind: .choice, group: "Clock",
        label: "Time format",
        help: "How {{__time}} and clock texts are written (also 24h, 12h, 24h-seconds, 12h-seconds); none is 24h.",
        allowed: choice(ClockFormatToken.self), optional: true)

    // MARK: Reminders

    public static let remindersMode = FieldSpec(
        key: "reminders.mode", aliases: ["remindersConfig.mode"], kind: .choice,
        group: "Reminders", label: "Reminders mode",
        help:
            """
            Which reminders show: today (and overdue), overdue, soon (next 7 days), priority (1–4, todo.txt A–D), \
            focus (the most pressing one), list (all).
            """,
        allowed: choice(RemindersModeToken.self), default: .text("today"))
    public static let remindersPresentation = FieldSpec(
        key: "reminders.presentation", aliases: ["remindersConfig.presentation"],
        kind: .choice, group: "Reminders", label: "Reminders presentation",
        help: "dense rows, focus (the first large), or sectioned (Overdue, Today, Later, Done).",
        allowed: choice(RemindersPresentationToken.self), default: .text("dense"))
    public static let remindersLists = FieldSpec(
        key: "reminders.lists", aliases: ["remindersConfig.selectedListIDs"], kind: .text,
        group: "Reminders", label: "Lists",
        help:
            """
            Lists to show, comma-separated: list names (a calendar's name, a todo.txt +project) or source ids from \
            'weaver reminders list'; empty shows every list.
            """,
        default: .text(""), maxLength: RemindersConfig.maxLists * (RemindersConfig.maxListIDCharacters + 1))
    public static let remindersHideCompleted = FieldSpec(
        key: "reminders.hideCompleted", aliases: ["remindersConfig.hideCompleted"],
        kind: .flag, group: "Reminders", label: "Hide completed",
        help: "Leave done reminders out.", default: .flag(false))
    public static let remindersShowsDueTimes = FieldSpec(
        key: "reminders.showsDueTimes", aliases: ["remindersConfig.showsDueTimes"],
        kind: .flag, group: "Reminders", label: "Due times",
        help: "Show each row's due time (or day).", default: .flag(true))
    public static let remindersShowsProgressBadge = FieldSpec(
        key: "reminders.showsProgressBadge",
        aliases: ["remindersConfig.showsProgressBadge"], kind: .flag,
        group: "Reminders", label: "Progress badge",
        help: "Show done/total beside the title.", default: .flag(true))

    // MARK: Symbol

    public static let symbolName = FieldSpec(
        key: "symbol", aliases: ["symbol.name"], kind: .symbol, group: "Symbol",
        label: "Symbol", help: "An SF Symbols name (see docs/rendering.md); empty removes it.",
        optional: true, maxLength: 128)
    public static let symbolSize = FieldSpec(
        key: "symbol.size", kind: .number, group: "Symbol", label: "Symbol size",
        help: "Size of the symbol beside or above the name.",
        range: 8...96, step: 1, unit: "pt", default: .number(18))
    public static let symbolWeight = FieldSpec(
        key: "symbol.weight", kind: .choice, group: "Symbol", label: "Symbol weight",
        help: "Stroke weight of the symbol.",
        allowed: choice(SymbolWeightToken.self), default: .text("regular"))
    public static let symbolRenderingMode = FieldSpec(
        key: "symbol.renderingMode", aliases: ["symbol.rendering"], kind: .choice,
        group: "Symbol", label: "Symbol rendering", help: "How the symbol is coloured.",
        allowed: choice(SymbolRenderingModeToken.self), default: .text("monochrome"))
    public static let symbolTint = FieldSpec(
        key: "symbol.tint", kind: .choice, group: "Symbol", label: "Symbol tint",
        help: "The symbol's colour.",
        allowed: choice(SymbolTintToken.self), default: .text("accent"))
    public static let symbolPlacement = FieldSpec(
        key: "symbol.placement", kind: .choice, group: "Symbol", label: "Symbol placement",
        help: "Before the name or above it.",
        allowed: choice(SymbolPlacementToken.self), default: .text("beforeName"))

    // MARK: Image

    public static let imageFileName = FieldSpec(
        key: "image", aliases: ["image.fileName"], kind: .image, group: "Image",
        label: "Image",
        help:
            """
            A PNG or JPEG: a path (copied into the store's images/ folder) or a file name already there; empty \
            removes it.
            """,
        optional: true, maxLength: ImageSanitiser.maxFileNameCharacters)
    public static let imageContentMode = FieldSpec(
        key: "image.contentMode", aliases: ["image.mode"], kind: .choice, group: "Image",
        label: "Image fit", help: "fill crops to the frame, fit shows all of it.",
        allowed: choice(ImageContentModeToken.self), default: .text("fill"))
    public static let imageHeight = FieldSpec(
        key: "image.height", kind: .number, group: "Image", label: "Image height",
        help: "Height of the image in layouts that stack it.",
        range: 0...512, step: 1, unit: "pt", default: .number(120))
    public static let imageCornerRadius = FieldSpec(
        key: "image.cornerRadius", kind: .number, group: "Image",
        label: "Image corner radius", help: "Roundness of the image's corners.",
        range: 0...128, step: 1, unit: "pt", default: .number(16))
    public static let imageFilter = FieldSpec(
        key: "image.filter", aliases: ["filter"], kind: .choice, group: "Image",
        label: "Photo filter", help: "A photo filter; none removes it.",
        allowed: choice(PhotoFilterToken.self), default: .text("none"), optional: true)
    public static let imageFilterIntensity = FieldSpec(
        key: "image.filter.intensity", aliases: ["image.filterIntensity", "filterIntensity"],
        kind: .number, group: "Image", label: "Filter strength",
        help: "How strongly the filter applies; 0 removes the filter.",
        range: 0...1, step: 0.05, default: .number(1))
    public static let smartCrop = FieldSpec(
        key: "image.smartPhoto.variants[].cropRect", kind: .number, group: "Image",
        label: "Smart Photo crop",
        help: "A Smart Photo render's crop: x, y, width and height as fractions of the image (read from files).",
        range: 0...1, step: 0.0001, default: .number(0))
    public static let smartPixelSize = FieldSpec(
        key: "image.smartPhoto.variants[].pixelSize", kind: .integer, group: "Image",
        label: "Smart Photo render size",
        help: "A Smart Photo render's width and height in pixels (read from files).",
        range: 1...100_000, step: 1, unit: "px", default: .number(1))
    public static let smartStraighten = FieldSpec(
        key: "image.smartPhoto.variants[].straightenDegrees", kind: .number, group: "Image",
        label: "Smart Photo straightening",
        help: "A Smart Photo render's straightening (read from files).",
        range: -360...360, step: 0.1, unit: "°", optional: true)
    public static let smartQuarterTurns = FieldSpec(
        key: "image.smartPhoto.variants[].rotationQuarterTurns", kind: .integer, group: "Image",
        label: "Smart Photo quarter turns",
        help: "A Smart Photo render's quarter turns, read modulo 4 (read from files).",
        range: -1_000...1_000, step: 1, optional: true)
    public static let smartAlgorithmVersion = FieldSpec(
        key: "image.smartPhoto.algorithmVersion", kind: .integer, group: "Image",
        label: "Smart Photo algorithm",
        help: "The version of the app's Smart Photo preparation (read from files).",
        range: 0...1_000_000, step: 1, default: .number(0))

    // MARK: Smart Photo crops (the editor's crop rectangle per size)

    /// The crop of the photo drawn at `family`, one field per side: x and y of its top-left corner,
    /// width and height, as fractions of the photo (the JSON's `image.smartPhoto.FAMILY.cropRect`).
    static func crop(_ family: DesignSizeFamily, _ part: String) -> FieldSpec {
        let size = family.rawValue.prefix(1).uppercased() + family.rawValue.dropFirst()
        let what =
            switch part {
            case "x": "left edge"
            case "y": "top edge"
            case "width": "width"
            default: "height"
            }
        return FieldSpec(
            key: "image.crop.\(family.rawValue).\(part)",
            aliases: ["image.smartPhoto.\(family.rawValue).cropRect.\(part)"], kind: .number, group: "Image",
            label: "\(size) crop \(part)",
            help: "The \(what) of the \(family.rawValue) size's crop, as a fraction of the photo.",
            range: smartCrop.numberRange, step: 0.001, optional: true)
    }
    public static let cropFields: [FieldSpec] = DesignSizeFamily.allCases.flatMap { family in
        ["x", "y", "width", "height"].map { crop(family, $0) }
    }

    // MARK: Matched set (Pro)

    /// A size's own texts, symbol, image and layout (the seed's `matchedSet`; drawn only with Pro,
    /// the style stays shared).
    static func variant(_ family: DesignSizeFamily) -> [FieldSpec] {
        let f = family.rawValue
        let size = f.prefix(1).uppercased() + f.dropFirst()
        return [
            FieldSpec(
                key: "matchedSet.\(f)", kind: .flag, group: "Matched set", label: "Own \(f) design",
                help:
                    """
                    The \(f) size draws its own texts, symbol, image and layout (made from the design's); off \
                    removes them.
                    """,
                default: .flag(false), pro: true),
            FieldSpec(
                key: "matchedSet.\(f).primaryText", kind: .text, group: "Matched set", label: "\(size) primary text",
                help: "The main line at \(f) size.", default: .text(""), pro: true, maxLength: 2_000, template: true),
            FieldSpec(
                key: "matchedSet.\(f).secondaryText", kind: .text, group: "Matched set",
                label: "\(size) secondary text", help: "The line below at \(f) size; empty removes it.",
                optional: true, pro: true, maxLength: 2_000, template: true),
            FieldSpec(
                key: "matchedSet.\(f).symbol", kind: .symbol, group: "Matched set", label: "\(size) symbol",
                help: "The symbol at \(f) size (an SF Symbols name); empty removes it.",
                optional: true, pro: true, maxLength: 128),
            FieldSpec(
                key: "matchedSet.\(f).image", kind: .image, group: "Matched set", label: "\(size) image",
                help: "The picture at \(f) size: a file name in the store's images/ folder; empty removes it.",
                optional: true, pro: true, maxLength: ImageSanitiser.maxFileNameCharacters),
            FieldSpec(
                key: "matchedSet.\(f).layout.template", kind: .choice, group: "Matched set",
                label: "\(size) template", help: "The layout the \(f) size is drawn with.",
                allowed: choice(LayoutTemplateToken.self), default: .text("classic"), pro: true),
        ]
    }
    public static let matchedSetFields: [FieldSpec] = DesignSizeFamily.allCases.flatMap { variant($0) }

    // MARK: Actions (Pro)

    public static let action1 = FieldSpec(
        key: "action.1", aliases: ["action1"], kind: .text, group: "Actions", label: "Button 1",
        help: "The first button: \(actionSyntax); empty removes it.",
        optional: true, pro: true, maxLength: actionTextLength)
    public static let action2 = FieldSpec(
        key: "action.2", aliases: ["action2"], kind: .text, group: "Actions", label: "Button 2",
        help: "The second button (after button 1), same syntax; empty removes it.",
        optional: true, pro: true, maxLength: actionTextLength)
    public static let actionBarStyle = FieldSpec(
        key: "actionBar.style", kind: .choice, group: "Actions", label: "Button style",
        help: "How the buttons are drawn.",
        allowed: choice(WidgetActionButtonStyleToken.self), default: .text("prominent"), pro: true)
    public static let actionKind = FieldSpec(
        key: "actions[].kind", kind: .choice, group: "Actions", label: "Button kind",
        help: "What a button does.",
        allowed: choice(WidgetActionKindToken.self), default: .text("incrementVariable"), pro: true)
    public static let actionTitle = FieldSpec(
        key: "actions[].title", kind: .text, group: "Actions", label: "Button title",
        help: "The button's title; empty gives one from its kind.",
        default: .text(""), pro: true, maxLength: 24)
    public static let actionVariableKey = FieldSpec(
        key: "actions[].variableKey", kind: .text, group: "Actions",
        label: "Button variable", help: "The variable the button changes (not for open).",
        default: .text(""), pro: true, maxLength: 128)
    public static let actionIncrementAmount = FieldSpec(
        key: "actions[].incrementAmount", kind: .integer, group: "Actions",
        label: "Increment", help: "What an increment button adds; not 0.",
        range: -99...99, step: 1, default: .number(1), pro: true)
    public static let actionNowFormat = FieldSpec(
        key: "actions[].nowFormat", kind: .choice, group: "Actions", label: "Time format",
        help: "How a now button writes the time (also iso, unix, unixms, date, time).",
        allowed: choice(WidgetNowFormatToken.self), default: .text("iso8601"), pro: true)
    public static let actionResetValue = FieldSpec(
        key: "actions[].resetValue", kind: .text, group: "Actions", label: "Reset value",
        help: "What a reset button sets the variable to.",
        default: .text("0"), pro: true, maxLength: 256)
    public static let actionURL = FieldSpec(
        key: "actions[].url", kind: .text, group: "Actions", label: "Link",
        help: "What an open button opens: http(s) with a host, or weaver: (UTF-8 bytes).",
        pro: true, maxLength: 2_048)

    /// `open:` + a title + `:` + the longest link is the longest button text (2 078); a little more.
    static let actionTextLength = 2_100

    /// The action syntaxes of `action.N`, for help and errors.
    public static let actionSyntax =
        """
        increment:KEY[:AMOUNT[:TITLE]] | now:KEY[:FORMAT[:TITLE]] | reset:KEY[:VALUE[:TITLE]] | open:[TITLE:]URL | \
        empty
        """

    // MARK: The table

    /// Every design field, in the editor's order (what `weaver designs set` takes first, then what
    /// only files carry).
    public static let table = FieldTable(
        groups: groups,
        fields: [
            name, primaryText, secondaryText,
            template, axis, alignment, spacing, showsAccentBar, posterOverlayMode,
            primaryLineLimitSmall, primaryLineLimit, secondaryLineLimitSmall, secondaryLineLimit,
            accent, background, backgroundOverlay, backgroundOverlayOpacity, backgroundGlow, padding, cornerRadius,
            fontDesign, nameTextStyle, primaryTextStyle, secondaryTextStyle, styleSymbolSize, weatherScale,
            clockTheme, clockFace, clockDialColour, clockSecondHandColour, clockFormat,
            remindersMode, remindersPresentation, remindersLists, remindersHideCompleted, remindersShowsDueTimes,
            remindersShowsProgressBadge,
            countdownTarget, presetButtonPreset,
            symbolName, symbolSize, symbolWeight, symbolRenderingMode, symbolTint, symbolPlacement,
            imageFileName, imageContentMode, imageHeight, imageCornerRadius, imageFilter, imageFilterIntensity,
        ] + cropFields + [
            action1, action2, actionBarStyle,
            actionKind, actionTitle, actionVariableKey, actionIncrementAmount, actionNowFormat, actionResetValue,
            actionURL,
        ] + matchedSetFields + [
            smartCrop, smartPixelSize, smartStraighten, smartQuarterTurns, smartAlgorithmVersion,
        ])
}
