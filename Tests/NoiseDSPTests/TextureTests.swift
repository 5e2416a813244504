import Foundation
import NoiseDSP
import TestSupport
import Testing

/// Drops and crackle: onsets at the density, each drop's pitch from its size, peakiness against
/// noise, determinism, and the loudness model against a BS.1770 meter.
@Suite struct TextureTests {
    static let sampleRate = 48000.0

    static func layer(_ kind: TextureKind, density: Float, brightness: Float = 0.5, volume: Float = 0.8)
        -> LayerSettings
    {
        LayerSettings(
            volume: volume, colour: 1,
            texture: TextureSettings(kind: kind, densityPerSecond: density, brightness: brightness))
    }

    /// One texture layer alone, no preroll (so the event sequence replays from frame 0).
    static func renderAlone(_ l: LayerSettings, seconds: Double, seed: UInt64) -> (
        out: [[Float]], events: TextureEventSource
    ) {
        let machine = NoiseMachine(spec: ProcessSpec(sampleRate: sampleRate), seed: seed, layers: [l], masterVolume: 1)
        let events = machine.textureEvents(layer: 0)
        let total = Int(seconds * sampleRate)
        var out: [[Float]] = [[], []]
        out[0].reserveCapacity(total)
        out[1].reserveCapacity(total)
        var buffer = [Float](repeating: 0, count: 4096 * 2)
        var done = 0
        while done < total {
            let n = min(4096, total - done)
            buffer.withUnsafeMutableBufferPointer { machine.render(into: $0.baseAddress!, frameCount: n) }
            for i in 0..<n {
                out[0].append(buffer[2 * i])
                out[1].append(buffer[2 * i + 1])
            }
            done += n
        }
        return (out, events)
    }

    static func mono(_ x: [[Float]]) -> [Float] { zip(x[0], x[1]).map { $0 + $1 } }

    /// The onset detector (spectral flux, `TestSupport.Onsets`) counts the density within ±10 %.
    @Test(arguments: [(TextureKind.drops, Float(10)), (.drops, 40), (.crackle, 8), (.crackle, 30)])
    func onsetsMatchTheDensity(kind: TextureKind, density: Float) {
        let seconds = 60.0
        let r = Self.renderAlone(Self.layer(kind, density: density), seconds: seconds, seed: 21)
        let counted = Onsets.detect(Self.mono(r.out), threshold: 2).count
        var events = r.events
        var played = 0
        while events.nextFrame < seconds * Self.sampleRate {
            _ = events.next()
            played += 1
        }
        let perSecond = Double(counted) / seconds
        print(
            """
            \(kind.name) at \(density)/s: \(counted) onsets detected in \(Int(seconds)) s = \
            \(String(format: "%.2f", perSecond))/s \
            (\(String(format: "%+.1f", (perSecond / Double(density) - 1) * 100)) % of the density); \(played) \
            events played
            """
        )
        #expect(abs(perSecond / Double(density) - 1) <= 0.10)
        // And against what was actually drawn (the Poisson count itself varies by ~1/√N).
        #expect(abs(Double(counted) / Double(played) - 1) <= 0.10)
    }

