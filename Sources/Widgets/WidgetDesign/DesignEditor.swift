import FieldTable
import Foundation

/// The Editor as `FIELD=VALUE` assignments (`weaver designs set`). Unlike decoding, editing is
/// strict: an unknown field, token or out-of-range value is refused with the allowed values, and
/// nothing is saved.
public enum DesignEditor {
    /// A table field `weaver designs set` takes, and what setting it does.
    public struct Field: Sendable {
        public let spec: FieldSpec
        let apply: @Sendable (inout WidgetSpec, String, FieldSpec) throws -> Void

        init(_ spec: FieldSpec, apply: @escaping @Sendable (inout WidgetSpec, String, FieldSpec) throws -> Void) {
            self.spec = spec
            self.apply = apply
        }

        /// The key first, then the aliases.
        public var names: [String] { spec.names }
        /// What the field takes, for help: the range with its unit, or the values.
        public var allowed: String {
            switch spec.key {
            case DesignFields.countdownTarget.key: CountdownTarget.allowed + " (empty removes)"
            case DesignFields.presetButtonPreset.key: PresetButtonSpec.allowed + " (empty removes)"
            case DesignFields.action1.key, DesignFields.action2.key: DesignFields.actionSyntax
            case DesignFields.imageFileName.key: "a PNG or JPEG path or a file name in images/ (empty removes)"
            case DesignFields.symbolName.key: "symbol name (empty removes)"
            default: spec.allowedText + (spec.isOptional ? " | none" : "")
            }
        }
    }

    /// Applies assignments in order; throws before any change is kept when one is invalid.
    public static func apply(_ assignments: [String], to spec: inout WidgetSpec) throws {
        var copy = spec
        for a in assignments {
            guard let eq = a.firstIndex(of: "=") else {
                throw DesignError(
                    "'\(a)' is not FIELD=VALUE; fields: " + fields.map { $0.names[0] }.joined(separator: ", "))
            }
            let key = String(a[..<eq]).trimmingCharacters(in: .whitespaces)
            let value = String(a[a.index(after: eq)...])
            guard let field = field(named: key) else {
                throw DesignError(
                    "unknown field '\(key)'; fields: " + fields.map { $0.names[0] }.joined(separator: ", "))
            }
            do {
                try field.apply(&copy, value, field.spec)
            } catch let e as FieldError {
                // A part of the field (an action's amount) is named after the field typed.
                throw DesignError(e.keyPath == field.spec.key ? e.description : "\(field.names[0]): \(e.description)")
            } catch let e as DesignError {
                throw DesignError("\(field.names[0]): \(e.message)")
            }
        }
        // Crops are trimmed once every assignment is in, so moving a rectangle (x and width
        // together) is not cut short by the first of them.
        copy.image?.smartPhoto?.trimCrops()
        spec = copy
    }

    public static func field(named key: String) -> Field? {
        let k = key.lowercased()
        return fields.first { $0.names.contains { $0.lowercased() == k } }
    }

    /// A token of the field's type; aliases (`template=clock`) are read as the decoder reads them.
    static func token<T: DesignToken>(_ v: String, _ f: FieldSpec) throws -> T {
        guard let t = T.parse(v.trimmingCharacters(in: .whitespaces)) else {
            throw FieldError(keyPath: f.key, value: v, reason: .notAllowed, allowed: T.allowedList)
        }
        return t
    }

    /// Optional token: empty or `none` removes the override.
    static func optionalToken<T: DesignToken>(_ v: String, _ f: FieldSpec) throws -> T? {
        let t = v.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t.lowercased() == "none" || t.lowercased() == "default" { return nil }
        guard let token = T.parse(t) else {
            throw FieldError(keyPath: f.key, value: v, reason: .notAllowed, allowed: "\(T.allowedList), or none")
        }
        return token
    }

    /// What was typed is quoted as typed; a number outside the range says so (it is a number).
    static func number(_ v: String, _ f: FieldSpec) throws -> Double {
        guard case .number(let d) = try f.parse(v) else { throw DesignError("'\(v)' is not a number") }
        return d
    }

    static func integer(_ v: String, _ f: FieldSpec) throws -> Int {
        guard case .integer(let i) = try f.parse(v) else { throw DesignError("'\(v)' is not a whole number") }
        return i
    }

    static func boolean(_ v: String, _ f: FieldSpec) throws -> Bool {
        guard case .flag(let b) = try f.parse(v) else { throw DesignError("'\(v)' is not true or false") }
        return b
    }

