import SharedStore
import Foundation

/// The Editor as `FIELD=VALUE` assignments (`weaver designs set`). Unlike decoding, editing is
/// strict: an unknown field, token or out-of-range value is refused with the allowed values, and
/// nothing is saved.
public enum DesignEditor {
    public struct Field: Sendable {
        public let names: [String]
        public let allowed: String
        let apply: @Sendable (inout WidgetSpec, String) throws -> Void
    }

    /// Applies assignments in order; throws before any change is kept when one is invalid.
    public static func apply(_ assignments: [String], to spec: inout WidgetSpec) throws {
        var copy = spec
        for a in assignments {
            guard let eq = a.firstIndex(of: "=") else {
                throw DesignError("'\(a)' is not FIELD=VALUE; fields: " + fields.map { $0.names[0] }.joined(separator: ", "))
            }
            let key = String(a[..<eq]).trimmingCharacters(in: .whitespaces)
            let value = String(a[a.index(after: eq)...])
            guard let field = field(named: key) else {
                throw DesignError("unknown field '\(key)'; fields: " + fields.map { $0.names[0] }.joined(separator: ", "))
            }
            do {
                try field.apply(&copy, value)
            } catch let e as DesignError {
                throw DesignError("\(field.names[0]): \(e.message)")
            }
        }
        spec = copy
    }

    public static func field(named key: String) -> Field? {
        let k = key.lowercased()
        return fields.first { $0.names.contains { $0.lowercased() == k } }
    }

    static func token<T: DesignToken>(_ v: String) throws -> T {
        guard let t = T.parse(v.trimmingCharacters(in: .whitespaces)) else {
            throw DesignError("'\(v)' is not allowed; allowed: \(T.allowedList)")
        }
        return t
    }

    /// Optional token: empty or `none` removes the override.
    static func optionalToken<T: DesignToken>(_ v: String) throws -> T? {
        let t = v.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t.lowercased() == "none" || t.lowercased() == "default" { return nil }
        guard let token = T.parse(t) else { throw DesignError("'\(v)' is not allowed; allowed: \(T.allowedList), or none") }
        return token
    }

    static func rangeText(_ r: ClosedRange<Double>) -> String { "\(JSONValue.format(r.lowerBound))…\(JSONValue.format(r.upperBound))" }

    /// What was typed is quoted as typed; a number outside the range says so (it is a number).
    static func number(_ v: String, _ range: ClosedRange<Double>) throws -> Double {
        let t = v.trimmingCharacters(in: .whitespaces)
        guard let d = Double(t), d.isFinite else {
            throw DesignError("'\(v)' is not a number; allowed: a number in \(rangeText(range))")
        }
        guard range.contains(d) else {
            throw DesignError("'\(v)' is out of range; allowed: \(rangeText(range))")
        }
        return d
    }

    static func integer(_ v: String, _ range: ClosedRange<Int>) throws -> Int {
        let t = v.trimmingCharacters(in: .whitespaces)
        guard let i = Int(t) else {
            throw DesignError("'\(v)' is not a whole number; allowed: a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        guard range.contains(i) else {
            throw DesignError("'\(v)' is out of range; allowed: \(range.lowerBound)…\(range.upperBound)")
        }
        return i
    }

    /// `template=steps` and other catalogue starters that are not layout templates are refused
    /// with what they are, instead of a bare "not allowed".
    static func layoutTemplate(_ v: String) throws -> LayoutTemplateToken {
        let t = v.trimmingCharacters(in: .whitespaces)
        if let token = LayoutTemplateToken.parse(t) { return token }
        if let starter = TemplateCatalogue.find(t), let made = try? starter.design(now: Date(timeIntervalSince1970: 0)) {
            throw DesignError("'\(v)' is a catalogue starter (\(starter.name): \(starter.summary)), not a layout template; "
                + "it uses the \(made.layout.template.rawValue) layout with its own texts. Nothing was changed. "
                + "Add it as a new design with 'weaver templates add \(starter.id)', or set a layout template: \(LayoutTemplateToken.allowedList)")
        }
        throw DesignError("'\(v)' is not allowed; allowed: \(LayoutTemplateToken.allowedList)")
    }

    static func withClock(_ s: inout WidgetSpec, _ body: (inout ClockDesignConfig) throws -> Void) throws {
        guard s.layout.template == .clockIcon || s.clockConfig != nil else {
            throw DesignError("only Clock designs have a clock face; set 'template=clockIcon' first")
        }
        var c = s.clockConfig ?? ClockDesignConfig()
        try body(&c)
        if c.face == .icon {
            let (allowed, recommended) = c.effectiveDialColour.secondHandCompatibility
            if let hand = c.iconSecondHandColour, !allowed.contains(hand) {
                throw DesignError("the \(hand.rawValue) second hand is not offered with the \(c.effectiveDialColour.rawValue) dial; "
                    + "allowed: \(allowed.map(\.rawValue).sorted().joined(separator: "|")) (recommended: \(recommended.rawValue))")
            }
        }
        _ = c.normalise()
        s.clockConfig = c
    }

    static func withFilter(_ s: inout WidgetSpec, _ body: (inout PhotoFilterSpec) throws -> Void) throws {
        try withImage(&s) { img in
            var f = img.filter ?? PhotoFilterSpec(token: .none)
            try body(&f)
            img.filter = f.effective
        }
    }

    static func boolean(_ v: String) throws -> Bool {
        switch v.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw DesignError("'\(v)' is not true or false")
        }
    }

