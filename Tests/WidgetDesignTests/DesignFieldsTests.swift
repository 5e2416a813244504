import BoundedJSON
import FieldTable
import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

/// The design field table (`DesignFields`): complete, consistent with the model, and what the
/// editor, the tolerant decoder, the JSON encoding and docs/designs.md actually use.
@Suite struct DesignFieldsTests {
    let table = DesignFields.table

    /// Fields only files carry (the editor sets buttons as `action.N`, and of Smart Photo data only
    /// the crops, as `image.crop.FAMILY.…`).
    func isFileOnly(_ f: FieldSpec) -> Bool { f.key.hasPrefix("actions[]") || f.key.hasPrefix("image.smartPhoto") }

    @Test func everyFieldHasARangeOrValuesALabelAndHelp() {
        #expect(table.fields.count >= 50)
        var names: Set<String> = []
        for f in table.fields {
            #expect(!f.label.isEmpty && !f.help.isEmpty, "\(f.key)")
            #expect(table.groups.contains(f.group), "\(f.key): group \(f.group)")
            switch f.kind {
            case .number, .integer:
                #expect(f.range != nil, "\(f.key) has no range")
                #expect(f.range.map { $0.lowerBound < $0.upperBound } == true, "\(f.key)")
                #expect((f.step ?? 0) > 0, "\(f.key) has no step")
                if case .number(let d) = f.defaultValue { #expect(f.numberRange.contains(d), "\(f.key) default \(d)") }
                if f.kind == .integer {
                    #expect(f.numberRange.lowerBound == f.numberRange.lowerBound.rounded(), "\(f.key)")
                }
            case .choice:
                #expect(!f.allowed.isEmpty, "\(f.key) has no values")
                if case .text(let d) = f.defaultValue { #expect(f.allowed.contains(d), "\(f.key) default \(d)") }
                if !f.isOptional { #expect(f.defaultValue != .none, "\(f.key) needs a default") }
            case .text, .symbol, .image, .date:
                #expect((f.maxLength ?? 0) > 0, "\(f.key) has no maximum length")
            case .flag:
                #expect(f.defaultValue == .flag(true) || f.defaultValue == .flag(false), "\(f.key)")
            }
            for n in f.names {
                #expect(names.insert(n.lowercased()).inserted, "\(n) names two fields")
            }
        }
    }

    @Test func theEditorSetsEveryFieldOfTheTableAndNoOther() {
        let edited = DesignEditor.fields.map(\.spec.key)
        #expect(Set(edited).count == edited.count)
        #expect(Set(edited) == Set(table.fields.filter { !isFileOnly($0) }.map(\.key)))
        for f in DesignEditor.fields { #expect(f.spec == table[f.spec.key], "\(f.spec.key)") }
        // Names `weaver designs set` took before the table stay accepted.
        for name in [
            "primary", "text", "template", "spacing", "accentBar", "primaryLines", "overlayOpacity", "glow", "padding",
            "clockConfig.theme", "clock.dialColor", "clockFormat", "countdown", "symbol.name", "symbol.rendering",
            "image.fileName", "image.mode", "filter", "image.filterIntensity", "filterIntensity", "action1", "action2",
        ] {
            #expect(DesignEditor.field(named: name) != nil, "\(name)")
        }
    }

    /// The table's defaults are the model's: a new style, layout, symbol, image, clock, action bar.
    @Test func defaultsAreTheModelsDefaults() {
        let style = StyleSpec(), layout = LayoutSpec(), symbol = SymbolSpec(name: "x"),
            image = ImageSpec(fileName: "x.png")
        let expected: [(FieldSpec, FieldSpec.Value)] = [
            (DesignFields.template, .text(layout.template.rawValue)), (DesignFields.axis, .text(layout.axis.rawValue)),
            (DesignFields.alignment, .text(layout.alignment.rawValue)),
            (DesignFields.spacing, .number(layout.spacingPoints)),
            (DesignFields.showsAccentBar, .flag(layout.showsAccentBar)),
            (DesignFields.posterOverlayMode, .text(layout.posterOverlayMode.rawValue)),
            (DesignFields.primaryLineLimitSmall, .number(Double(layout.primaryLineLimitSmall))),
            (DesignFields.primaryLineLimit, .number(Double(layout.primaryLineLimit))),
            (DesignFields.secondaryLineLimitSmall, .number(Double(layout.secondaryLineLimitSmall))),
            (DesignFields.secondaryLineLimit, .number(Double(layout.secondaryLineLimit))),
            (DesignFields.accent, .text(style.accent.rawValue)),
            (DesignFields.background, .text(style.background.rawValue)),
            (DesignFields.backgroundOverlay, .text(style.backgroundOverlay.rawValue)),
            (DesignFields.backgroundOverlayOpacity, .number(style.backgroundOverlayOpacity)),
            (DesignFields.backgroundGlow, .flag(style.backgroundGlowEnabled)),
            (DesignFields.padding, .number(style.paddingPoints)),
            (DesignFields.cornerRadius, .number(style.cornerRadiusPoints)),
            (DesignFields.nameTextStyle, .text(style.nameTextStyle.rawValue)),
            (DesignFields.primaryTextStyle, .text(style.primaryTextStyle.rawValue)),
            (DesignFields.secondaryTextStyle, .text(style.secondaryTextStyle.rawValue)),
            (DesignFields.fontDesign, .text(style.fontDesign.rawValue)),
            (DesignFields.styleSymbolSize, .number(style.symbolSizePoints)),
            (DesignFields.weatherScale, .number(style.weatherScale)),
            (DesignFields.symbolSize, .number(symbol.sizePoints)),
            (DesignFields.symbolWeight, .text(symbol.weight.rawValue)),
            (DesignFields.symbolRenderingMode, .text(symbol.renderingMode.rawValue)),
            (DesignFields.symbolTint, .text(symbol.tint.rawValue)),
            (DesignFields.symbolPlacement, .text(symbol.placement.rawValue)),
            (DesignFields.imageContentMode, .text(image.contentMode.rawValue)),
            (DesignFields.imageHeight, .number(image.heightPoints)),
            (DesignFields.imageCornerRadius, .number(image.cornerRadiusPoints)),
            (DesignFields.clockTheme, .text(ClockDesignConfig().theme.rawValue)),
            (DesignFields.clockFace, .text(ClockDesignConfig().face.rawValue)),
            (DesignFields.actionBarStyle, .text(ActionBarSpec(actions: []).style.rawValue)),
        ]
        for (field, value) in expected { #expect(field.defaultValue == value, "\(field.key)") }
    }

    /// Every numeric field the editor sets takes its bounds and refuses one past them with the
    /// table's message.
    @Test func theEditorChecksEveryNumberAgainstTheTable() throws {
        var base = makeSpec("S", template: .clockIcon, image: "x.png")
        try DesignEditor.apply(["image.filter=sepia"], to: &base)
        for f in DesignEditor.fields.map(\.spec) where f.kind == .number || f.kind == .integer {
            let r = f.numberRange
            for ok in [r.lowerBound, r.upperBound] {
                var s = base
                try DesignEditor.apply(["\(f.key)=\(FieldFormat.number(ok))"], to: &s)
            }
            let bad = FieldFormat.number(r.upperBound + 1)
            var s = base
            #expect(throws: DesignError("\(f.key): '\(bad)' is out of range; allowed: \(f.allowedText)")) {
                try DesignEditor.apply(["\(f.key)=\(bad)"], to: &s)
            }
        }
    }

    /// Every row of a design part (`DesignRow`: layout, style, symbol, image, clock, reminders) through each use: it is
    /// the table's row, the editor finds it by every name and sets it, the `.wwdesign` encoding
    /// writes it under its key, the tolerant decoder reads it back without a finding, and a number
    /// past its range comes back clamped with a finding at the row's path.
    @Test func everyPartRowIsSetWrittenAndReadThroughItsRow() throws {
        func walk<Part>(
            _ rows: [DesignRow<Part>], in member: String, of base: WidgetSpec = makeSpec("S", image: "x.png")
        ) throws -> Int {
            #expect(Set(rows.map(\.jsonKey)).count == rows.count, "\(member): a key twice")
            for row in rows {
                let f = row.spec
                #expect(table[f.key] == f, "\(f.key) is not the table's row")
                for name in f.names { #expect(DesignEditor.field(named: name.uppercased())?.spec == f, "\(name)") }
                // A value other than the default, as typed and as the file writes it.
                let (typed, written): (String, JSONValue) =
                    switch f.kind {
                    case .number, .integer:
                        (FieldFormat.number(f.numberRange.upperBound), .number(f.numberRange.upperBound))
                    case .flag: ("\(!f.defaultFlag)", .bool(!f.defaultFlag))
                    default: (f.allowed.last { $0 != f.defaultText }!, .string(f.allowed.last { $0 != f.defaultText }!))
                    }
                var design = base
                try DesignEditor.apply([DesignEditor.Edit(field: f.key, value: typed)], to: &design)
                #expect(design.jsonValue[member]?[row.jsonKey] == written, "\(f.key)")
                let (decoded, findings) = try WidgetSpec.decode(design.encoded(), fallbackDate: fixedNow)
                #expect(findings.isEmpty && decoded == design, "\(f.key): \(findings)")
                guard f.kind == .number || f.kind == .integer else { continue }
                let past = Self.setting(
                    design.jsonValue, [Substring(member), Substring(row.jsonKey)],
                    to: .number(f.numberRange.upperBound + 1))
                let (clamped, found) = try WidgetSpec.decode(past.prettyPrinted(), fallbackDate: fixedNow)
                #expect(clamped == design, "\(f.key)")
                #expect(
                    found.map(\.path) == ["\(member).\(row.jsonKey)"] && found.first?.kind == .outOfRange, "\(f.key)")
            }
            return rows.count
        }
        let walked =
            try walk(LayoutSpec.rows, in: "layout") + walk(StyleSpec.rows, in: "style")
            + walk(SymbolSpec.rows, in: "symbol") + walk(ImageSpec.rows, in: "image")
            + walk(ClockDesignConfig.rows, in: "clockConfig", of: makeSpec("S", template: .clockIcon, image: "x.png"))
            + walk(RemindersConfig.rows, in: "remindersConfig", of: makeSpec("S", template: .reminders, image: "x.png"))
        #expect(walked == 40)  // style.fontDesign (issue 41.18) made 31, the clock's four and reminders' five 40
    }

    /// The tolerant decoder clamps each numeric field to the table's range and says so at its path.
    @Test func theDecoderClampsEveryNumberToTheTable() throws {
        let fields = table.fields.filter {
            ($0.kind == .number || $0.kind == .integer)
                && ["layout.", "style.", "symbol.", "image."].contains(where: $0.key.hasPrefix)
                && !isFileOnly($0) && !$0.key.hasPrefix("image.crop.")
        }
        #expect(fields.count == 14)
        // The crops are read at `image.smartPhoto.FAMILY.cropRect` with the Smart Photo crop's range.
        for f in DesignFields.cropFields { #expect(f.numberRange == DesignFields.smartCrop.numberRange, "\(f.key)") }
        for f in fields {
            let parts = f.key.split(separator: ".").map(String.init)
            var leaf: [String: Any] = [parts[parts.count - 1]: f.numberRange.upperBound + 1]
            if parts.count == 3 { leaf["token"] = "sepia" }  // image.filter.intensity
            var object: [String: Any] = parts.count == 3 ? ["fileName": "x.png", parts[1]: leaf] : leaf
            if parts[0] == "symbol" { object["name"] = "star" }
            if parts[0] == "image" && parts.count == 2 { object["fileName"] = "x.png" }
            let doc: [String: Any] = ["name": "A", "primaryText": "x", parts[0]: object]
            let (_, findings) = try WidgetSpec.decode(
                try JSONSerialization.data(withJSONObject: doc), fallbackDate: fixedNow)
            let finding = findings.first { $0.path == f.key }
            #expect(finding?.kind == .outOfRange, "\(f.key): \(findings)")
            #expect(
                finding?.message.contains(FieldFormat.range(f.numberRange)) == true,
                "\(f.key): \(String(describing: finding))")
        }
    }

    // MARK: The tolerant decoder reads each row's default and range from the table

    /// Rows whose default the decoder does not apply as it is, and why; every other row with a
    /// default is walked below, so a new row is either decoded from the table or listed here.
    static let decodedOtherwise: [String: String] = [
        "clock.face": "a clock written before faces existed shows the legacy ceramic face; icon is for new clocks",
        "actions[].title": "an empty title is replaced by one from the button's kind",
        "actions[].variableKey": "a button without a variable drops the button",
        "image.filter": "an absent filter is no filter; none drops the filter object",
        "matchedSet.small": "whether the size has its own design, not a member",
        "matchedSet.medium": "whether the size has its own design, not a member",
        "matchedSet.large": "whether the size has its own design, not a member",
    ]

    /// Where the decoder reads a row in a design file; nil for rows another reader owns.
    static func filePath(_ f: FieldSpec) -> String? {
        let key = f.key
        if key.hasPrefix("reminders.") { return nil }  // `RemindersConfig` reads `remindersConfig`.
        if key.hasPrefix("clock.") { return "clockConfig." + key.dropFirst("clock.".count) }
        if key.hasPrefix("actions[].") { return "actionBar.actions[0]." + key.dropFirst("actions[].".count) }
        let variant = "image.smartPhoto.variants[]."
        if key.hasPrefix(variant) {
            let member = String(key.dropFirst(variant.count))
            let leaf = ["cropRect": "cropRect.x", "pixelSize": "pixelSize.width"][member] ?? member
            return "image.smartPhoto.small." + leaf
        }
        return key
    }

    /// A design with every object a row lives in, each with only the members it needs to be kept.
    static let skeleton: JSONValue = .object([
        "layout": .object([:]), "style": .object([:]), "clockConfig": .object([:]),
        "symbol": .object(["name": .string("star")]),
        "image": .object([
            "fileName": .string("x.png"), "filter": .object(["token": .string("sepia")]),
            "smartPhoto": .object([
                "masterFileName": .string("m.png"), "preparedAt": .string("2026-01-01T00:00:00Z"),
                "small": .object([
                    "renderFileName": .string("s.png"), "cropRect": .object([:]), "pixelSize": .object([:]),
                ]),
            ]),
        ]),
        "actionBar": .object([
            "actions": .array([.object(["kind": .string("resetVariable"), "variableKey": .string("k")])])
        ]),
        "matchedSet": .object(["small": .object([:]), "medium": .object([:]), "large": .object([:])]),
    ])

    /// `value` with the member at `path` (`actionBar.actions[0].kind`) set, or removed when nil.
    static func setting(_ value: JSONValue, _ path: [Substring], to new: JSONValue?) -> JSONValue {
        guard let first = path.first else { return new ?? .null }
        let rest = Array(path.dropFirst())
        if first.hasSuffix("[0]") {
            let key = String(first.dropLast(3))
            guard case .object(var o) = value, case .array(var items)? = o[key] else { return value }
            items[0] = setting(items[0], rest, to: new)
            o[key] = .array(items)
            return .object(o)
        }
        guard case .object(var o) = value else { return value }
        if rest.isEmpty {
            o[String(first)] = new
        } else if let inner = o[String(first)] ?? (new == nil ? nil : .object([:])) {
            o[String(first)] = setting(inner, rest, to: new)
        }
        return .object(o)
    }

    static func member(_ value: JSONValue, _ path: [Substring]) -> JSONValue? {
        var v: JSONValue? = value
        for part in path {
            if part.hasSuffix("[0]") {
                guard case .array(let items)? = v?[String(part.dropLast(3))], !items.isEmpty else { return nil }
                v = items[0]
            } else {
                v = v?[String(part)]
            }
        }
        return v
    }

    /// The row's default as the design's JSON writes it.
    static func json(_ value: FieldSpec.Value) -> JSONValue? {
        switch value {
        case .number(let d): .number(d)
        case .text(let t): .string(t)
        case .flag(let b): .bool(b)
        case .none: nil
        }
    }

    /// How a finding names the value it fell back on (`using 16`, `using "WidgetWeaver"`).
    static func fallbackWords(_ f: FieldSpec) -> String {
        switch f.defaultValue {
        case .number(let d): "using \(JSONValue.format(d))"
        case .text(let t): f.kind == .choice ? "using \(t)" : "using \"\(t)\""
        case .flag(let b): "using \(b)"
        case .none: ""
        }
    }

    static func decoding(_ doc: JSONValue) throws -> (JSONValue, [Finding]) {
        let (spec, findings) = try WidgetSpec.decode(doc.prettyPrinted(), fallbackDate: fixedNow)
        return (spec.jsonValue, findings)
    }

    static var walkedRows: [(FieldSpec, [Substring])] {
        DesignFields.table.fields.compactMap { f in
            guard f.defaultValue != .none, decodedOtherwise[f.key] == nil, let path = filePath(f) else { return nil }
            return (f, path.split(separator: "."))
        }
    }

    /// Rows of our own that a file carries only when they are not the default (`DesignRow.ownToken`:
    /// `style.fontDesign`), so the seed app's files go back with exactly their members.
    static let omittedAtDefault: Set<String> = {
        func keys<Part>(_ rows: [DesignRow<Part>], _ part: Part) -> [String] {
            rows.filter { $0.encode(part) == nil }.map(\.spec.key)
        }
        return Set(
            keys(LayoutSpec.rows, LayoutSpec()) + keys(StyleSpec.rows, StyleSpec())
                + keys(SymbolSpec.rows, SymbolSpec(name: "x")) + keys(ImageSpec.rows, ImageSpec(fileName: "x.png")))
    }()

    @Test func theDecoderTakesEveryDefaultFromTheTable() throws {
        #expect(Self.omittedAtDefault == ["style.fontDesign"])
        #expect(Self.walkedRows.count >= 40)
        for key in Self.decodedOtherwise.keys { #expect(table[key] != nil, "\(key) is not a row") }
        let (plain, plainFindings) = try Self.decoding(Self.skeleton)
        #expect(plainFindings.isEmpty, "\(plainFindings)")
        for (f, path) in Self.walkedRows {
            let (decoded, _) = try Self.decoding(Self.setting(Self.skeleton, path, to: nil))
            // An optional row is absent when not given; its default is what a bad value falls back on.
            let expected = f.isOptional || Self.omittedAtDefault.contains(f.key) ? nil : Self.json(f.defaultValue)
            #expect(Self.member(decoded, path) == expected, "\(f.key) at \(path.joined(separator: "."))")
            if Self.member(Self.skeleton, path) == nil {
                #expect(Self.member(plain, path) == expected, "\(f.key) in the skeleton")
            }
        }
    }

    @Test func aBadValueFallsBackAsTheTableSays() throws {
        for (f, path) in Self.walkedRows {
            let at = path.joined(separator: ".")
            // The wrong type: the row's default.
            let wrong: JSONValue = f.kind == .text || f.kind == .choice ? .number(7) : .string("seven")
            let (_, wrongFindings) = try Self.decoding(Self.setting(Self.skeleton, path, to: wrong))
            let fellBack = wrongFindings.first { $0.path == at }
            #expect(fellBack?.kind == .wrongType, "\(f.key): \(wrongFindings)")
            #expect(fellBack?.message.hasSuffix(Self.fallbackWords(f)) == true, "\(f.key): \(wrongFindings)")
            // Out of the row's range or values: clamped to the range, the default for an unknown
            // value, cut at the row's length.
            let bad: JSONValue, kind: Finding.Kind, words: String
            switch f.kind {
            case .number, .integer:
                bad = .number(f.numberRange.upperBound + 1)
                (kind, words) = (.outOfRange, "using \(JSONValue.format(f.numberRange.upperBound))")
            case .choice: (bad, kind, words) = (.string("no-such-value"), .unknownToken, Self.fallbackWords(f))
            case .text, .symbol, .image, .date:
                let length = try #require(f.maxLength, "\(f.key)")
                bad = .string(String(repeating: "a", count: length + 1))
                (kind, words) = (.truncated, "longer than \(length) characters; truncated")
            case .flag: continue
            }
            let (decoded, findings) = try Self.decoding(Self.setting(Self.skeleton, path, to: bad))
            let finding = findings.first { $0.path == at }
            #expect(finding?.kind == kind, "\(f.key): \(findings)")
            #expect(finding?.message.hasSuffix(words) == true, "\(f.key): \(findings)")
            if f.kind == .text, case .string(let kept)? = Self.member(decoded, path) {
                #expect(kept.count == f.maxLength, "\(f.key)")
            }
        }
    }

    @Test func oneErrorNamesTheKeyPathTheValueAndTheRange() throws {
        let tooMuch = FieldError(keyPath: "style.padding", value: "99", reason: .outOfRange, allowed: "0…32 pt")
        #expect(throws: tooMuch) { try DesignFields.padding.parse("99") }
        #expect("\(tooMuch)" == "style.padding: '99' is out of range; allowed: 0…32 pt")
        // The one range check of numbers read elsewhere (a flag, the mixer page) says it the same way.
        #expect(throws: FieldError(keyPath: "--pad", value: "99", reason: .outOfRange, allowed: "0…32 pt")) {
            try DesignFields.padding.check(99, as: "--pad")
        }
        #expect(throws: FieldError(keyPath: "style.padding", value: "-1", reason: .outOfRange, allowed: "0…32 pt")) {
            try DesignFields.padding.check(-1)
        }
        #expect(try DesignFields.padding.check(32) == 32)
        #expect(throws: FieldError.self) { try DesignFields.accent.parse("chartreuse") }
        #expect(throws: FieldError.self) { try DesignFields.name.parse(String(repeating: "n", count: 121)) }
        #expect(try DesignFields.accent.parse("PINK") == .choice("pink"))
        #expect(try DesignFields.clockDialColour.parse("none") == FieldSpec.Parsed.none)
        #expect(try DesignFields.primaryLineLimit.parse("3") == .integer(3))
    }

    /// The JSON members other code reads (`GET /api/fields`, the browser editor).
    @Test func jsonEncodingKeepsTheContractsMembers() throws {
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(FieldJSON.array(table).utf8)) as? [[String: Any]])
        #expect(array.map { $0["key"] as? String } == table.keys)
        let padding = try #require(array.first { $0["key"] as? String == "style.padding" })
        #expect(padding["group"] as? String == "Style" && padding["label"] as? String == "Padding")
        #expect(padding["type"] as? String == "number" && padding["unit"] as? String == "pt")
        #expect(padding["min"] as? Double == 0 && padding["max"] as? Double == 32 && padding["step"] as? Double == 1)
        #expect(padding["default"] as? Double == 16)
        #expect(padding["optional"] as? Bool == false && padding["pro"] as? Bool == false)
        #expect(padding["allowed"] == nil && padding["maxLength"] == nil && padding["scale"] == nil)
        let accent = try #require(array.first { $0["key"] as? String == "style.accent" })
        #expect(accent["type"] as? String == "choice" && (accent["allowed"] as? [String])?.contains("pink") == true)
        #expect(accent["min"] == nil)
        let text = try #require(array.first { $0["key"] as? String == "primaryText" })
        #expect(text["template"] as? Bool == true && text["maxLength"] as? Int == 2000)
        let kind = try #require(array.first { $0["key"] as? String == "actions[].kind" })
        #expect(kind["pro"] as? Bool == true && kind["group"] as? String == "Actions")
        let allowedMembers: Set<String> = [
            "key", "group", "label", "help", "type", "min", "max", "step", "unit", "allowed", "default",
            "optional", "pro", "maxLength", "scale", "template", "aliases",
        ]
        for f in array { #expect(Set(f.keys).isSubset(of: allowedMembers), "\(f)") }
    }

    /// docs/designs.md's field tables are the table's Markdown (`weaver designs fields --markdown`).
    @Test func docsFieldTablesAreGeneratedFromTheTable() throws {
        let generated = FieldMarkdown.tables(table)
        let committed = try FieldDocs.committed(file: "docs/designs.md", marker: "design-fields", generated: generated)
        #expect(
            committed == generated,
            """
            docs/designs.md's field tables differ from DesignFields; run WW_WRITE_FIELD_DOCS=1 swift test --filter \
            Fields
            """
        )
    }
}
