import Foundation
import Testing

@testable import NoiseDSP

/// The texture bed's AVX2 loop against the Swift loop it replaces on CPUs that have AVX2: the same
/// samples, bit for bit, so a render's bytes do not depend on which one ran.
@Suite struct TextureBedKernelTests {
    /// `calls` sub-blocks of the bed for `kind`, on the chosen loop, one after the other.
    static func rendered(_ kind: TextureKind, mono: Bool, avx2: Bool, calls: [Int]) -> [Float] {
        var bed = TextureBed(sampleRate: 48000, seed: 7)
        bed.usesAVX2 = avx2
        bed.set(TextureProfile.of(kind)!)
        var out: [Float] = []
        for n in calls {
            var block = [SIMD2<Float>](repeating: .zero, count: n)
            block.withUnsafeMutableBufferPointer { bed.render(into: $0.baseAddress!, frameCount: n, isMono: mono) }
            for frame in block { out += [frame.x, frame.y] }
        }
        return out
    }

    static let kinds: [TextureKind] = [.rain, .surf, .wind, .fire, .fan, .stream]

    @Test(.enabled(if: MasterFilter.cpuHasAVX2, "this CPU has no AVX2"), arguments: kinds, [false, true])
    func avx2LoopGivesTheSameBits(kind: TextureKind, mono: Bool) {
        // Whole groups of eight, a remainder, sub-blocks shorter than eight, and many 32s (a second).
        let calls = [32, 32, 7, 1, 19, 8, 31] + [Int](repeating: 32, count: 1500)
        let wide = Self.rendered(kind, mono: mono, avx2: true, calls: calls)
        let narrow = Self.rendered(kind, mono: mono, avx2: false, calls: calls)
        let differing = zip(wide, narrow).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        print("\(kind) \(mono ? "mono" : "stereo"): \(differing) of \(wide.count) samples differ (AVX2 vs Swift)")
        #expect(wide.count == narrow.count)
        #expect(differing == 0)
        // Not trivially equal: the bed made sound, and in stereo each channel its own (in mono the
        // line, which wind and fan have, still differs between the channels).
        #expect(wide.contains { $0 != 0 })
        if !mono {
            let left = stride(from: 0, to: wide.count, by: 2).map { wide[$0] }
            let right = stride(from: 1, to: wide.count, by: 2).map { wide[$0] }
            #expect(left != right)
        }
    }

    /// The envelopes' e^x, eight at a time, against the exact value over the range a band's
    /// log-envelope can take and beyond (−87 … 88, 24,000 points: the test build is unoptimised,
    /// and 200,000 took 21 s; the largest error found there was 9.6·10⁻⁸): within 3·10⁻⁷ relative.
    @Test func exp8IsWithinThreeTenMillionths() {
        var worst = 0.0
        for k in stride(from: 0, to: 24_000, by: 8) {
            let x = SIMD8<Float>((0..<8).map { Float(-87 + 175 * Double(k + $0) / 24_000) })
            let y = TextureBed.exp8(x)
            for lane in 0..<8 {
                let exact = Foundation.exp(Double(x[lane]))
                worst = max(worst, abs(Double(y[lane]) - exact) / exact)
            }
        }
        #expect(worst < 3e-7, "largest relative error \(worst)")
    }
}
