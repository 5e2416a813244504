import FieldTable
import Foundation
import SharedStore
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
            #expect(throws: DesignError("\(f.key): '\(bad)' is out of range; allowed: \(FieldFormat.range(r))")) {
                try DesignEditor.apply(["\(f.key)=\(bad)"], to: &s)
            }
        }
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

    @Test func oneErrorNamesTheKeyPathTheValueAndTheRange() throws {
        #expect(throws: FieldError(keyPath: "style.padding", value: "99", reason: .outOfRange, allowed: "0…32")) {
            try DesignFields.padding.parse("99")
        }
        #expect(
            "\(FieldError(keyPath: "style.padding", value: "99", reason: .outOfRange, allowed: "0…32"))"
                == "style.padding: '99' is out of range; allowed: 0…32")
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
