import Testing

@testable import NoiseDSP

/// The two pairs' chain on AVX2 (`cnk_layer_chain_avx2`) against the Swift chain it replaces on
/// CPUs that have AVX2: the same samples, bit for bit, so a render's bytes do not depend on which
/// one ran.
@Suite struct LayerChainKernelTests {
    /// A machine of four layers on the chosen chain, played through `scenario`, which renders with
    /// the `play` it is given (blocks of the lengths listed) and changes the layers between blocks.
    static func rendered(
        layers: [LayerSettings], seed: UInt64, avx2: Bool,
        scenario: (NoiseMachine, _ play: ([Int]) -> Void) -> Void
    ) -> [Float] {
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 1024, channelCount: 2), seed: seed,
            layers: layers, masterVolume: 0.8)
        machine.pairs.0.usesAVX2 = avx2
        machine.pairs.1.usesAVX2 = avx2
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 2 * 1024)
        scenario(machine) { frames in
            for n in frames {
                buffer.withUnsafeMutableBufferPointer { machine.render(into: $0.baseAddress!, frameCount: n) }
                out += buffer[0..<(2 * n)]
            }
        }
        return out
    }

    /// Both chains through the same scenario: no sample may differ, and the render is not silence
    /// (the comparison means something).
    static func expectSameBits(
        layers: [LayerSettings], seed: UInt64, scenario: (NoiseMachine, _ play: ([Int]) -> Void) -> Void
    ) {
        let wide = rendered(layers: layers, seed: seed, avx2: true, scenario: scenario)
        let narrow = rendered(layers: layers, seed: seed, avx2: false, scenario: scenario)
        #expect(wide.count == narrow.count)
        let differing = zip(wide, narrow).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        #expect(differing == 0, "\(differing) of \(wide.count) samples differ")
        #expect(wide.map { $0 * $0 }.reduce(0, +) / Float(wide.count) > 1e-4)
    }

    /// Noise of four colours, then a texture fading in, a cut switched on and another off while
    /// playing (the wet mix), EQ moving, volumes ramping.
    @Test(.enabled(if: MasterFilter.cpuHasAVX2, "this CPU has no AVX2"))
    func avx2ChainGivesTheSameBits() {
        let layers = [
            LayerSettings(volume: 0.8, colour: 0.3, lowCutHz: 40, highCutHz: 16000, eqLowDb: 3),
            LayerSettings(volume: 0.6, colour: 1.0, highCutHz: 9000, eqMidDb: -2),
            LayerSettings(volume: 0.5, colour: 1.6, lowCutHz: 120, eqHighDb: -4),
            LayerSettings(volume: 0.7, colour: 2.0, lowCutHz: 200, highCutHz: 3000),
        ]
        Self.expectSameBits(layers: layers, seed: 3) { machine, play in
            play([1024, 7, 1, 33, 500])
            var textured = machine.layer(1)
            textured.texture = TextureSettings(kind: .stream, densityPerSecond: 200)
            machine.setLayer(1, textured, rampSeconds: 0.2)
            var cutOff = machine.layer(2)
            cutOff.lowCutHz = nil
            cutOff.eqMidDb = 6
            machine.setLayer(2, cutOff, rampSeconds: 0.3)
            var cutOn = machine.layer(1)
            cutOn.lowCutHz = 300
            machine.setLayer(1, cutOn, rampSeconds: 0.1)
            play([Int](repeating: 1024, count: 30) + [5, 999])
        }
    }

    /// Four texture layers (each pair's noise skipped, the textures moved into the chain in C),
    /// then one of them fading back to noise.
    @Test(.enabled(if: MasterFilter.cpuHasAVX2, "this CPU has no AVX2"))
    func avx2ChainOfFourTexturesGivesTheSameBits() {
        let layers = (0..<4).map { i in
            var l = LayerSettings(volume: 0.7, colour: [0.3, 1.0, 1.6, 2.0][i], lowCutHz: 60, eqMidDb: -2)
            l.texture = TextureSettings(kind: [.stream, .rain, .fire, .wind][i], densityPerSecond: 300)
            return l
        }
        Self.expectSameBits(layers: layers, seed: 5) { machine, play in
            play([Int](repeating: 1024, count: 20) + [13])
            var noise = machine.layer(2)
            noise.texture = TextureSettings(kind: .noise)
            machine.setLayer(2, noise, rampSeconds: 0.3)
            play([Int](repeating: 1024, count: 20))
        }
    }
}
