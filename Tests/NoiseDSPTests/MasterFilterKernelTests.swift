import Testing

@testable import NoiseDSP

/// The master filter's cascade kernel against a plain section-by-section cascade: the same samples,
/// bit for bit, on the AVX2 build and the baseline build, so a render's bytes do not depend on
/// which one ran, on how the signal is split into calls, or on the pipeline's filling and draining.
@Suite struct MasterFilterKernelTests {
    static let calls = [1024, 1024, 7, 300, 19, 1, 18, 20, 1024, 2048, 512, 3]

    /// Seeded stereo noise for each call in `calls`.
    static func noise(_ calls: [Int]) -> [[Float]] {
        var random = SplitMix64(seed: 11)
        return calls.map { n in
            (0..<(2 * n)).map { _ in Float(Int64(random.next() >> 40) - (1 << 23)) / Float(1 << 23) }
        }
    }

    /// Stereo noise through `design`, in calls of the given sizes, on the chosen build of the kernel.
    static func filtered(_ design: MasterFilterDesign, avx2: Bool, calls: [Int]) -> [Float] {
        let filter = MasterFilter()
        filter.usesAVX2 = avx2
        let sections = design.sections(sampleRate: 48000)
        sections.withUnsafeBufferPointer { filter.setTarget($0.baseAddress!, count: $0.count, rampFrames: 0) }
        var out: [Float] = []
        for var x in noise(calls) {
            x.withUnsafeMutableBufferPointer {
                filter.process($0.baseAddress!, frameCount: $0.count / 2, channelCount: 2)
            }
            out += x
        }
        return out
    }

    /// The reference: each section over the whole call in turn, each channel alone, in Float with
    /// the kernel's order of operations; the state carried between calls, and flushed below 1e-20
    /// after each, as `MasterFilter` does.
    static func plain(_ design: MasterFilterDesign, calls: [Int]) -> [Float] {
        let sections = design.sections(sampleRate: 48000)
        var state = [Float](repeating: 0, count: 4 * sections.count)
        var out: [Float] = []
        for var x in noise(calls) {
            let n = x.count / 2
            for (k, c) in sections.enumerated() {
                for channel in 0..<2 {
                    var s1 = state[4 * k + channel], s2 = state[4 * k + 2 + channel]
                    for t in 0..<n {
                        let v = x[2 * t + channel]
                        let y = c.b0 * v + s1
                        s1 = c.b1 * v - c.a1 * y + s2
                        s2 = c.b2 * v - c.a2 * y
                        x[2 * t + channel] = y
                    }
                    state[4 * k + channel] = s1
                    state[4 * k + 2 + channel] = s2
                }
            }
            for i in state.indices where state[i] < 1e-20 && state[i] > -1e-20 { state[i] = 0 }
            out += x
        }
        return out
    }

    static let designs: [MasterFilterDesign] = [
        MasterFilterDesign(correction: .equalLoudness(phon: 40), notch: NotchSettings(centreHz: 6000)),
        MasterFilterDesign(correction: .equalLoudness(phon: 60)),
        MasterFilterDesign(notch: NotchSettings(centreHz: 4000, widthOctaves: 0.5)),
    ]

    static func differing(_ a: [Float], _ b: [Float]) -> Int {
        a.count != b.count ? max(a.count, b.count) : zip(a, b).filter { $0.0.bitPattern != $0.1.bitPattern }.count
    }

    @Test(arguments: 0..<3)
    func baselineKernelEqualsThePlainCascade(design: Int) {
        let kernel = Self.filtered(Self.designs[design], avx2: false, calls: Self.calls)
        let plain = Self.plain(Self.designs[design], calls: Self.calls)
        let differing = Self.differing(kernel, plain)
        print("design \(design): \(differing) of \(plain.count) samples differ from the plain cascade")
        #expect(differing == 0)
        // Not trivially equal: the filter changed the signal.
        #expect(kernel != Self.noise(Self.calls).flatMap { $0 })
    }

    @Test(.enabled(if: MasterFilter.cpuHasAVX2, "this CPU has no AVX2"), arguments: 0..<3)
    func avx2KernelGivesTheSameBits(design: Int) {
        let wide = Self.filtered(Self.designs[design], avx2: true, calls: Self.calls)
        let narrow = Self.filtered(Self.designs[design], avx2: false, calls: Self.calls)
        let differing = Self.differing(wide, narrow)
        print("design \(design): \(differing) of \(wide.count) samples differ between the AVX2 and baseline kernels")
        #expect(differing == 0)
    }
}
