import NoiseDSP
import TestSupport
import Testing

/// Switching a layer's texture (`noise set --layer N --texture …`, a preset crossfade) fades like
/// any other parameter change: no sample step at the switch larger than the sound itself makes.
@Suite struct TextureSwitchTests {
    static let switchSecond = 2.0

    static func layer(_ kind: TextureKind, colour: Float = 1, density: Float = 40) -> LayerSettings {
        LayerSettings(
            volume: 0.8, colour: colour, lowCutHz: 150, highCutHz: 9000,
            texture: TextureSettings(kind: kind, densityPerSecond: density, brightness: 0.6))
    }

    /// The largest |x[n] − x[n−1]| of the left channel over `range` (seconds).
    static func largestStep(_ x: [Float], seconds range: Range<Double>) -> Float {
        let lo = max(1, Int(range.lowerBound * 48000)), hi = min(x.count, Int(range.upperBound * 48000))
        var m: Float = 0
        for i in lo..<hi { m = max(m, abs(x[i] - x[i - 1])) }
        return m
    }

    /// Renders `from` for two seconds, switches to `to` over `rampSeconds`, renders two more; returns
    /// the largest step within 50 ms of the switch and the largest over the steady second either side.
    static func steps(from: LayerSettings, to: LayerSettings, rampSeconds: Double, seed: UInt64) -> (
        atSwitch: Float, steady: Float
    ) {
        let out = TestRender.render(
            layers: [from], seconds: 3.5, seed: seed,
            changes: [(Self.switchSecond, { $0.setLayer(0, to, rampSeconds: rampSeconds) })])[0]
        let s = switchSecond
        let atSwitch = largestStep(out, seconds: (s - 0.002)..<(s + 0.05))
        let steady = max(
            largestStep(out, seconds: (s - 1)..<(s - 0.01)), largestStep(out, seconds: (s + 0.5)..<(s + 1.5)))
        return (atSwitch, steady)
    }

    static let switches: [(String, LayerSettings, LayerSettings)] = [
        ("drops to crackle", layer(.drops), layer(.crackle, density: 6)),
        ("drops to brown noise", layer(.drops), layer(.noise, colour: 2)),
        ("brown noise to drops", layer(.noise, colour: 2), layer(.drops)),
        ("crackle to drops", layer(.crackle, density: 6), layer(.drops)),
    ]

    /// With the ordinary 20 ms ramp no step at the switch exceeds the steadiest side's largest step
    /// (over three seeds, so a loud drop by chance near the switch does not decide it).
    @Test(arguments: switches.map { $0.0 })
    func aTextureSwitchFadesWithoutAStep(name: String) {
        let (_, from, to) = Self.switches.first { $0.0 == name }!
        var worstRatio: Float = 0
        for seed in UInt64(1)...3 {
            let r = Self.steps(from: from, to: to, rampSeconds: NoiseMachine.defaultRampSeconds, seed: seed)
            worstRatio = max(worstRatio, r.atSwitch / r.steady)
        }
        print("\(name): largest step at the switch / steady largest step, worst of 3 seeds: \(worstRatio)")
        #expect(worstRatio <= 1)
    }

    /// The switch is a crossfade, not a swap: brown noise to sparse crackle over 1 s leaves the
    /// noise at about −3 dB half-way (cos 45°) and gone after; a swap (ramp 0, the old behaviour)
    /// leaves nothing but the odd crackle at once. Levels of 20 ms windows, the quietest quarter
    /// (windows without a crackle in them).
    @Test func noiseToCrackleCrossfadesOverTheRamp() {
        let from = Self.layer(.noise, colour: 2), to = Self.layer(.crackle, density: 6)
        func quietLevel(_ x: [Float], _ range: Range<Double>) -> Double {
            var levels: [Double] = []
            var t = range.lowerBound
            while t + 0.02 <= range.upperBound {
                let i = Int(t * 48000)
                levels.append(TestRender.db(TestRender.rms(x[i..<(i + 960)])))
                t += 0.02
            }
            return levels.sorted()[levels.count / 4]
        }
        func levels(rampSeconds: Double) -> (before: Double, half: Double, after: Double) {
            let out = TestRender.render(
                layers: [from], seconds: 3.6, seed: 4,
                changes: [(Self.switchSecond, { $0.setLayer(0, to, rampSeconds: rampSeconds) })])[0]
            let s = Self.switchSecond
            return (
                quietLevel(out, (s - 1)..<s), quietLevel(out, (s + 0.4)..<(s + 0.6)),
                quietLevel(out, (s + 1.1)..<(s + 1.6))
            )
        }
        let faded = levels(rampSeconds: 1)
        let swapped = levels(rampSeconds: 0)
        print("noise to crackle, quiet-window levels (dBFS): 1 s crossfade \(faded), swap \(swapped)")
        #expect(faded.half > faded.before - 8 && faded.half < faded.before + 1)
        #expect(faded.after < faded.before - 20)
        // The same measure sees the swap: half-way there is no noise left already.
        #expect(swapped.half < swapped.before - 20)
    }

    /// Old renders keep their bytes: a mix that starts with a texture and never switches renders
    /// the same whether it was set at construction or set again (a no-op) mid-way.
    @Test func settingTheSameTextureAgainChangesNothing() {
        let l = Self.layer(.drops)
        let plain = TestRender.render(layers: [l], seconds: 1, seed: 3)
        let again = TestRender.render(
            layers: [l], seconds: 1, seed: 3, changes: [(0.5, { $0.setLayer(0, l, rampSeconds: 0.02) })])
        #expect(plain == again)
    }
}
