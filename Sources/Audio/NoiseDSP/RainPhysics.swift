#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raindrops as they land: sizes after Marshall & Palmer (1948), N(D) ∝ e^{−ΛD} with
/// Λ = 4.1·R^−0.21 mm⁻¹ for a rain rate R in mm/h, and the fall speed after Atlas et al. (1973),
/// v(D) ≈ 9.65 − 10.3·e^{−0.6·D} m/s. An impact's pressure amplitude follows its momentum's
/// square root of energy, ∝ D^1.5·v (mass ∝ D³): the few big drops are the loud taps.
public enum RainPhysics {
    /// Drops smaller than this are not heard as taps of their own (they are the bed's patter).
    public static let smallestDiameterMm: Float = 0.5
    public static let largestDiameterMm: Float = 6
    /// The taps a second heard per mm/h of rain (sets Λ from the layer's density).
    public static let tapsPerSecondPerMmHour: Float = 15
    /// Amplitude of a 2 mm drop (the reference).
    public static let referenceDiameterMm: Float = 2
    /// Fire crackles and other non-raindrop taps: amplitudes drawn log-uniformly.
    public static let crackleAmplitude: ClosedRange<Float> = 0.1...1

    public static func rainRateMmHour(densityPerSecond: Float) -> Float {
        max(densityPerSecond / tapsPerSecondPerMmHour, 0.05)
    }

    public static func lambdaPerMm(densityPerSecond: Float) -> Float {
        4.1 * powf(rainRateMmHour(densityPerSecond: densityPerSecond), -0.21)
    }

    /// A diameter (mm) from the Marshall–Palmer distribution above `smallestDiameterMm`, for u in (0, 1].
    public static func drawDiameterMm(u: Float, densityPerSecond: Float) -> Float {
        min(smallestDiameterMm - logf(u) / lambdaPerMm(densityPerSecond: densityPerSecond), largestDiameterMm)
    }

    public static func fallSpeedMetresPerSecond(diameterMm d: Float) -> Float { max(9.65 - 10.3 * expf(-0.6 * d), 0.5) }

    public static func impactAmplitude(diameterMm d: Float) -> Float {
        let r = referenceDiameterMm
        return powf(d / r, 1.5) * fallSpeedMetresPerSecond(diameterMm: d) / fallSpeedMetresPerSecond(diameterMm: r)
    }

    /// E[a²] of the taps' amplitudes at a density (numerically, 256 nodes of the distribution).
    /// Off the render thread (the loudness model).
    public static func meanSquareImpactAmplitude(densityPerSecond: Float) -> Double {
        let n = 256
        var sum = 0.0
        for k in 0..<n {
            let u = (Float(k) + 0.5) / Float(n)
            let a = Double(impactAmplitude(diameterMm: drawDiameterMm(u: u, densityPerSecond: densityPerSecond)))
            sum += a * a
        }
        return sum / Double(n)
    }

    public static func meanSquareCrackleAmplitude() -> Double {
        let lo = log(Double(crackleAmplitude.lowerBound)), hi = log(Double(crackleAmplitude.upperBound))
        return (exp(2 * hi) - exp(2 * lo)) / (2 * (hi - lo))
    }
}