    /// A text within the field's maximum length.
    static func text(_ v: String, _ f: FieldSpec) throws -> String {
        if let max = f.maxLength, v.count > max {
            throw FieldError(keyPath: f.key, value: v, reason: .tooLong, allowed: "\(max)")
        }
        return v
    }

    static func text(_ v: String, max: Int) throws -> String {
        guard v.count <= max else { throw DesignError("longer than \(max) characters") }
        return v
    }

    /// `template=steps` and other catalogue starters that are not layout templates are refused
    /// with what they are, instead of a bare "not allowed".
    static func layoutTemplate(_ v: String) throws -> LayoutTemplateToken {
        let t = v.trimmingCharacters(in: .whitespaces)
        if let token = LayoutTemplateToken.parse(t) { return token }
        if let starter = TemplateCatalogue.find(t), let made = try? starter.design(now: Date(timeIntervalSince1970: 0))
        {
            throw DesignError(
                "'\(v)' is a catalogue starter (\(starter.name): \(starter.summary)), not a layout template; "
                    + "it uses the \(made.layout.template.rawValue) layout with its own texts. Nothing was changed. "
                        + """
                        Add it as a new design with 'weaver templates add \(starter.id)', or set a layout template: \
                        \(LayoutTemplateToken.allowedList)
                        """
            )
        }
        throw DesignError("'\(v)' is not allowed; allowed: \(LayoutTemplateToken.allowedList)")
    }

