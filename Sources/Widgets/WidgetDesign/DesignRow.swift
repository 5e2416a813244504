import BoundedJSON
import FieldTable

/// A key path a row keeps (rows are shared by every thread that edits or decodes a design).
public typealias PartKeyPath<Part, Value> = WritableKeyPath<Part, Value> & Sendable

/// One design field where it lives in a part of the design (`LayoutSpec`, `StyleSpec`,
/// `SymbolSpec`, `ImageSpec`): its table row, its `.wwdesign` member and the property it reads and
/// writes. The part's JSON encoding, its tolerant decoding and the editor's setting of the field
/// all come from the row, so a field of such a part is added as one row of its `rows`.
public struct DesignRow<Part>: Sendable {
    public let spec: FieldSpec
    /// The member's key in the part's JSON object (`padding` for `style.padding`).
    public let jsonKey: String
    /// The property as the `.wwdesign` file writes it; nil leaves the member out.
    let encode: @Sendable (Part) -> JSONValue?
    /// Reads member `key` of `object` (the row's `jsonKey` unless an older name is read) into the
    /// property; a wrong type or out-of-range value falls back with a finding.
    let decode:
        @Sendable (inout TolerantDecoder, _ object: [String: JSONValue], _ key: String, _ path: String, inout Part)
            -> Void
    /// Sets the property from a typed value, checked against the row (`weaver designs set`, the Editor).
    let set: @Sendable (inout Part, String) throws -> Void

    static func number(_ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, Double>) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { .number($0[keyPath: property]) },
            decode: { d, o, key, path, part in part[keyPath: property] = d.double(o, key, path, spec) },
            set: { part, v in part[keyPath: property] = try DesignEditor.number(v, spec) })
    }

    static func integer(_ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, Int>) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { .number(Double($0[keyPath: property])) },
            decode: { d, o, key, path, part in part[keyPath: property] = d.int(o, key, path, spec) },
            set: { part, v in part[keyPath: property] = try DesignEditor.integer(v, spec) })
    }

    static func flag(_ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, Bool>) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { .bool($0[keyPath: property]) },
            decode: { d, o, key, path, part in part[keyPath: property] = d.bool(o, key, path, spec) },
            set: { part, v in part[keyPath: property] = try DesignEditor.boolean(v, spec) })
    }

    static func text(_ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, String>) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { .string($0[keyPath: property]) },
            decode: { d, o, key, path, part in part[keyPath: property] = d.string(o, key, path, spec) },
            set: { part, v in part[keyPath: property] = try DesignEditor.text(v, spec) })
    }

    /// A text that is absent (nil) until set; empty removes it.
    static func optionalText(_ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, String?>) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { $0[keyPath: property].map { .string($0) } },
            decode: { d, o, key, path, part in
                part[keyPath: property] = d.optionalString(o, key, path, maxCharacters: spec.maxLength ?? 4096)
            },
            set: { part, v in part[keyPath: property] = v.isEmpty ? nil : try DesignEditor.text(v, spec) })
    }

    /// A token of our own (the seed app has no such member): written only when it is not the default,
    /// so a file from the seed app goes back with exactly its own members.
    static func ownToken<T: DesignToken>(_ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, T>)
        -> Self
    {
        let plain = token(spec, jsonKey, property)
        return Self(
            spec: spec, jsonKey: jsonKey,
            encode: { part in part[keyPath: property].rawValue == spec.defaultText ? nil : plain.encode(part) },
            decode: plain.decode, set: plain.set)
    }

    /// `absent` is what a file without the member meant when it was written, where that is not the
    /// table's default (which is what a new design gets).
    static func token<T: DesignToken>(
        _ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, T>, absent: T? = nil
    ) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { .string($0[keyPath: property].rawValue) },
            decode: { d, o, key, path, part in
                part[keyPath: property] =
                    absent.map { d.token(o, key, path, default: $0) } ?? d.token(o, key, path, spec)
            },
            set: { part, v in part[keyPath: property] = try DesignEditor.token(v, spec) })
    }

    /// An override that is absent (nil) until set; empty or `none` removes it.
    static func optionalToken<T: DesignToken>(
        _ spec: FieldSpec, _ jsonKey: String, _ property: PartKeyPath<Part, T?>
    ) -> Self {
        Self(
            spec: spec, jsonKey: jsonKey, encode: { $0[keyPath: property].map { .string($0.rawValue) } },
            decode: { d, o, key, path, part in part[keyPath: property] = d.optionalToken(o, key, path) },
            set: { part, v in part[keyPath: property] = try DesignEditor.optionalToken(v, spec) })
    }
}

extension Sequence {
    /// The part's JSON members, one per row (the encoder sorts keys, so the order here is free).
    func jsonMembers<Part>(of part: Part) -> [String: JSONValue] where Element == DesignRow<Part> {
        Dictionary(uniqueKeysWithValues: compactMap { row in row.encode(part).map { (row.jsonKey, $0) } })
    }

    /// Reads each row's member of `object` into `part`.
    func decode<Part>(
        _ object: [String: JSONValue], _ path: String, into part: inout Part, with d: inout TolerantDecoder
    )
    where Element == DesignRow<Part> {
        for row in self { row.decode(&d, object, row.jsonKey, path, &part) }
    }
}

