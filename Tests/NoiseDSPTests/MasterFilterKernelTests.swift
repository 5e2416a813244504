import Foundation
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
    static func filtered(_ design: MasterFilterDesign, kernel: MasterFilter.Kernel, calls: [Int]) -> [Float] {
        let filter = MasterFilter()
        filter.kernel = kernel
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
    /// the kernel's order of operations (direct form I, b0 divided out, the product of the b0s one
    /// gain on the input); the history carried between calls, and flushed below 1e-20 after each,
    /// as `MasterFilter` does.
    static func plain(_ design: MasterFilterDesign, calls: [Int]) -> [Float] {
        var gain: Float = 1
        var rows: [(b1: Float, b2: Float, a1: Float, a2: Float)] = []
        for c in design.sections(sampleRate: 48000) {
            gain *= c.b0
            if c.b1 == 0 && c.b2 == 0 && c.a1 == 0 && c.a2 == 0 { continue }
            rows.append((c.b1 / c.b0, c.b2 / c.b0, c.a1, c.a2))
        }
        // history[k]: (newest left, newest right, older left, older right); [0] the scaled input,
        // [k + 1] section k's outputs.
        var history = [[Float]](repeating: [0, 0, 0, 0], count: rows.count + 1)
        var out: [Float] = []
        for var x in noise(calls) {
            let n = x.count / 2
            for channel in 0..<2 {
                for t in 0..<n { x[2 * t + channel] *= gain }
                // A section's input history is the one before its output history as the call began.
                let old = history
                var before = history[0]
                for t in 0..<n {
                    let v = x[2 * t + channel]
                    before[2 + channel] = before[channel]
                    before[channel] = v
                }
                for (k, c) in rows.enumerated() {
                    var v1 = old[k][channel], v2 = old[k][2 + channel]
                    var y1 = old[k + 1][channel], y2 = old[k + 1][2 + channel]
                    for t in 0..<n {
                        let v = x[2 * t + channel]
                        let y = (((c.b1 * v1 + c.b2 * v2) - c.a2 * y2) + v) - c.a1 * y1
                        (v2, v1, y2, y1) = (v1, v, y1, y)
                        x[2 * t + channel] = y
                    }
                    if k == 0 { history[0] = before }
                    history[k + 1][channel] = y1
                    history[k + 1][2 + channel] = y2
                }
                if rows.isEmpty { history[0] = before }
            }
            for k in history.indices {
                for i in 0..<4 where history[k][i] < 1e-20 && history[k][i] > -1e-20 { history[k][i] = 0 }
            }
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
        let kernel = Self.filtered(Self.designs[design], kernel: .baseline, calls: Self.calls)
        let plain = Self.plain(Self.designs[design], calls: Self.calls)
        let differing = Self.differing(kernel, plain)
        print("design \(design): \(differing) of \(plain.count) samples differ from the plain cascade")
        #expect(differing == 0)
        // Not trivially equal: the filter changed the signal.
        #expect(kernel != Self.noise(Self.calls).flatMap { $0 })
    }

    @Test(.enabled(if: MasterFilter.cpuHasAVX2, "this CPU has no AVX2"), arguments: 0..<3)
    func avx2KernelGivesTheSameBits(design: Int) {
        let wide = Self.filtered(Self.designs[design], kernel: .avx2, calls: Self.calls)
        let narrow = Self.filtered(Self.designs[design], kernel: .baseline, calls: Self.calls)
        let differing = Self.differing(wide, narrow)
        print("design \(design): \(differing) of \(wide.count) samples differ between the AVX2 and baseline kernels")
        #expect(differing == 0)
    }

    @Test(.enabled(if: MasterFilter.cpuHasAVX512VL, "this CPU has no AVX-512VL"), arguments: 0..<3)
    func avx512KernelGivesTheSameBits(design: Int) {
        let wide = Self.filtered(Self.designs[design], kernel: .avx512vl, calls: Self.calls)
        let narrow = Self.filtered(Self.designs[design], kernel: .baseline, calls: Self.calls)
        let differing = Self.differing(wide, narrow)
        print(
            "design \(design): \(differing) of \(wide.count) samples differ between the AVX-512VL and baseline kernels")
        #expect(differing == 0)
    }

    /// A heavy design (20 phon and a notch: three groups of sections) and the most sections a
    /// design can have (five groups) through every build.
    @Test func everyGroupCountMatchesThePlainCascade() {
        let heavy = MasterFilterDesign(correction: .equalLoudness(phon: 20), notch: NotchSettings(centreHz: 3000))
        let centres: [Double] = (0..<24).map { 63 * pow(2, Double($0) / 3) }
        let gains: [Double] = centres.map { f in 11 * sin(2 * Double.pi * log2(f / 63) / 1.5) }
        let wiggly = CorrectionCurve(centresHz: centres, gainsDb: gains)
        for design in [heavy, MasterFilterDesign(correction: wiggly, notch: NotchSettings(centreHz: 8000))] {
            let plain = Self.plain(design, calls: Self.calls)
            print("\(design.sections(sampleRate: 48000).count - 1) sections")
            #expect(Self.differing(Self.filtered(design, kernel: .baseline, calls: Self.calls), plain) == 0)
            if MasterFilter.cpuHasAVX2 {
                #expect(Self.differing(Self.filtered(design, kernel: .avx2, calls: Self.calls), plain) == 0)
            }
        }
    }
}
