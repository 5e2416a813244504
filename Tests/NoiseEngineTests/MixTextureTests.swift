import Foundation
import NoiseDSP
import Testing

@testable import NoiseEngine

/// The texture fields of a mix file: read strictly, absent means noise, and written back only
/// when set (so older mixes round-trip byte for byte).
@Suite struct MixTextureTests {
    static func decode(_ layer: String) throws(MixError) -> Mix {
        try Mix.decode(Array(#"{"name":"T","layers":[\#(layer)]}"#.utf8), file: "t.json")
    }

    @Test func dropsAndCrackleAreRead() throws {
        let drops = try Self.decode(#"{"volume":0.7,"texture":"drops","densityPerSecond":40}"#)
        #expect(drops.layerSettings[0].texture == TextureSettings(kind: .drops, densityPerSecond: 40))
        let crackle = try Self.decode(#"{"texture":"crackle","brightness":0.2}"#)
        let t = crackle.layerSettings[0].texture
        #expect(
            t.kind == .crackle && t.densityPerSecond == TextureSettings.defaultCrackleDensity && t.brightness == 0.2)
        #expect(crackle.layerSettings[0].effectiveColour == 0.8)
    }

    @Test func absentTextureIsNoiseAndIsNotWritten() throws {
        let mix = try Self.decode(#"{"volume":0.7,"colour":1.5}"#)
        #expect(mix.layerSettings[0].texture == .noise)
        #expect(mix.layerSettings[0].effectiveColour == 1.5)
        let json = String(decoding: mix.encodedJSON(), as: UTF8.self)
        #expect(!json.contains("texture") && !json.contains("densityPerSecond") && !json.contains("brightness"))
        let drops = try Self.decode(#"{"texture":"drops","densityPerSecond":12}"#)
        #expect(try Mix.decode(Array(drops.encodedJSON()), file: "again.json") == drops)
    }

    @Test(arguments: [
        (
            #"{"texture":"hail"}"#, "layers[0].texture",
            "'hail' is not a texture; allowed: noise, drops, crackle, rain, surf, wind, fire, fan, stream, thunder"
        ),
        (#"{"densityPerSecond":40}"#, "layers[0].densityPerSecond", "applies to the drops and crackle textures"),
        (
            #"{"texture":"drops","brightness":0.5}"#, "layers[0].brightness",
            "applies to crackle and the statistical textures only"
        ),
        (
            #"{"texture":"drops","densityPerSecond":500}"#, "layers[0].densityPerSecond",
            "500 per second is out of range; allowed 0.5…400 per second"
        ),
        (#"{"texture":"crackle","brightness":1.5}"#, "layers[0].brightness", "1.5 is out of range; allowed 0…1"),
        (#"{"texture":3}"#, "layers[0].texture", "must be a string"),
    ])
    func badTexturesNameTheField(layer: String, path: String, message: String) {
        do {
            _ = try Self.decode(layer)
            Issue.record("\(layer) was accepted")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.file == "t.json")
        }
    }

    /// Issue 37: the natural presets are built on the statistical textures (rain, surf, wind, fire,
    /// fan, thunder); the noise presets stay noise only, so they render as they did before textures.
    @Test func naturalPresetsUseTheirTexturesAndNoisePresetsStayNoise() throws {
        let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Presets")
        let expected: [(String, Mix.Texture)] = [
            ("rain", .rain), ("heavy-rain", .rain), ("rain-window", .rain), ("rain-tent", .rain), ("storm", .rain),
            ("storm", .wind), ("storm", .thunder), ("ocean", .surf), ("wind", .wind), ("campfire", .fire),
            ("fan", .fan),
        ]
        for (name, texture) in expected {
            let mix = try Mix.load(path: presets.appendingPathComponent("\(name).json").path)
            #expect(mix.layers.contains { $0.texture == texture }, "\(name)")
        }
        for name in ["white", "pink", "brown", "deep-focus", "sleep", "airplane", "office"] {
            let mix = try Mix.load(path: presets.appendingPathComponent("\(name).json").path)
            #expect(mix.layerSettings.allSatisfy { $0.texture == .noise }, "\(name)")
        }
    }
}
