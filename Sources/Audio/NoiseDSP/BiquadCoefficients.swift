#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Normalised second-order section coefficients (a0 = 1), computed off the render thread or once
/// per control step; plain values so they can be copied into SIMD lanes.
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    init(b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double) {
        self.init(b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0)
    }

    /// Passes the signal unchanged.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// |H|² at `frequencyHz`.
    public func powerResponse(atHz frequencyHz: Double, sampleRate: Double) -> Double {
        powerResponse(cosOmega: cos(2 * .pi * frequencyHz / sampleRate))
    }

    /// |H|² given cos(ω); cos(2ω) is derived, so a frequency grid needs one cosine per point.
    @inlinable
    public func powerResponse(cosOmega c: Double) -> Double {
        let c2 = 2 * c * c - 1
        let num = b0 * b0 + b1 * b1 + b2 * b2 + 2 * (b0 * b1 + b1 * b2) * c + 2 * b0 * b2 * c2
        let den = 1 + a1 * a1 + a2 * a2 + 2 * (a1 + a1 * a2) * c + 2 * a2 * c2
        return num / den
    }
}

/// Filter designs from Robert Bristow-Johnson's Audio EQ Cookbook (bilinear transform with the
/// centre frequency pre-warped, so −3 dB and band centres land exactly where asked).
public enum BiquadDesign {
    static func omega(_ hz: Double, _ sampleRate: Double) -> (cos: Double, sin: Double) {
        let w = 2 * Double.pi * min(hz, sampleRate * 0.49) / sampleRate
        return (cos(w), sin(w))
    }

    /// Second-order Butterworth high-pass (Q = 1/√2): −3 dB at `cutoffHz`, 12 dB/octave below.
    public static func highPass(cutoffHz: Double, sampleRate: Double, q: Double = 0.5.squareRoot())
        -> BiquadCoefficients
    {
        let (c, s) = omega(cutoffHz, sampleRate)
        let alpha = s / (2 * q)
        return BiquadCoefficients(
            b0: (1 + c) / 2, b1: -(1 + c), b2: (1 + c) / 2,
            a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    /// Second-order Butterworth low-pass (Q = 1/√2): −3 dB at `cutoffHz`, 12 dB/octave above.
    public static func lowPass(cutoffHz: Double, sampleRate: Double, q: Double = 0.5.squareRoot()) -> BiquadCoefficients
    {
        let (c, s) = omega(cutoffHz, sampleRate)
        let alpha = s / (2 * q)
        return BiquadCoefficients(
            b0: (1 - c) / 2, b1: 1 - c, b2: (1 - c) / 2,
            a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    /// Peaking band: `gainDb` at `centreHz`; Q defined so that equal boost and cut cancel.
    public static func peaking(centreHz: Double, q: Double, gainDb: Double, sampleRate: Double) -> BiquadCoefficients {
        if gainDb == 0 { return .identity }
        let a = pow(10, gainDb / 40)
        let (c, s) = omega(centreHz, sampleRate)
        let alpha = s / (2 * q)
        return BiquadCoefficients(
            b0: 1 + alpha * a, b1: -2 * c, b2: 1 - alpha * a,
            a0: 1 + alpha / a, a1: -2 * c, a2: 1 - alpha / a)
    }

    /// Low shelf with slope S = 1 (the steepest that stays monotonic); `gainDb` below `cornerHz`.
    public static func lowShelf(cornerHz: Double, gainDb: Double, sampleRate: Double) -> BiquadCoefficients {
        if gainDb == 0 { return .identity }
        let a = pow(10, gainDb / 40)
        let (c, s) = omega(cornerHz, sampleRate)
        let k = 2 * a.squareRoot() * (s / 2) * 2.0.squareRoot()
        return BiquadCoefficients(
            b0: a * ((a + 1) - (a - 1) * c + k),
            b1: 2 * a * ((a - 1) - (a + 1) * c),
            b2: a * ((a + 1) - (a - 1) * c - k),
            a0: (a + 1) + (a - 1) * c + k,
            a1: -2 * ((a - 1) + (a + 1) * c),
            a2: (a + 1) + (a - 1) * c - k)
    }

    /// High shelf with slope S = 1; `gainDb` above `cornerHz`.
    public static func highShelf(cornerHz: Double, gainDb: Double, sampleRate: Double) -> BiquadCoefficients {
        if gainDb == 0 { return .identity }
        let a = pow(10, gainDb / 40)
        let (c, s) = omega(cornerHz, sampleRate)
        let k = 2 * a.squareRoot() * (s / 2) * 2.0.squareRoot()
        return BiquadCoefficients(
            b0: a * ((a + 1) + (a - 1) * c + k),
            b1: -2 * a * ((a - 1) + (a + 1) * c),
            b2: a * ((a + 1) + (a - 1) * c - k),
            a0: (a + 1) - (a - 1) * c + k,
            a1: 2 * ((a - 1) - (a + 1) * c),
            a2: (a + 1) - (a - 1) * c - k)
    }
}
