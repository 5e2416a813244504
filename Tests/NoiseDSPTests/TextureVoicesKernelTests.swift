import CNoiseKernels
import Foundation
import Testing

@testable import NoiseDSP

/// The voices' C kernel (`cnk_texture_voices`, eight voices to a vector) against the Swift loop it
/// replaces: the same samples bit for bit, the same voices left and the same noise state, so a
/// render's bytes do not depend on which one ran.
@Suite struct TextureVoicesKernelTests {
    struct Run: Equatable {
        var samples: [UInt32] = []
        var voiceCounts: [Int] = []
        var noiseStates: [UInt32] = []
    }

    /// `calls` sub-blocks of a generator playing `kind` at `density`, on the chosen loop.
    static func rendered(_ kind: TextureKind, density: Float, mono: Bool, kernel: Bool, calls: [Int]) -> Run {
        let generator = TextureGenerator(sampleRate: 48000, channelCount: mono ? 1 : 2, seed: 0, frameCapacity: 32)
        generator.usesKernel = kernel
        generator.kernelVoiceMinimum = 0
        generator.reseed(7)
        generator.set(TextureSettings(kind: kind, densityPerSecond: density, brightness: 0.5), rampFrames: 0)
        var run = Run()
        for n in calls {
            generator.render(frameCount: n)
            for i in 0..<n {
                run.samples += [generator.output[i].x.bitPattern, generator.output[i].y.bitPattern]
            }
            run.voiceCounts.append(generator.activeCount)
            run.noiseStates.append(generator.burstNoise)
        }
        return run
    }

    static let kinds: [TextureKind] = [.drops, .crackle, .rain, .surf, .wind, .fire, .fan, .stream, .thunder]

    @Test(arguments: kinds, [false, true])
    func kernelGivesTheSameBits(kind: TextureKind, mono: Bool) {
        // Sub-blocks of every length up to 32 and many 32s (two seconds); the densest events, so
        // rings, taps and bursts start mid-block and end, two dozen drops sounding at once.
        let calls = [32, 7, 1, 19, 8, 31, 2, 16] + [Int](repeating: 32, count: 3000)
        let fast = Self.rendered(kind, density: 400, mono: mono, kernel: true, calls: calls)
        let plain = Self.rendered(kind, density: 400, mono: mono, kernel: false, calls: calls)
        let differing = zip(fast.samples, plain.samples).filter { $0.0 != $0.1 }.count
        print("\(kind) \(mono ? "mono" : "stereo"): \(differing) of \(fast.samples.count) differ (kernel vs Swift)")
        #expect(fast.samples.count == plain.samples.count)
        #expect(differing == 0)
        #expect(fast.voiceCounts == plain.voiceCounts)
        #expect(fast.noiseStates == plain.noiseStates)
        // Not trivially equal: voices sounded, and for the dense kinds many at once.
        #expect(fast.voiceCounts.contains { $0 > 0 })
        #expect(fast.samples.contains { Float(bitPattern: $0) != 0 })
        if kind == .drops { #expect(fast.voiceCounts.max()! > 16) }
        if kind == .stream { #expect(fast.voiceCounts.max()! > 8) }
    }

    /// Four generators rendered together (their voices in one kernel call, lanes shared between
    /// them) against each alone on the Swift loop: each output, voice count and noise state the same.
    @Test(arguments: [false, true])
    func fourGeneratorsTogetherGiveEachItsOwnBits(mono: Bool) {
        let kinds: [TextureKind] = [.stream, .rain, .drops, .crackle]
        func generators(kernel: Bool) -> [TextureGenerator] {
            kinds.enumerated().map { k, kind in
                let g = TextureGenerator(sampleRate: 48000, channelCount: mono ? 1 : 2, seed: 0, frameCapacity: 32)
                g.usesKernel = kernel
                g.kernelVoiceMinimum = 0
                g.reseed(UInt64(7 + k))
                g.set(TextureSettings(kind: kind, densityPerSecond: 400), rampFrames: 0)
                return g
            }
        }
        let together = generators(kernel: true), alone = generators(kernel: false)
        var differing = 0, total = 0
        for n in [32, 7, 1, 19] + [Int](repeating: 32, count: 1500) {
            TextureGenerator.render(together[0], together[1], together[2], together[3], frameCount: n)
            for g in alone { g.render(frameCount: n) }
            for (a, b) in zip(together, alone) {
                for i in 0..<n
                where a.output[i].x.bitPattern != b.output[i].x.bitPattern
                    || a.output[i].y.bitPattern != b.output[i].y.bitPattern
                {
                    differing += 1
                }
                total += n
                #expect(a.activeCount == b.activeCount)
                #expect(a.burstNoise == b.burstNoise)
            }
        }
        print("four together \(mono ? "mono" : "stereo"): \(differing) of \(total) frames differ")
        #expect(differing == 0)
        #expect(together.allSatisfy { $0.activeCount > 0 })
    }

    /// A ring's rotation by the kernels' polynomial against the exact cosine and sine, over every
    /// ω a ring can have (0 … `maximumOmega`), at a million points.
    @Test func ringRotationIsWithinTwoTenMillionthsOfCosineAndSine() {
        var worst = 0.0
        for k in 0...1_000_000 {
            let omega = Float(Double(TextureGenerator.maximumOmega) * Double(k) / 1_000_000)
            var c: Float = 0, s: Float = 0
            cnk_ring_rotation(0.999, omega, &c, &s)
            worst = max(worst, abs(Double(c) - 0.999 * cos(Double(omega))), abs(Double(s) - 0.999 * sin(Double(omega))))
        }
        #expect(worst < 2.1e-7, "largest error \(worst)")
    }
}