    static func text(_ v: String, max: Int) throws -> String {
        guard v.count <= max else { throw DesignError("longer than \(max) characters") }
        return v
    }

    static func withSymbol(_ s: inout WidgetSpec, _ body: (inout SymbolSpec) throws -> Void) throws {
        guard var sym = s.symbol else { throw DesignError("the design has no symbol; set 'symbol=NAME' first") }
        try body(&sym)
        s.symbol = sym
    }

    static func withImage(_ s: inout WidgetSpec, _ body: (inout ImageSpec) throws -> Void) throws {
        guard var img = s.image else { throw DesignError("the design has no image; set 'image=PATH' first") }
        try body(&img)
        s.image = img
    }

    /// A button's FORMAT as `weaver vars set-now --format` spells it; the seed's names
    /// (`timeOnly`…) are read too, as older designs and notes use them.
    static func nowFormat(_ v: String) throws -> WidgetNowFormatToken {
        guard let format = WidgetNowFormatToken.parse(v.trimmingCharacters(in: .whitespaces)) else {
            throw DesignError("'\(v)' is not a time format; allowed: iso|unix|unixms|date|time (as 'weaver vars set-now --format' takes them)")
        }
        return format
    }

    /// The action syntaxes, for help and errors.
    public static let actionSyntax = "increment:KEY[:AMOUNT[:TITLE]] | now:KEY[:FORMAT[:TITLE]] | reset:KEY[:VALUE[:TITLE]] | open:[TITLE:]URL | empty"

    /// `increment:KEY[:AMOUNT[:TITLE]]`, `now:KEY[:FORMAT[:TITLE]]`, `reset:KEY[:VALUE[:TITLE]]`,
    /// `open:[TITLE:]URL`, or empty to remove.
    static func action(_ v: String, slot: Int, in s: inout WidgetSpec) throws {
        var actions = s.actionBar?.actions ?? []
        if v.trimmingCharacters(in: .whitespaces).isEmpty {
            if slot < actions.count { actions.remove(at: slot) }
        } else if let open = try openAction(v) {
            var a = open
            if slot < actions.count {
                a.id = actions[slot].id
                actions[slot] = a
            } else {
                actions.append(a)
            }
        } else {
            let parts = v.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            let key = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard !key.isEmpty, key.count <= FieldLimits.maxVariableKeyCharacters else {
                throw DesignError("'\(v)' needs a variable key: \(actionSyntax)")
            }
            let title = parts.count > 3 ? try text(parts[3].trimmingCharacters(in: .whitespaces), max: FieldLimits.maxActionTitleCharacters) : ""
            var a: ActionSpec
            switch parts[0].lowercased() {
            case "increment", "incrementvariable":
                let amount = parts.count > 2 && !parts[2].isEmpty ? try integer(parts[2], FieldLimits.incrementAmount) : 1
                guard amount != 0 else { throw DesignError("an increment of 0 does nothing; use -99…99, not 0") }
                a = ActionSpec(title: title.isEmpty ? (amount > 0 ? "+\(amount)" : "\(amount)") : title,
                               kind: .incrementVariable, variableKey: key, incrementAmount: amount)
            case "now", "setvariabletonow":
                let format: WidgetNowFormatToken = parts.count > 2 && !parts[2].isEmpty ? try nowFormat(parts[2]) : .iso8601
                a = ActionSpec(title: title.isEmpty ? "Done" : title, kind: .setVariableToNow, variableKey: key, nowFormat: format)
            case "reset", "resetvariable":
                let value = parts.count > 2 && !parts[2].isEmpty ? parts[2].trimmingCharacters(in: .whitespaces) : "0"
                guard value.count <= FieldLimits.maxResetValueCharacters else {
                    throw DesignError("the reset value is longer than \(FieldLimits.maxResetValueCharacters) characters")
                }
                a = ActionSpec(title: title.isEmpty ? ActionSpec.untitled(.resetVariable) : title, kind: .resetVariable,
                               variableKey: key, resetValue: value)
            default:
                throw DesignError("'\(parts[0])' is not an action kind; use \(actionSyntax)")
            }
            if slot < actions.count {
                a.id = actions[slot].id
                actions[slot] = a
            } else {
                actions.append(a)
            }
        }
        s.actionBar = actions.isEmpty ? nil : ActionBarSpec(actions: actions, style: s.actionBar?.style ?? .prominent)
    }

