import Foundation
import NoiseDSP
import NoiseEngine
import TestSupport
import Testing

/// The loudness model against a BS.1770 meter on rendered audio, and the reference level of the
/// built-in presets.
@Suite struct LoudnessModelTests {
    static let presetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Presets")

    static var presetIDs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: presetsFolder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func preset(_ id: String) throws -> Mix {
        try Mix.load(path: presetsFolder.appendingPathComponent("\(id).json").path)
    }

    static func render(_ mix: Mix, seconds: Double, seed: UInt64) -> [[Float]] {
        TestRender.render(layers: mix.layerSettings, master: Float(mix.masterVolume), seconds: seconds, seed: seed)
    }

    @Test func everyBuiltInPresetIsThere() {
        #expect(Self.presetIDs.count >= 10, "\(Self.presetIDs)")
        #expect(Self.presetIDs.contains("wind"))
    }

    /// Every preset as shipped: prediction within 0.5 LU of the meter, and the meter within 0.5 LU
    /// of the reference (so the spread is at most 1 LU). Each is rendered for its `settlingSeconds`
    /// (movement and textures: minutes, so many swells and waves average out).
    @Test(arguments: presetIDs)
    func presetMeasuresThePredictedReferenceLoudness(id: String) throws {
        let mix = try Self.preset(id)
        // A minute at a time: storm's 100 minutes would hold 2 GB of audio and twice that weighted.
        var meter = Loudness.Meter(channelCount: 2)
        TestRender.renderInChunks(
            layers: mix.layerSettings, master: Float(mix.masterVolume), seconds: mix.settlingSeconds, seed: 12
        ) { meter.add($0) }
        let measured = meter.integratedLufs
        let prediction = mix.predictedLoudness()
        let predicted = prediction.loudnessLufs
        let measuredLift = measured - meter.ungatedLufs
        print(
            """
            preset \(id): measured \(String(format: "%.2f", measured)) LUFS, predicted \
            \(String(format: "%.2f", predicted)), error \(String(format: "%+.2f", predicted - measured)) LU; \
            gate lift measured \(String(format: "%.2f", measuredLift)), predicted \
            \(String(format: "%.2f", prediction.gateLiftDb)) LU
            """
        )
        #expect(abs(predicted - measured) <= 0.5)
        // The relative gate's lift is a steady part of the level (ocean: 0.2 LU on every seed), not
        // seed-to-seed spread: the model must carry it.
        #expect(abs(prediction.gateLiftDb - measuredLift) <= 0.1)
        #expect(abs(measured - Mix.referenceLoudnessLufs) <= 0.5)
        #expect(mix.masterVolume == Mix.referenceMasterVolume)
    }

    /// `--loudness -23` is accepted for every preset, campfire and rain (textures) included: the
    /// limiter check does not refuse what the presets already play cleanly.
    @Test(arguments: presetIDs)
    func everyPresetReachesTheReferenceThroughTheLoudnessOption(id: String) throws {
        #expect(Self.presetIDs.contains("campfire") && Self.presetIDs.contains("rain"))
        let mix = try Self.preset(id)
        let master = try mix.masterVolume(forLoudness: Mix.referenceLoudnessLufs)
        #expect(abs(master - Mix.referenceMasterVolume) < 0.02, "\(id): master \(master)")
    }

    /// The texture peak estimate against the rendered peak (no limiter acting: the estimate says it
    /// stays idle): the estimate is not below the real peak, and not more than 6 dB above it.
    @Test(arguments: ["campfire", "rain"])
    func texturePeakEstimateBoundsTheRenderedPeak(id: String) throws {
        let mix = try Self.preset(id)
        let p = mix.predictedLoudness()
        #expect(p.peakOverCeilingDb < 0, "\(id): \(p.peakOverCeilingDb) dB over the ceiling")
        let out = Self.render(mix, seconds: 120, seed: 12)
        let peak = out.map { $0.reduce(Float(0)) { max($0, abs($1)) } }.max()!
        let measuredDbfs = 20 * log10(Double(peak))
        print(
            """
            preset \(id): texture peak estimate \(String(format: "%.2f", p.texturePeakDbfs)) dBFS, whole-mix \
            estimate \(String(format: "%.2f", p.peakOverCeilingDb + LoudnessModel.limiterCeilingDbfs)) dBFS, \
            rendered peak over 120 s \(String(format: "%.2f", measuredDbfs)) dBFS
            """
        )
        #expect(measuredDbfs <= p.peakOverCeilingDb + LoudnessModel.limiterCeilingDbfs)
        #expect(p.texturePeakDbfs - measuredDbfs <= 6)
    }