    /// Only Reminders designs (or ones that already carry a configuration) take reminders fields.
    static func withReminders(_ s: inout WidgetSpec, _ body: (inout RemindersConfig) throws -> Void) throws {
        guard s.layout.template == .reminders || s.remindersConfig != nil else {
            throw DesignError("only Reminders designs have reminders settings; set 'template=reminders' first")
        }
        var c = s.reminders
        try body(&c)
        s.reminders = c
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
                throw DesignError(
                    "the \(hand.rawValue) second hand is not offered with the \(c.effectiveDialColour.rawValue) dial; "
                        + """
                        allowed: \(allowed.map(\.rawValue).sorted().joined(separator: "|")) (recommended: \
                        \(recommended.rawValue))
                        """
                )
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
            throw DesignError(
                """
                '\(v)' is not a time format; allowed: iso|unix|unixms|date|time (as 'weaver vars set-now --format' \
                takes them)
                """
            )
        }
        return format
    }

    /// The action syntaxes, for help and errors.
    public static let actionSyntax = DesignFields.actionSyntax

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
            let title =
                parts.count > 3
                ? try text(parts[3].trimmingCharacters(in: .whitespaces), max: FieldLimits.maxActionTitleCharacters)
                : ""
            var a: ActionSpec
            switch parts[0].lowercased() {
            case "increment", "incrementvariable":
                let amount =
                    parts.count > 2 && !parts[2].isEmpty ? try integer(parts[2], DesignFields.actionIncrementAmount) : 1
                guard amount != 0 else { throw DesignError("an increment of 0 does nothing; use -99…99, not 0") }
                a = ActionSpec(
                    title: title.isEmpty ? (amount > 0 ? "+\(amount)" : "\(amount)") : title,
                    kind: .incrementVariable, variableKey: key, incrementAmount: amount)
            case "now", "setvariabletonow":
                let format: WidgetNowFormatToken =
                    parts.count > 2 && !parts[2].isEmpty ? try nowFormat(parts[2]) : .iso8601
                a = ActionSpec(
                    title: title.isEmpty ? "Done" : title, kind: .setVariableToNow, variableKey: key, nowFormat: format)
            case "reset", "resetvariable":
                let value = parts.count > 2 && !parts[2].isEmpty ? parts[2].trimmingCharacters(in: .whitespaces) : "0"
                guard value.count <= FieldLimits.maxResetValueCharacters else {
                    throw DesignError(
                        "the reset value is longer than \(FieldLimits.maxResetValueCharacters) characters")
                }
                a = ActionSpec(
                    title: title.isEmpty ? ActionSpec.untitled(.resetVariable) : title, kind: .resetVariable,
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
        return ActionSpec(
            title: try text(
                title.isEmpty ? ActionSpec.untitled(.openURL) : title, max: FieldLimits.maxActionTitleCharacters),
            kind: .openURL, variableKey: "", url: url)
    }

    /// What each table field does to a design when set. Every field of `DesignFields.table` that
    /// `weaver designs set` takes has one entry; the table gives its names, range and help.
    public static let fields: [Field] = wholeDesignFields + cropFields + matchedSetFields

    /// The fields of the design as a whole (the per-size ones are in DesignEditor+Sizes.swift).
    static let wholeDesignFields: [Field] = [
        Field(DesignFields.name) { s, v, f in
            let t = v.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !t.isEmpty else { throw DesignError("a name cannot be empty") }
            s.name = try text(t, f)
        },
        Field(DesignFields.primaryText) { s, v, f in s.primaryText = try text(v, f) },
        Field(DesignFields.secondaryText) { s, v, f in s.secondaryText = v.isEmpty ? nil : try text(v, f) },
        Field(DesignFields.template) { s, v, _ in
            s.layout.template = try layoutTemplate(v)
            // A design made into a clock gets the new-clock configuration, as in the seed app.
            if s.layout.template == .clockIcon && s.clockConfig == nil { s.clockConfig = ClockDesignConfig() }
        },
        Field(DesignFields.axis) { s, v, f in s.layout.axis = try token(v, f) },
        Field(DesignFields.alignment) { s, v, f in s.layout.alignment = try token(v, f) },
        Field(DesignFields.spacing) { s, v, f in s.layout.spacingPoints = try number(v, f) },
        Field(DesignFields.showsAccentBar) { s, v, f in s.layout.showsAccentBar = try boolean(v, f) },
        Field(DesignFields.posterOverlayMode) { s, v, f in s.layout.posterOverlayMode = try token(v, f) },
        Field(DesignFields.primaryLineLimitSmall) { s, v, f in s.layout.primaryLineLimitSmall = try integer(v, f) },
        Field(DesignFields.primaryLineLimit) { s, v, f in s.layout.primaryLineLimit = try integer(v, f) },
        Field(DesignFields.secondaryLineLimitSmall) { s, v, f in s.layout.secondaryLineLimitSmall = try integer(v, f) },
        Field(DesignFields.secondaryLineLimit) { s, v, f in s.layout.secondaryLineLimit = try integer(v, f) },
        Field(DesignFields.accent) { s, v, f in s.style.accent = try token(v, f) },
        Field(DesignFields.background) { s, v, f in s.style.background = try token(v, f) },
        Field(DesignFields.backgroundOverlay) { s, v, f in s.style.backgroundOverlay = try token(v, f) },
        Field(DesignFields.backgroundOverlayOpacity) { s, v, f in s.style.backgroundOverlayOpacity = try number(v, f) },
        Field(DesignFields.backgroundGlow) { s, v, f in s.style.backgroundGlowEnabled = try boolean(v, f) },
        Field(DesignFields.padding) { s, v, f in s.style.paddingPoints = try number(v, f) },
        Field(DesignFields.cornerRadius) { s, v, f in s.style.cornerRadiusPoints = try number(v, f) },
        Field(DesignFields.nameTextStyle) { s, v, f in s.style.nameTextStyle = try token(v, f) },
        Field(DesignFields.primaryTextStyle) { s, v, f in s.style.primaryTextStyle = try token(v, f) },
        Field(DesignFields.secondaryTextStyle) { s, v, f in s.style.secondaryTextStyle = try token(v, f) },
        Field(DesignFields.styleSymbolSize) { s, v, f in s.style.symbolSizePoints = try number(v, f) },
        Field(DesignFields.weatherScale) { s, v, f in s.style.weatherScale = try number(v, f) },
        Field(DesignFields.clockTheme) { s, v, f in try withClock(&s) { $0.theme = try token(v, f) } },
        Field(DesignFields.clockFace) { s, v, f in try withClock(&s) { $0.face = try token(v, f) } },
        Field(DesignFields.clockDialColour) { s, v, f in
            try withClock(&s) { $0.iconDialColour = try optionalToken(v, f) }
        },
        Field(DesignFields.clockSecondHandColour) { s, v, f in
            try withClock(&s) { $0.iconSecondHandColour = try optionalToken(v, f) }
        },
        Field(DesignFields.clockFormat) { s, v, f in s.clockFormat = try optionalToken(v, f) },
        Field(DesignFields.remindersMode) { s, v, f in try withReminders(&s) { $0.mode = try token(v, f) } },
        Field(DesignFields.remindersPresentation) { s, v, f in
            try withReminders(&s) { $0.presentation = try token(v, f) }
        },
        Field(DesignFields.remindersLists) { s, v, f in
            let ids = try text(v, f).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard ids.count <= RemindersConfig.maxLists else {
                throw FieldError(
                    keyPath: f.key, value: v, reason: .tooLong, allowed: "at most \(RemindersConfig.maxLists) lists")
            }
            if let long = ids.first(where: { $0.count > RemindersConfig.maxListIDCharacters }) {
                throw FieldError(
                    keyPath: f.key, value: long, reason: .tooLong, allowed: "\(RemindersConfig.maxListIDCharacters)")
            }
            try withReminders(&s) { $0.selectedListIDs = ids }
        },
        Field(DesignFields.remindersHideCompleted) { s, v, f in
            try withReminders(&s) { $0.hideCompleted = try boolean(v, f) }
        },
        Field(DesignFields.remindersShowsDueTimes) { s, v, f in
            try withReminders(&s) { $0.showsDueTimes = try boolean(v, f) }
        },
        Field(DesignFields.remindersShowsProgressBadge) { s, v, f in
            try withReminders(&s) { $0.showsProgressBadge = try boolean(v, f) }
        },
        Field(DesignFields.countdownTarget) { s, v, _ in
            if v.trimmingCharacters(in: .whitespaces).isEmpty {
                s.countdown = nil
                return
            }
            s.countdown = CountdownSpec(target: try CountdownTarget.parse(v))
        },
        Field(DesignFields.presetButtonPreset) { s, v, _ in
            if v.trimmingCharacters(in: .whitespaces).isEmpty {
                s.presetButton = nil
                return
            }
            s.presetButton = try PresetButtonSpec.parse(v)
        },
        Field(DesignFields.symbolName) { s, v, f in
            let t = v.trimmingCharacters(in: .whitespaces)
            if t.isEmpty {
                s.symbol = nil
                return
            }
            let name = try text(t, f)
            if s.symbol == nil { s.symbol = SymbolSpec(name: name) } else { s.symbol?.name = name }
        },
        Field(DesignFields.symbolSize) { s, v, f in try withSymbol(&s) { $0.sizePoints = try number(v, f) } },
        Field(DesignFields.symbolWeight) { s, v, f in try withSymbol(&s) { $0.weight = try token(v, f) } },
        Field(DesignFields.symbolRenderingMode) { s, v, f in try withSymbol(&s) { $0.renderingMode = try token(v, f) }
        },
        Field(DesignFields.symbolTint) { s, v, f in try withSymbol(&s) { $0.tint = try token(v, f) } },
        Field(DesignFields.symbolPlacement) { s, v, f in try withSymbol(&s) { $0.placement = try token(v, f) } },
        Field(DesignFields.imageFileName) { s, v, _ in
            let t = v.trimmingCharacters(in: .whitespaces)
            if t.isEmpty {
                s.image = nil
                return
            }
            guard let safe = ImageSanitiser.sanitisedFileName(t), safe == t else {
                throw DesignError("'\(t)' is not a bare file name (letters, digits, '.', '-', '_', space; no paths)")
            }
            if s.image == nil {
                s.image = ImageSpec(fileName: safe)
            } else if s.image?.fileName != safe {
                // The crops and prepared renders were of the old picture.
                s.image?.fileName = safe
                s.image?.smartPhoto = nil
            }
        },
        Field(DesignFields.imageContentMode) { s, v, f in try withImage(&s) { $0.contentMode = try token(v, f) } },
        Field(DesignFields.imageHeight) { s, v, f in try withImage(&s) { $0.heightPoints = try number(v, f) } },
        Field(DesignFields.imageCornerRadius) { s, v, f in
            try withImage(&s) { $0.cornerRadiusPoints = try number(v, f) }
        },
        Field(DesignFields.imageFilter) { s, v, f in try withFilter(&s) { $0.token = try token(v, f) } },
        Field(DesignFields.imageFilterIntensity) { s, v, f in
            try withImage(&s) { img in
                guard img.filter != nil else {
                    throw DesignError("the image has no filter; set 'image.filter=NAME' first")
                }
            }
            try withFilter(&s) { $0.intensity = try number(v, f) }
        },
        Field(DesignFields.action1) { s, v, f in try action(try text(v, f), slot: 0, in: &s) },
        Field(DesignFields.action2) { s, v, f in
            guard (s.actionBar?.actions.count ?? 0) >= 1 || v.isEmpty else { throw DesignError("set action.1 first") }
            try action(try text(v, f), slot: 1, in: &s)
        },
        Field(DesignFields.actionBarStyle) { s, v, f in
            guard s.actionBar != nil else { throw DesignError("the design has no action bar; set action.1 first") }
            s.actionBar?.style = try token(v, f)
        },
    ]
}
