import FieldTable
import Foundation
import NoiseDSP
import TestSupport
import Testing

@testable import NoiseEngine

/// The mix field table (`MixFields`): complete, the model's defaults, and the ranges `Mix.validate`
/// and the mix file reader enforce.
@Suite struct MixFieldsTests {
    let table = MixFields.table

    @Test func everyParameterHasARangeALabelAndHelp() {
        #expect(table.fields.count == MixParameter.allCases.count)
        #expect(Set(table.keys).count == table.keys.count)
        for p in MixParameter.allCases {
            let f = p.field
            #expect(!f.label.isEmpty && !f.help.isEmpty, "\(f.key)")
            #expect(table.groups.contains(f.group), "\(f.key)")
            #expect(p == .master || p.isNotch || f.key.hasPrefix("layers[]."), "\(f.key)")
            if f.kind == .flag { continue }
            if f.kind == .choice {
                // A choice names what it allows, its default among them.
                #expect(!f.allowed.isEmpty && f.allowed.contains(f.defaultText), "\(f.key)")
                continue
            }
            #expect(f.kind == .number, "\(f.key)")
            #expect(f.range != nil, "\(f.key) has no range")
            #expect(f.range.map { $0.lowerBound < $0.upperBound } == true, "\(f.key)")
            #expect((f.step ?? 0) > 0, "\(f.key) has no step")
            if case .number(let d) = f.defaultValue {
                #expect(f.numberRange.contains(d), "\(f.key)")
            } else {
                #expect(f.isOptional, "\(f.key) has no default")
            }
        }
        #expect(MixFields.lowCutHz.scale == .log && MixFields.highCutHz.scale == .log)
    }

    @Test func defaultsAreTheModelsDefaults() {
        let layer = Mix.Layer(), movement = Mix.Movement(), eq = Mix.EQ()
        #expect(MixFields.masterVolume.defaultNumber == Mix(name: "x", layers: [layer]).masterVolume)
        #expect(MixFields.enabled.defaultFlag == layer.enabled)
        #expect(MixFields.volume.defaultNumber == layer.volume && MixFields.colour.defaultNumber == layer.colour)
        #expect(
            layer.lowCutHz == nil && layer.highCutHz == nil && MixFields.lowCutHz.isOptional
                && MixFields.highCutHz.isOptional)
        #expect(
            [MixFields.eqLowDb, MixFields.eqMidDb, MixFields.eqHighDb].map(\.defaultNumber) == [
                eq.lowDb, eq.midDb, eq.highDb,
            ])
        #expect(MixFields.movementPeriodSeconds.defaultNumber == movement.periodSeconds)
        #expect(MixFields.movementLevelDb.defaultNumber == movement.levelDb)
        #expect(MixFields.movementHighCutOctaves.defaultNumber == movement.highCutOctaves)
        // Texture: absent is noise; density takes the texture's own; brightness the DSP's default.
        #expect(MixFields.texture.allowed == Mix.Texture.allCases.map(\.rawValue))
        #expect(layer.texture == nil && MixFields.texture.defaultText == Mix.Texture.noise.rawValue)
        #expect(layer.densityPerSecond == nil && MixFields.densityPerSecond.isOptional)
        #expect(MixFields.brightness.defaultNumber == Double(layer.textureSettings.brightness))
        #expect(
            MixFields.densityPerSecond.numberRange.lowerBound == Double(TextureSettings.densityRange.lowerBound)
                && MixFields.densityPerSecond.numberRange.upperBound == Double(TextureSettings.densityRange.upperBound))
    }

    /// A mix file at each parameter's bounds is read; one step past them is refused at the
    /// parameter's path with the table's range and unit.
    @Test func mixFilesAreCheckedAgainstTheTable() throws {
        for p in MixParameter.allCases where p.field.kind == .number {
            let f = p.field, r = f.numberRange, step = f.step ?? 1
            for (value, ok) in [
                (r.lowerBound, true), (r.upperBound, true), (r.upperBound + step, false), (r.lowerBound - step, false),
            ] {
                // A lower-than-range cut of 0 means off, which is allowed.
                if !ok && value == 0 && f.isOptional { continue }
                var layer: [String: Any] = ["highCutHz": 16000]
                var top: [String: Any] = ["name": "T"]
                let leaf = String(f.key.split(separator: ".").last!)
                if p == .master {
                    top["masterVolume"] = value
                } else if p.isNotch {
                    // A notch needs its centre; the other two take the value under test.
                    top["notch"] = p == .notchCentreHz ? [leaf: value] : ["centreHz": 5000, leaf: value]
                } else if f.key.contains(".eq.") {
                    layer["eq"] = [leaf: value]
                } else if f.key.contains(".movement.") {
                    layer["movement"] = [leaf: value]
                } else {
                    layer[leaf] = value
                }
                if p == .highCutHz { layer["highCutHz"] = value }
                // Density and brightness apply to a texture; crackle takes both.
                if p == .densityPerSecond || p == .brightness { layer["texture"] = "crackle" }
                if p == .lowCutHz, value >= 16000 { layer["highCutHz"] = 20000 }
                top["layers"] = [layer]
                let bytes = [UInt8](try JSONSerialization.data(withJSONObject: top))
                let path = p == .master || p.isNotch ? f.key : MixFields.path(f, layer: 0)
                let unit = f.unit.isEmpty ? "" : " \(f.unit)"
                do {
                    _ = try Mix.decode(bytes, file: "t.json")
                    #expect(ok, "\(path) \(value) was accepted")
                } catch {
                    #expect(!ok, "\(path) \(value): \(error)")
                    #expect(error.path == path, "\(error)")
                    #expect(error.message.contains("allowed \(FieldFormat.range(r))\(unit)"), "\(error)")
                }
            }
        }
    }

    /// docs/mix-format.md's parameter tables are the table's Markdown.
    @Test func docsFieldTablesAreGeneratedFromTheTable() throws {
        let generated = FieldMarkdown.tables(table)
        let committed = try FieldDocs.committed(file: "docs/mix-format.md", marker: "mix-fields", generated: generated)
        #expect(
            committed == generated,
            "docs/mix-format.md's tables differ from MixFields; run WW_WRITE_FIELD_DOCS=1 swift test --filter Fields")
    }
}
