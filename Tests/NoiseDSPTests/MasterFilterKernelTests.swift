import Testing

@testable import NoiseDSP

/// The master filter's AVX2 pipeline against the Swift one it replaces on CPUs that have AVX2:
/// the same samples, bit for bit, so a render's bytes do not depend on which one ran.
@Suite struct MasterFilterKernelTests {
    /// Stereo noise through `design`, in calls of the given sizes, on the chosen path.
    static func filtered(_ design: MasterFilterDesign, avx2: Bool, calls: [Int]) -> [Float] {
        let filter = MasterFilter()
        filter.usesAVX2 = avx2
        let sections = design.sections(sampleRate: 48000)
        sections.withUnsafeBufferPointer { filter.setTarget($0.baseAddress!, count: $0.count, rampFrames: 0) }
        var random = SplitMix64(seed: 11)
        var out: [Float] = []
        for n in calls {
            var x = (0..<(2 * n)).map { _ in Float(Int64(random.next() >> 40) - (1 << 23)) / Float(1 << 23) }
            x.withUnsafeMutableBufferPointer { filter.process($0.baseAddress!, frameCount: n, channelCount: 2) }
            out += x
        }
        return out
    }

    static let designs: [MasterFilterDesign] = [
        MasterFilterDesign(correction: .equalLoudness(phon: 40), notch: NotchSettings(centreHz: 6000)),
        MasterFilterDesign(correction: .equalLoudness(phon: 60)),
        MasterFilterDesign(notch: NotchSettings(centreHz: 4000, widthOctaves: 0.5)),
    ]

    @Test(.enabled(if: MasterFilter.cpuHasAVX2, "this CPU has no AVX2"), arguments: 0..<3)
    func avx2PipelineGivesTheSameBits(design: Int) {
        let calls = [1024, 1024, 7, 300, 19, 1024, 2048, 512]
        let wide = Self.filtered(Self.designs[design], avx2: true, calls: calls)
        let narrow = Self.filtered(Self.designs[design], avx2: false, calls: calls)
        let differing = zip(wide, narrow).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        print("design \(design): \(differing) of \(wide.count) samples differ between the AVX2 and Swift pipelines")
        #expect(wide.count == narrow.count)
        #expect(differing == 0)
        // Not trivially equal: the filter changed the signal.
        #expect(wide != Self.filtered(.off, avx2: false, calls: calls))
    }
}
