import Foundation
import Testing

@testable import TextureStatistics

/// The transform against the definition, for Stockham lengths and Bluestein's.
@Suite struct FourierTransformTests {
    @Test(arguments: [1, 2, 3, 4, 5, 7, 12, 16, 60, 97, 250, 360, 1001])
    func matchesTheDefinition(n: Int) {
        let x = GaussianSamples.make(count: 2 * n, seed: UInt64(n))
        var re = Array(x[0..<n]), im = Array(x[n...])
        let f = FourierTransform(count: n)
        f.forward(&re, &im)
        var worst = 0.0
        for k in 0..<n {
            var sr = 0.0, si = 0.0
            for t in 0..<n {
                let a = -2 * Double.pi * Double((k * t) % n) / Double(n)
                sr += x[t] * cos(a) - x[n + t] * sin(a)
                si += x[t] * sin(a) + x[n + t] * cos(a)
            }
            worst = max(worst, abs(sr - re[k]), abs(si - im[k]))
        }
        #expect(worst < 1e-9 * Double(n), "n = \(n): error \(worst)")
        f.inverse(&re, &im)
        for t in 0..<n { #expect(abs(re[t] - x[t]) < 1e-12 * Double(n) && abs(im[t] - x[n + t]) < 1e-12 * Double(n)) }
    }

    @Test func smoothLengths() {
        #expect(FourierTransform.smoothLength(atLeast: 97) == 100)
        #expect(FourierTransform.smoothLength(atLeast: 1_200_000) == 1_200_000)
        #expect(FourierTransform.smoothFactors(7) == nil)
    }
}