    /// Each isolated drop's spectral centroid lies in the range its radius gives (Minnaert's f₀
    /// up to where the glide has reached when the drop is 60 dB down, ±5 %), and small drops
    /// measure higher than big ones.
    @Test func eachDropRingsAtItsSizesPitch() {
        let seconds = 30.0
        let r = Self.renderAlone(Self.layer(.drops, density: 4), seconds: seconds, seed: 5)
        var events = r.events
        var list: [TextureEvent] = []
        while events.nextFrame < seconds * Self.sampleRate { list.append(events.next()) }
        let x = Self.mono(r.out)
        var checked = 0
        var small: [Double] = [], big: [Double] = []
        for (i, e) in list.enumerated() {
            let gapBefore = i == 0 ? Int.max : e.frame - list[i - 1].frame
            let gapAfter = i + 1 < list.count ? list[i + 1].frame - e.frame : Int.max
            let d = DropPhysics.dampingPerSecond(radiusMetres: e.radiusMetres)
            let length = Int(Double(DropPhysics.lifetimeTimeConstants / d) * Self.sampleRate)
            // Isolated drops only: nothing else ringing in the window.
            guard gapBefore > 6000, gapAfter > length + 64, e.frame + length < x.count else { continue }
            let centroid = Onsets.centroidHz(x[e.frame..<(e.frame + length)], sampleRate: Self.sampleRate)
            let range = DropPhysics.frequencyRangeHz(radiusMetres: e.radiusMetres, withinDb: 60)
            let lo = Double(range.lowerBound) * 0.95, hi = Double(range.upperBound) * 1.05
            #expect(
                centroid >= lo && centroid <= hi,
                """
                drop at frame \(e.frame), radius \(e.radiusMetres * 1000) mm: centroid \(centroid) Hz, expected \
                \(lo)…\(hi) Hz
                """
            )
            if e.radiusMetres < 0.001 { small.append(centroid) }
            if e.radiusMetres > 0.0025 { big.append(centroid) }
            checked += 1
        }
        print(
            """
            checked \(checked) isolated drops; small (<1 mm) mean centroid \
            \(Int(small.reduce(0, +) / Double(max(1, small.count)))) Hz, big (>2.5 mm) \
            \(Int(big.reduce(0, +) / Double(max(1, big.count)))) Hz
            """
        )
        #expect(checked >= 40)
        #expect(!small.isEmpty && !big.isEmpty && small.min()! > big.max()!)
    }

    /// Drops are peaky where noise is smooth: at the same loudness their crest factor is at least
    /// 6 dB higher (crest is peak over RMS, so it does not depend on the level).
    @Test(arguments: [Float(10), 40])
    func dropsAreAtLeast6dBPeakierThanNoise(density: Float) {
        let noise = Self.mono(TestRender.render(layers: [LayerSettings(volume: 0.8, colour: 1)], seconds: 30, seed: 8))
        let drops = Self.mono(TestRender.render(layers: [Self.layer(.drops, density: density)], seconds: 30, seed: 8))
        let crestNoise = Onsets.crestFactorDb(noise), crestDrops = Onsets.crestFactorDb(drops)
        print(
            """
            crest factor: pink noise \(String(format: "%.1f", crestNoise)) dB, drops at \(density)/s \
            \(String(format: "%.1f", crestDrops)) dB
            """
        )
        #expect(crestDrops - crestNoise >= 6)
    }

    @Test(arguments: [TextureKind.drops, .crackle])
    func sameSeedSameSamplesOtherSeedOthers(kind: TextureKind) {
        let l = [Self.layer(kind, density: 30), LayerSettings(volume: 0.5, colour: 2)]
        let a = TestRender.render(layers: l, seconds: 3, seed: 77)
        let b = TestRender.render(layers: l, seconds: 3, seed: 77)
        let c = TestRender.render(layers: l, seconds: 3, seed: 78)
        #expect(a == b)
        #expect(a != c)
    }

    /// Texture layers through the full chain (cuts, EQ, movement, beside noise) measure what the
    /// loudness model predicts, within 0.5 LU. The model predicts the K-weighted mean power; BS.1770's
    /// relative gate drops the quiet 400 ms blocks between sparse events, so a sparse texture alone
    /// (under ~20 events/s) measures louder gated than its mean power: those are checked ungated (the
    /// gated figure is printed). Beside noise, as in every preset, nothing is gated away.
    static var textureMixes: [(String, Bool, [LayerSettings])] {
        [
            ("drops 40/s", true, [layer(.drops, density: 40)]),
            (
                "drops 10/s, cuts 300-6000 Hz, EQ", false,
                [
                    LayerSettings(
                        volume: 0.9, lowCutHz: 300, highCutHz: 6000, eqLowDb: 4, eqMidDb: -3, eqHighDb: 6,
                        texture: TextureSettings(kind: .drops, densityPerSecond: 10))
                ]
            ),
            (
                "drops 300/s over brown noise", true,
                [layer(.drops, density: 300, volume: 0.6), LayerSettings(volume: 0.7, colour: 2)]
            ),
            ("crackle 20/s bright", false, [layer(.crackle, density: 20, brightness: 1)]),
            (
                "crackle 20/s dull, high cut 4 kHz", false,
                [
                    LayerSettings(
                        volume: 0.7, highCutHz: 4000,
                        texture: TextureSettings(kind: .crackle, densityPerSecond: 20, brightness: 0))
                ]
            ),
            (
                "crackle 6/s over brown noise", true,
                [
                    layer(.crackle, density: 6, brightness: 0.6, volume: 0.5),
                    LayerSettings(volume: 0.9, colour: 2, lowCutHz: 30),
                ]
            ),
            (
                "drops moving", true,
                [
                    LayerSettings(
                        volume: 0.8, highCutHz: 9000,
                        movement: MovementSettings(periodSeconds: 6, levelDb: 3, highCutOctaves: 0.5),
                        texture: TextureSettings(kind: .drops, densityPerSecond: 60))
                ]
            ),
        ]
    }

    @Test(arguments: textureMixes)
    func loudnessIsPredicted(name: String, gated: Bool, layers: [LayerSettings]) {
        let model = LoudnessModel(sampleRate: Self.sampleRate)
        let out = TestRender.render(layers: layers, master: 0.8, seconds: 120, seed: 31)
        let measuredGated = Loudness.integratedLufs(out)
        let measuredPower = Loudness.slidingLufs(out, windowSeconds: 120, hopSeconds: 120)[0]
        let measured = gated ? measuredGated : measuredPower
        let predicted = model.predict(layers: layers, masterVolume: 0.8).loudnessLufs
        print(
            """
            \(name): measured \(String(format: "%.2f", measuredGated)) LUFS gated, \
            \(String(format: "%.2f", measuredPower)) ungated; predicted \(String(format: "%.2f", predicted)), \
            error \(String(format: "%+.2f", predicted - measured)) LU (\(gated ? "gated" : "ungated"))
            """
        )
        #expect(abs(predicted - measured) <= 0.5)
    }

    /// Mono renders every drop at the centre (gain √½), so it is the stereo's one channel: the
    /// model's mono rule (3 dB below stereo) holds for textures too.
    @Test func monoDropsArePredicted() {
        let l = [Self.layer(.drops, density: 40)]
        let measured = Loudness.integratedLufs(
            TestRender.render(layers: l, master: 0.8, seconds: 30, channels: 1, seed: 2))
        let predicted = LoudnessModel(sampleRate: Self.sampleRate).predict(
            layers: l, masterVolume: 0.8, channelCount: 1
        ).loudnessLufs
        print(
            "mono drops: measured \(String(format: "%.2f", measured)), predicted \(String(format: "%.2f", predicted))")
        #expect(abs(predicted - measured) <= 0.5)
    }
}
