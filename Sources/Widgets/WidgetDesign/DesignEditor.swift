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

    /// One edit: a field's name (key or alias) and the value typed for it, as the Editor sends it.
    public struct Edit: Sendable, Equatable {
        public let field: String
        public let value: String

        public init(field: String, value: String) {
            self.field = field
            self.value = value
        }
    }

    /// Applies `FIELD=VALUE` assignments (`weaver designs set`) in order; throws before any change
    /// is kept when one is invalid.
    public static func apply(_ assignments: [String], to spec: inout WidgetSpec) throws {
        try editing(&spec) { copy in
            for a in assignments {
                guard let eq = a.firstIndex(of: "=") else {
                    throw DesignError("'\(a)' is not FIELD=VALUE; fields: " + fieldList)
                }
                try set(Edit(field: String(a[..<eq]), value: String(a[a.index(after: eq)...])), in: &copy)
            }
        }
    }

    /// Applies edits in order; throws before any change is kept when one is invalid.
    public static func apply(_ edits: [Edit], to spec: inout WidgetSpec) throws {
        try editing(&spec) { copy in for edit in edits { try set(edit, in: &copy) } }
    }

    /// Crops are trimmed once every edit is in, so moving a rectangle (x and width together) is
    /// not cut short by the first of them.
    static func editing(_ spec: inout WidgetSpec, _ body: (inout WidgetSpec) throws -> Void) throws {
        var copy = spec
        try body(&copy)
        copy.image?.smartPhoto?.trimCrops()
        spec = copy
    }

    static func set(_ edit: Edit, in spec: inout WidgetSpec) throws {
        let name = edit.field.trimmingCharacters(in: .whitespaces)
        guard let field = field(named: name) else { throw DesignError("unknown field '\(name)'; fields: " + fieldList) }
        do {
            try field.apply(&spec, edit.value, field.spec)
        } catch let e as FieldError {
            // A part of the field (an action's amount) is named after the field typed.
            throw DesignError(e.keyPath == field.spec.key ? e.description : "\(field.names[0]): \(e.description)")
        } catch let e as DesignError {
            throw DesignError("\(field.names[0]): \(e.message)")
        }
    }

    /// The keys, for errors that list them.
    static var fieldList: String { fields.map { $0.names[0] }.joined(separator: ", ") }

    public static func field(named key: String) -> Field? { fieldsByName[key.lowercased()] }

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

    /// Every name (key and aliases, lowercased) to its field: how an edit finds its field.
    static let fieldsByName: [String: Field] = Dictionary(
        uniqueKeysWithValues: fields.flatMap { f in f.names.map { ($0.lowercased(), f) } })

    /// The fields of the design as a whole, in the table's order (the per-size ones are in
    /// DesignEditor+Sizes.swift): those of a part's rows (`DesignRow`) and those set their own way.
    static let wholeDesignFields: [Field] = {
        let order = Dictionary(uniqueKeysWithValues: DesignFields.table.keys.enumerated().map { ($1, $0) })
        let fromRows: [Field] =
            fields(WidgetSpec.rows) { try $1(&$0) } + fields(StyleSpec.rows) { try $1(&$0.style) }
            + fields(LayoutSpec.rows.filter { $0.spec != DesignFields.template }) { try $1(&$0.layout) }
            + fields(SymbolSpec.rows) { try withSymbol(&$0, $1) } + fields(ImageSpec.rows) { try withImage(&$0, $1) }
            + fields(ClockDesignConfig.rows) { try withClock(&$0, $1) }
            + fields(RemindersConfig.rows) { try withReminders(&$0, $1) }
        return (fromRows + ownWayFields).sorted { order[$0.spec.key]! < order[$1.spec.key]! }
    }()

    /// The fields of a part's rows, each set through `part` (which may refuse a design without the part).
    static func fields<Part>(
        _ rows: [DesignRow<Part>],
        _ part: @escaping @Sendable (inout WidgetSpec, (inout Part) throws -> Void) throws -> Void
    ) -> [Field] { rows.map { row in Field(spec: row.spec) { s, v, _ in try part(&s) { try row.set(&$0, v) } } } }

    /// The fields set their own way: the template, the reminders lists, countdown's, preset's, symbol's and
    /// image's names, the filter and the buttons.
    static let ownWayFields: [Field] = [
        Field(spec: DesignFields.template) { s, v, _ in
            s.layout.template = try layoutTemplate(v)
            // A design made into a clock gets the new-clock configuration, as in the seed app.
            if s.layout.template == .clockIcon && s.clockConfig == nil { s.clockConfig = ClockDesignConfig() }
        },
        Field(spec: DesignFields.remindersLists) { s, v, f in
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
        Field(spec: DesignFields.countdownTarget) { s, v, _ in
            if v.trimmingCharacters(in: .whitespaces).isEmpty {
                s.countdown = nil
                return
            }
            s.countdown = CountdownSpec(target: try CountdownTarget.parse(v))
        },
        Field(spec: DesignFields.presetButtonPreset) { s, v, _ in
            if v.trimmingCharacters(in: .whitespaces).isEmpty {
                s.presetButton = nil
                return
            }
            s.presetButton = try PresetButtonSpec.parse(v)
        },
        Field(spec: DesignFields.symbolName) { s, v, f in
            let t = v.trimmingCharacters(in: .whitespaces)
            if t.isEmpty {
                s.symbol = nil
                return
            }
            let name = try text(t, f)
            if s.symbol == nil { s.symbol = SymbolSpec(name: name) } else { s.symbol?.name = name }
        },
        Field(spec: DesignFields.imageFileName) { s, v, _ in
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
        Field(spec: DesignFields.imageFilter) { s, v, f in try withFilter(&s) { $0.token = try token(v, f) } },
        Field(spec: DesignFields.imageFilterIntensity) { s, v, f in
            try withImage(&s) { img in
                guard img.filter != nil else {
                    throw DesignError("the image has no filter; set 'image.filter=NAME' first")
                }
            }
            try withFilter(&s) { $0.intensity = try number(v, f) }
        },
        Field(spec: DesignFields.action1) { s, v, f in try action(try text(v, f), slot: 0, in: &s) },
        Field(spec: DesignFields.action2) { s, v, f in
            guard (s.actionBar?.actions.count ?? 0) >= 1 || v.isEmpty else { throw DesignError("set action.1 first") }
            try action(try text(v, f), slot: 1, in: &s)
        },
        Field(spec: DesignFields.actionBarStyle) { s, v, f in
            guard s.actionBar != nil else { throw DesignError("the design has no action bar; set action.1 first") }
            s.actionBar?.style = try token(v, f)
        },
    ]
}