    /// `open:URL` or `open:TITLE:URL` as an openURL action; nil when `v` is another kind. A title
    /// is told from the link by the link's scheme: `open:https://x` has none.
    static func openAction(_ v: String) throws -> ActionSpec? {
        let t = v.trimmingCharacters(in: .whitespaces)
        guard let colon = t.firstIndex(of: ":") else { return nil }
        let kind = t[..<colon].lowercased()
        guard kind == "open" || kind == "openurl" else { return nil }
        let rest = String(t[t.index(after: colon)...])
        var title = "", link = rest
        let lower = rest.lowercased()
        if !["http:", "https:", "weaver:"].contains(where: { lower.hasPrefix($0) }), let c = rest.firstIndex(of: ":") {
            let candidate = rest[rest.index(after: c)...].lowercased()
            if ["http:", "https:", "weaver:"].contains(where: { candidate.hasPrefix($0) }) {
                title = rest[..<c].trimmingCharacters(in: .whitespaces)
                link = String(rest[rest.index(after: c)...])
            }
        }
        let url = try OpenURLPolicy.check(link)
        return ActionSpec(title: try text(title.isEmpty ? ActionSpec.untitled(.openURL) : title, max: FieldLimits.maxActionTitleCharacters),
                          kind: .openURL, variableKey: "", url: url)
    }

