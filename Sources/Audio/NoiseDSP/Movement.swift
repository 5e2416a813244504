#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A layer's slow movement: its level and/or its high cut swell and ebb around the set values.
///
/// The default (`.still`) moves nothing, and a still layer renders exactly as it did before
/// movement existed (the same samples, bit for bit).
public struct MovementSettings: Sendable, Equatable, BitwiseCopyable {
    /// Average length of one full swell (up and down), in seconds.
    public var periodSeconds: Float
    /// How far the level swings either side of the layer's volume, in dB (0: level is steady).
    public var levelDb: Float
    /// How far the high cut swings either side of its corner, in octaves (0: steady).
    public var highCutOctaves: Float

    public init(
        periodSeconds: Float = MovementSettings.defaultPeriodSeconds, levelDb: Float = 0, highCutOctaves: Float = 0
    ) {
        self.periodSeconds = periodSeconds
        self.levelDb = levelDb
        self.highCutOctaves = highCutOctaves
    }

    public static let defaultPeriodSeconds: Float = 10
    public static let still = MovementSettings()

    public var isStill: Bool { levelDb == 0 && highCutOctaves == 0 }
}

/// The control signal behind movement: a smooth, seeded random swell in −1…1.
///
/// It glides (raised-cosine, so no corners) between targets of alternating sign whose sizes are
/// drawn from 0.55…1, and each half swell lasts a random 0.7…1.3 × half the period: every swell
/// differs in height and length, like waves or gusts, yet the motion never stalls the way a
/// smoothed random walk can. Not a sine: no two cycles match.
///
/// Real-time safety: integer and float arithmetic and one `cosf`; no allocation.
public struct MovementModulator: Sendable {
    var random: SplitMix64
    var from: Float = 0
    var to: Float = 0
    /// Position in the current half swell, 0…1.
    var phase: Float = 0
    /// Frames in the current half swell.
    var lengthFrames: Float = 1
    var sign: Float = 1

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        lengthFrames = 0  // the first `advance` draws the first segment
    }

    /// A uniform draw in [0, 1).
    mutating func uniform() -> Float {
        Float(random.next() >> 40) * (1 / Float(1 << 24))
    }

    /// The current value, −1…1.
    @inline(__always)
    public var value: Float {
        let s = 0.5 - 0.5 * cosf(Float.pi * phase)
        return from + (to - from) * s
    }

    /// Moves `frames` frames on, for a period of `periodFrames`.
    public mutating func advance(_ frames: Int, periodFrames: Float) {
        if lengthFrames <= 0 {
            // Start at a random point of a random half swell, rising or falling: a render of any
            // length is as likely to begin in a trough as on a crest, so short renders are not
            // louder on average than long ones.
            sign = uniform() < 0.5 ? -1 : 1
            from = -sign * (0.55 + 0.45 * uniform())
            to = sign * (0.55 + 0.45 * uniform())
            lengthFrames = max(1, 0.5 * periodFrames * (0.7 + 0.6 * uniform()))
            phase = uniform()
        }
        phase += Float(frames) / lengthFrames
        while phase >= 1 {
            let carried = (phase - 1) * lengthFrames
            from = to
            sign = -sign
            to = sign * (0.55 + 0.45 * uniform())
            lengthFrames = max(1, 0.5 * periodFrames * (0.7 + 0.6 * uniform()))
            phase = carried / lengthFrames
        }
    }

    /// The long-run distribution of the modulator's value, for averages taken off the render thread:
    /// `binCount` bins over −1…1 (centres and the fraction of time spent in each), from a
    /// deterministic run of 40 000 half swells (the distribution does not depend on the period).
    /// Averages over it are within 0.01 dB of a run ten times longer.
    public static func distribution(binCount: Int = 64) -> (values: [Float], weights: [Double]) {
        var m = MovementModulator(seed: 0x5EED)
        var counts = [Double](repeating: 0, count: binCount)
        let period: Float = 2000  // frames: 1000 per half swell on average, sampled every 10
        for _ in 0..<2_000_000 {
            m.advance(10, periodFrames: period)
            let b = min(binCount - 1, max(0, Int((m.value + 1) / 2 * Float(binCount))))
            counts[b] += 1
        }
        let total = counts.reduce(0, +)
        return ((0..<binCount).map { (Float($0) + 0.5) / Float(binCount) * 2 - 1 }, counts.map { $0 / total })
    }
}