    /// Seeded random mixes: any colours, cuts, EQ, volumes and master the mix format allows, short of
    /// the limiter (the model does not model it, and says when a mix is near it).
    static var randomMixes: [Mix] {
        var g = SplitMix64(seed: 1770)
        func u(_ r: ClosedRange<Double>) -> Double {
            r.lowerBound + (r.upperBound - r.lowerBound) * Double(g.next() >> 11) / Double(1 << 53)
        }
        var out: [Mix] = []
        while out.count < 8 {
            let n = Int(g.next() % 4) + 1
            let layers = (0..<n).map { _ -> Mix.Layer in
                var l = Mix.Layer(volume: u(0.3...1), colour: u(0...2))
                if g.next() % 2 == 0 { l.lowCutHz = u(10...600) }
                if g.next() % 2 == 0 { l.highCutHz = u(max(700, (l.lowCutHz ?? 0) * 2)...20000) }
                l.eq = Mix.EQ(lowDb: u(-12...12), midDb: u(-12...12), highDb: u(-12...12))
                if g.next() % 5 == 0 { l.enabled = false }
                return l
            }
            let mix = Mix(name: "random \(out.count)", masterVolume: u(0.4...1), layers: layers)
            let p = mix.predictedLoudness()
            if p.loudnessLufs.isFinite && p.loudnessLufs > -60 && p.peakOverCeilingDb < -3 { out.append(mix) }
        }
        return out
    }

    @Test(arguments: randomMixes)
    func randomMixMeasuresThePrediction(mix: Mix) {
        let measured = Loudness.integratedLufs(Self.render(mix, seconds: 20, seed: 3))
        let predicted = mix.predictedLoudness().loudnessLufs
        print(
            """
            \(mix.name): measured \(String(format: "%.2f", measured)) LUFS, predicted \
            \(String(format: "%.2f", predicted)), error \(String(format: "%+.2f", predicted - measured)) LU
            """
        )
        #expect(abs(predicted - measured) <= 0.5)
    }

    /// Mono is the left channel alone: 3 dB below stereo, and the model says so.
    @Test func monoIsPredictedToo() throws {
        let mix = try Self.preset("sleep")
        let out = TestRender.render(
            layers: mix.layerSettings, master: Float(mix.masterVolume), seconds: 20, channels: 1, seed: 4)
        let predicted = mix.predictedLoudness(channelCount: 1).loudnessLufs
        #expect(abs(Loudness.integratedLufs(out) - predicted) <= 0.5)
    }

    /// `--loudness`: the master that hits a target does hit it, and targets out of reach say why.
    @Test func masterForATargetHitsIt() throws {
        var mix = try Self.preset("brown")
        mix.masterVolume = try mix.masterVolume(forLoudness: -30)
        let measured = Loudness.integratedLufs(Self.render(mix, seconds: 20, seed: 5))
        print("brown at -30 LUFS target: master \(mix.masterVolume), measured \(measured)")
        #expect(abs(measured + 30) <= 0.5)

        #expect(throws: MixError.self) { try mix.masterVolume(forLoudness: -5) }
        do {
            _ = try mix.masterVolume(forLoudness: -5)
        } catch {
            #expect(error.message.contains("out of reach") && error.message.contains("master 100%"), "\(error.message)")
        }
        // Four loud layers can reach -8 LUFS at master 100%, but only through the limiter.
        let loud = Mix(
            name: "loud", masterVolume: 1,
            layers: (0..<4).map { Mix.Layer(volume: 1, colour: [0.2, 1, 1.5, 2][$0], eq: Mix.EQ(lowDb: 12)) })
        do {
            _ = try loud.masterVolume(forLoudness: -8)
            Issue.record("-8 LUFS should drive the limiter")
        } catch {
            #expect(error.message.contains("limiter") && error.message.contains("plays cleanly"), "\(error.message)")
        }
        #expect(throws: MixError.self) { try mix.masterVolume(forLoudness: 3) }
    }
}