    public static let fields: [Field] = [
        Field(names: ["name"], allowed: "text, 1…\(FieldLimits.maxNameCharacters) characters") { s, v in
            let t = v.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !t.isEmpty else { throw DesignError("a name cannot be empty") }
            s.name = try text(t, max: FieldLimits.maxNameCharacters)
        },
        Field(names: ["primaryText", "primary", "text"], allowed: "text") { s, v in s.primaryText = try text(v, max: FieldLimits.maxTextCharacters) },
        Field(names: ["secondaryText", "secondary"], allowed: "text (empty removes)") { s, v in
            s.secondaryText = v.isEmpty ? nil : try text(v, max: FieldLimits.maxTextCharacters)
        },
        Field(names: ["layout.template", "template"], allowed: LayoutTemplateToken.allowedList) { s, v in
            s.layout.template = try layoutTemplate(v)
            // A design made into a clock gets the new-clock configuration, as in the seed app.
            if s.layout.template == .clockIcon && s.clockConfig == nil { s.clockConfig = ClockDesignConfig() }
        },
        Field(names: ["layout.axis", "axis"], allowed: LayoutAxisToken.allowedList) { s, v in s.layout.axis = try token(v) },
        Field(names: ["layout.alignment", "alignment"], allowed: LayoutAlignmentToken.allowedList) { s, v in s.layout.alignment = try token(v) },
        Field(names: ["layout.spacing", "spacing"], allowed: "0…32") { s, v in s.layout.spacingPoints = try number(v, FieldLimits.spacingPoints) },
        Field(names: ["layout.showsAccentBar", "accentBar"], allowed: "true|false") { s, v in s.layout.showsAccentBar = try boolean(v) },
        Field(names: ["layout.posterOverlayMode", "posterOverlay"], allowed: PosterOverlayMode.allowedList) { s, v in s.layout.posterOverlayMode = try token(v) },
        Field(names: ["layout.primaryLineLimitSmall"], allowed: "1…8") { s, v in s.layout.primaryLineLimitSmall = try integer(v, FieldLimits.primaryLineLimitSmall) },
        Field(names: ["layout.primaryLineLimit", "primaryLines"], allowed: "1…10") { s, v in s.layout.primaryLineLimit = try integer(v, FieldLimits.primaryLineLimit) },
        Field(names: ["layout.secondaryLineLimitSmall"], allowed: "1…8") { s, v in s.layout.secondaryLineLimitSmall = try integer(v, FieldLimits.secondaryLineLimitSmall) },
        Field(names: ["layout.secondaryLineLimit", "secondaryLines"], allowed: "1…10") { s, v in s.layout.secondaryLineLimit = try integer(v, FieldLimits.secondaryLineLimit) },
        Field(names: ["style.accent", "accent"], allowed: AccentToken.allowedList) { s, v in s.style.accent = try token(v) },
        Field(names: ["style.background", "background"], allowed: BackgroundToken.allowedList) { s, v in s.style.background = try token(v) },
        Field(names: ["style.backgroundOverlay", "overlay"], allowed: BackgroundToken.allowedList) { s, v in s.style.backgroundOverlay = try token(v) },
        Field(names: ["style.backgroundOverlayOpacity", "overlayOpacity"], allowed: "0…1") { s, v in s.style.backgroundOverlayOpacity = try number(v, FieldLimits.overlayOpacity) },
        Field(names: ["style.backgroundGlowEnabled", "glow"], allowed: "true|false") { s, v in s.style.backgroundGlowEnabled = try boolean(v) },
        Field(names: ["style.padding", "padding"], allowed: "0…32") { s, v in s.style.paddingPoints = try number(v, FieldLimits.paddingPoints) },
        Field(names: ["style.cornerRadius", "cornerRadius"], allowed: "0…44") { s, v in s.style.cornerRadiusPoints = try number(v, FieldLimits.styleCornerRadiusPoints) },
        Field(names: ["style.nameTextStyle", "nameStyle"], allowed: TextStyleToken.allowedList) { s, v in s.style.nameTextStyle = try token(v) },
        Field(names: ["style.primaryTextStyle", "primaryStyle"], allowed: TextStyleToken.allowedList) { s, v in s.style.primaryTextStyle = try token(v) },
        Field(names: ["style.secondaryTextStyle", "secondaryStyle"], allowed: TextStyleToken.allowedList) { s, v in s.style.secondaryTextStyle = try token(v) },
        Field(names: ["style.symbolSize"], allowed: "8…96") { s, v in s.style.symbolSizePoints = try number(v, FieldLimits.styleSymbolSizePoints) },
        Field(names: ["style.weatherScale", "weatherScale"], allowed: "0.6…1.4 (the Weather template draws 0.85…1.35)") { s, v in
            s.style.weatherScale = try number(v, FieldLimits.weatherScale)
        },
        Field(names: ["clock.theme", "clockConfig.theme"], allowed: ClockThemeToken.allowedList) { s, v in try withClock(&s) { $0.theme = try token(v) } },
        Field(names: ["clock.face", "clockConfig.face"], allowed: ClockFaceToken.allowedList) { s, v in try withClock(&s) { $0.face = try token(v) } },
        Field(names: ["clock.dialColour", "clock.dialColor", "clockConfig.iconDialColourToken"], allowed: ClockIconDialColourToken.allowedList + " | none (follow the theme)") { s, v in
            try withClock(&s) { $0.iconDialColour = try optionalToken(v) }
        },
        Field(names: ["clock.secondHandColour", "clock.secondHandColor", "clockConfig.iconSecondHandColourToken"], allowed: ClockSecondHandColourToken.allowedList + " | none (red)") { s, v in
            try withClock(&s) { $0.iconSecondHandColour = try optionalToken(v) }
        },
        Field(names: ["clock.format", "clockFormat"], allowed: "24h|12h|24h-seconds|12h-seconds | none (24h); " + ClockFormatToken.allowedList) { s, v in
            s.clockFormat = try optionalToken(v)
        },
        Field(names: ["countdown.target", "countdown"], allowed: CountdownTarget.allowed + " (empty removes)") { s, v in
            if v.trimmingCharacters(in: .whitespaces).isEmpty { s.countdown = nil; return }
            s.countdown = CountdownSpec(target: try CountdownTarget.parse(v))
        },
        Field(names: ["symbol", "symbol.name"], allowed: "symbol name (empty removes)") { s, v in
            let t = v.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { s.symbol = nil; return }
            let name = try text(t, max: FieldLimits.maxSymbolNameCharacters)
            if s.symbol == nil { s.symbol = SymbolSpec(name: name) } else { s.symbol?.name = name }
        },
        Field(names: ["symbol.size"], allowed: "8…96") { s, v in try withSymbol(&s) { $0.sizePoints = try number(v, FieldLimits.symbolSizePoints) } },
        Field(names: ["symbol.weight"], allowed: SymbolWeightToken.allowedList) { s, v in try withSymbol(&s) { $0.weight = try token(v) } },
        Field(names: ["symbol.renderingMode", "symbol.rendering"], allowed: SymbolRenderingModeToken.allowedList) { s, v in try withSymbol(&s) { $0.renderingMode = try token(v) } },
        Field(names: ["symbol.tint"], allowed: SymbolTintToken.allowedList) { s, v in try withSymbol(&s) { $0.tint = try token(v) } },
        Field(names: ["symbol.placement"], allowed: SymbolPlacementToken.allowedList) { s, v in try withSymbol(&s) { $0.placement = try token(v) } },
        Field(names: ["image", "image.fileName"], allowed: "a PNG or JPEG: a path (weaver designs set copies it into the store's images/ folder) or a file name already there (empty removes)") { s, v in
            let t = v.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { s.image = nil; return }
            guard let safe = ImageSanitiser.sanitisedFileName(t), safe == t else {
                throw DesignError("'\(t)' is not a bare file name (letters, digits, '.', '-', '_', space; no paths)")
            }
            if s.image == nil { s.image = ImageSpec(fileName: safe) } else { s.image?.fileName = safe }
        },
        Field(names: ["image.contentMode", "image.mode"], allowed: ImageContentModeToken.allowedList) { s, v in try withImage(&s) { $0.contentMode = try token(v) } },
        Field(names: ["image.height"], allowed: "0…512") { s, v in try withImage(&s) { $0.heightPoints = try number(v, FieldLimits.imageHeightPoints) } },
        Field(names: ["image.cornerRadius"], allowed: "0…128") { s, v in try withImage(&s) { $0.cornerRadiusPoints = try number(v, FieldLimits.imageCornerRadiusPoints) } },
        Field(names: ["image.filter", "filter"], allowed: PhotoFilterToken.allowedList + " (none removes)") { s, v in
            try withFilter(&s) { $0.token = try token(v) }
        },
        Field(names: ["image.filter.intensity", "image.filterIntensity", "filterIntensity"], allowed: "0…1 (0 removes the filter)") { s, v in
            try withImage(&s) { img in
                guard img.filter != nil else { throw DesignError("the image has no filter; set 'image.filter=NAME' first") }
            }
            try withFilter(&s) { $0.intensity = try number(v, FieldLimits.filterIntensity) }
        },
        Field(names: ["action.1", "action1"], allowed: actionSyntax) { s, v in try action(v, slot: 0, in: &s) },
        Field(names: ["action.2", "action2"], allowed: actionSyntax) { s, v in
            guard (s.actionBar?.actions.count ?? 0) >= 1 || v.isEmpty else { throw DesignError("set action.1 first") }
            try action(v, slot: 1, in: &s)
        },
        Field(names: ["actionBar.style"], allowed: WidgetActionButtonStyleToken.allowedList) { s, v in
            guard s.actionBar != nil else { throw DesignError("the design has no action bar; set action.1 first") }
            s.actionBar?.style = try token(v)
        },
    ]
}