extension WidgetSpec {
    /// The texts (a name is trimmed; empty is refused, or read as the default) and the clock's format
    /// (the decoder reads it, the last row, after the parts, as the findings have always come).
    public static let rows: [DesignRow<WidgetSpec>] = [
        DesignRow(
            spec: DesignFields.name, jsonKey: "name", encode: { .string($0.name) },
            decode: { d, o, key, path, s in
                s.name = d.string(o, key, path, DesignFields.name).trimmingCharacters(in: .whitespacesAndNewlines)
                guard s.name.isEmpty else { return }
                s.name = DesignFields.name.defaultText
                d.note(d.join(path, key), .invalidValue, "empty; using \(d.quoted(s.name))")
            },
            set: { s, v in
                let t = v.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !t.isEmpty else { throw DesignError("a name cannot be empty") }
                s.name = try DesignEditor.text(t, DesignFields.name)
            }),
        .text(DesignFields.primaryText, "primaryText", \.primaryText),
        .optionalText(DesignFields.secondaryText, "secondaryText", \.secondaryText),
        .optionalToken(DesignFields.clockFormat, "clockFormat", \.clockFormat),
    ]
}

extension LayoutSpec {
    /// Every field of `layout`, in the order the decoder reads them (its findings come in this order;
    /// the template is set by the editor its own way: see `DesignEditor`).
    public static let rows: [DesignRow<LayoutSpec>] = [
        .token(DesignFields.template, "template", \.template),
        .token(DesignFields.posterOverlayMode, "posterOverlayMode", \.posterOverlayMode),
        .flag(DesignFields.showsAccentBar, "showsAccentBar", \.showsAccentBar),
        .token(DesignFields.axis, "axis", \.axis),
        .token(DesignFields.alignment, "alignment", \.alignment),
        .number(DesignFields.spacing, "spacing", \.spacingPoints),
        .integer(DesignFields.primaryLineLimitSmall, "primaryLineLimitSmall", \.primaryLineLimitSmall),
        .integer(DesignFields.primaryLineLimit, "primaryLineLimit", \.primaryLineLimit),
        .integer(DesignFields.secondaryLineLimitSmall, "secondaryLineLimitSmall", \.secondaryLineLimitSmall),
        .integer(DesignFields.secondaryLineLimit, "secondaryLineLimit", \.secondaryLineLimit),
    ]
}

extension StyleSpec {
    public static let rows: [DesignRow<StyleSpec>] = [
        .number(DesignFields.padding, "padding", \.paddingPoints),
        .number(DesignFields.cornerRadius, "cornerRadius", \.cornerRadiusPoints),
        .token(DesignFields.background, "background", \.background),
        .token(DesignFields.backgroundOverlay, "backgroundOverlay", \.backgroundOverlay),
        .number(DesignFields.backgroundOverlayOpacity, "backgroundOverlayOpacity", \.backgroundOverlayOpacity),
        .flag(DesignFields.backgroundGlow, "backgroundGlowEnabled", \.backgroundGlowEnabled),
        .token(DesignFields.accent, "accent", \.accent),
        .ownToken(DesignFields.fontDesign, "fontDesign", \.fontDesign),
        .token(DesignFields.nameTextStyle, "nameTextStyle", \.nameTextStyle),
        .token(DesignFields.primaryTextStyle, "primaryTextStyle", \.primaryTextStyle),
        .token(DesignFields.secondaryTextStyle, "secondaryTextStyle", \.secondaryTextStyle),
        .number(DesignFields.styleSymbolSize, "symbolSize", \.symbolSizePoints),
        .number(DesignFields.weatherScale, "weatherScale", \.weatherScale),
    ]
}

extension SymbolSpec {
    /// The symbol's settings (its name is read and set its own way: an empty one drops the symbol).
    public static let rows: [DesignRow<SymbolSpec>] = [
        .number(DesignFields.symbolSize, "size", \.sizePoints),
        .token(DesignFields.symbolWeight, "weight", \.weight),
        .token(DesignFields.symbolRenderingMode, "renderingMode", \.renderingMode),
        .token(DesignFields.symbolTint, "tint", \.tint),
        .token(DesignFields.symbolPlacement, "placement", \.placement),
    ]
}

extension ImageSpec {
    /// The image's settings (the file name, filter and Smart Photo are read and set their own way).
    public static let rows: [DesignRow<ImageSpec>] = [
        .token(DesignFields.imageContentMode, "contentMode", \.contentMode),
        .number(DesignFields.imageHeight, "height", \.heightPoints),
        .number(DesignFields.imageCornerRadius, "cornerRadius", \.cornerRadiusPoints),
    ]
}

extension ClockDesignConfig {
    /// The clock's settings (the editor sets them through `DesignEditor.withClock`, which checks
    /// the second hand against the dial).
    public static let rows: [DesignRow<ClockDesignConfig>] = [
        .token(DesignFields.clockTheme, "theme", \.theme),
        // A config written before faces existed shows the legacy face, not the new clock's.
        .token(DesignFields.clockFace, "face", \.face, absent: .ceramic),
        .optionalToken(DesignFields.clockDialColour, "iconDialColourToken", \.iconDialColour),
        .optionalToken(DesignFields.clockSecondHandColour, "iconSecondHandColourToken", \.iconSecondHandColour),
    ]
}

extension RemindersConfig {
    /// The Reminders settings but the lists (names, read and set their own way); the editor sets
    /// them through `DesignEditor.withReminders`, which takes Reminders designs only.
    public static let rows: [DesignRow<RemindersConfig>] = [
        .token(DesignFields.remindersMode, "mode", \.mode),
        .token(DesignFields.remindersPresentation, "presentation", \.presentation),
        .flag(DesignFields.remindersHideCompleted, "hideCompleted", \.hideCompleted),
        .flag(DesignFields.remindersShowsDueTimes, "showsDueTimes", \.showsDueTimes),
        .flag(DesignFields.remindersShowsProgressBadge, "showsProgressBadge", \.showsProgressBadge),
    ]
}
