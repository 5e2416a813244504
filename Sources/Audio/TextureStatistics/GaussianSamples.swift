import NoiseDSP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard normal samples from a seed: SplitMix64 through the Box–Muller transform, the same
/// sequence on every platform (the tests regenerate it to compare with texstat's figures).
public enum GaussianSamples {
    public static func make(count n: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        var out = [Double](repeating: 0, count: max(n, 0))
        var i = 0
        while i < n {
            // 53-bit uniforms; the first is kept off zero for the logarithm.
            let u1 = (Double(rng.next() >> 11) + 0.5) / 9_007_199_254_740_992
            let u2 = Double(rng.next() >> 11) / 9_007_199_254_740_992
            let r = (-2 * log(u1)).squareRoot()
            out[i] = r * cos(2 * Double.pi * u2)
            if i + 1 < n { out[i + 1] = r * sin(2 * Double.pi * u2) }
            i += 2
        }
        return out
    }
}
