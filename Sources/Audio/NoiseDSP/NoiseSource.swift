import CNoiseKernels

/// Four independent uniform white-noise streams at once (one per SIMD lane).
///
/// Each lane is a xorshift32 generator (Marsaglia 2003, shifts 13/17/5) plus a Weyl sequence with
/// an odd, lane-specific increment; the sum breaks xorshift's linearity in the low bits and the
/// combined period exceeds 2^63 samples, far past an 8-hour night. Seeded, so renders repeat.
///
/// Real-time safety: `next()` is branch-free integer arithmetic; no allocation.
public struct NoiseSource: Sendable {
    @usableFromInline var xorshift: SIMD4<UInt32>
    @usableFromInline var weyl: SIMD4<UInt32>
    @usableFromInline var weylStep: SIMD4<UInt32>

    public init(seeds: inout SplitMix64) {
        var x = SIMD4<UInt32>(repeating: 0)
        var w = SIMD4<UInt32>(repeating: 0)
        var s = SIMD4<UInt32>(repeating: 0)
        for lane in 0..<4 {
            let a = seeds.next(), b = seeds.next()
            // xorshift must never hold 0.
            x[lane] = UInt32(truncatingIfNeeded: a) | 1
            w[lane] = UInt32(truncatingIfNeeded: a >> 32)
            s[lane] = UInt32(truncatingIfNeeded: b) | 1
        }
        xorshift = x
        weyl = w
        weylStep = s
    }

    /// The next sample of each lane, uniform in [-1, 1) (variance 1/3).
    @inlinable @inline(__always)
    public mutating func next() -> SIMD4<Float> {
        var x = xorshift
        x ^= x &<< 13
        x ^= x &>> 17
        x ^= x &<< 5
        xorshift = x
        weyl &+= weylStep
        let bits = SIMD4<Int32>(truncatingIfNeeded: x &+ weyl)
        return SIMD4<Float>(bits) * (1.0 / 2_147_483_648.0)
    }

    /// Moves on as `frames` calls of `next()` would, without making the samples (a layer playing
    /// its texture still advances its noise, so the noise it fades back to is the same): 32 frames,
    /// a sub-block, in one jump of each lane's xorshift32 (`cnk_xorshift32_jump32`).
    public mutating func skip(_ frames: Int) {
        guard frames == 32 else {
            for _ in 0..<frames { _ = next() }
            return
        }
        xorshift = SIMD4(
            cnk_xorshift32_jump32(xorshift[0]), cnk_xorshift32_jump32(xorshift[1]),
            cnk_xorshift32_jump32(xorshift[2]), cnk_xorshift32_jump32(xorshift[3]))
        weyl &+= weylStep &* 32
    }

    /// Variance of `next()`: uniform on [-1, 1).
    public static let variance: Double = 1.0 / 3.0
}
