import Testing

@testable import NoiseDSP

/// `NoiseSource.skip` against the samples it stands for: a layer playing its texture skips its
/// noise, and the noise it fades back to must be what it would have been.
@Suite struct NoiseSourceTests {
    @Test(arguments: [32, 31, 1, 0])
    func skippingEqualsDrawing(frames: Int) {
        var seeds = SplitMix64(seed: 99)
        var drawn = NoiseSource(seeds: &seeds)
        var skipped = drawn
        for round in 0..<200 {
            for _ in 0..<frames { _ = drawn.next() }
            skipped.skip(frames)
            #expect(skipped.next() == drawn.next(), "round \(round)")
        }
    }
}
