#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sound of one raindrop: the air bubble it traps rings as a damped sinusoid whose pitch
/// rises as the bubble nears the surface (K. van den Doel, "Physically based models for liquid
/// sounds", ACM TAP 2005; M. Minnaert, 1933). Small bubbles ring high and die fast, big ones
/// ring lower and longer.
public enum DropPhysics {
    /// Minnaert resonance of an air bubble in water: f₀·r ≈ 3.26 m/s.
    public static let minnaertHzMetres: Float = 3.26
    /// Radii drawn for drops, log-uniformly: 0.5 mm rings at 6.5 kHz, 4 mm at 815 Hz.
    public static let radiusRangeMetres: ClosedRange<Float> = 0.0005...0.004
    /// Each drop's amplitude before the energy scaling, drawn uniformly.
    public static let amplitudeRange: ClosedRange<Float> = 0.5...1
    /// Pitch rise: f(t) = f₀·(1 + ξ·d·t), van den Doel's ξ for bubbles near the surface.
    public static let riseFactor: Float = 0.1
    /// A voice ends when its envelope is 80 dB down (ln 10⁴ time constants).
    public static let lifetimeTimeConstants: Float = 9.2103

    public static func resonanceHz(radiusMetres r: Float) -> Float { minnaertHzMetres / r }

    /// Amplitude decay rate d (1/s) of a bubble of radius r: viscous/radiation and thermal terms.
    public static func dampingPerSecond(radiusMetres r: Float) -> Float { 0.13 / r + 0.0072 / (r * r.squareRoot()) }

    /// The frequency the drop's pitch glide sits at on average, weighted by its energy (e^{−2dt}
    /// puts the mean time at 1/(2d)): what the loudness model uses for the glide.
    public static func meanRingingHz(radiusMetres r: Float) -> Float {
        resonanceHz(radiusMetres: r) * (1 + riseFactor / 2)
    }

    /// The range a drop's frequency moves through while it is still within `dropDb` of its start:
    /// f₀ up to f₀·(1 + ξ·d·t) at the time the envelope has fallen that far.
    public static func frequencyRangeHz(radiusMetres r: Float, withinDb dropDb: Float) -> ClosedRange<Float> {
        let f0 = resonanceHz(radiusMetres: r)
        let seconds = dropDb / 20 * logf(10) / dampingPerSecond(radiusMetres: r)
        return f0...(f0 * (1 + riseFactor * dampingPerSecond(radiusMetres: r) * seconds))
    }

    /// Each drop's amplitude is scaled by √(d/`referenceDampingPerSecond`) so every drop carries
    /// about the same energy (a short high drop is as audible as a long low one). The reference is
    /// chosen so drops at 40/s have the power of the white noise a noise layer starts from
    /// (variance 1/3 per channel): λ·E[a²]·E[g²]/(4·d_ref) = 1/3 with E[a²] = 7/12, E[g²] = 1/2.
    public static let referenceDampingPerSecond: Float = 8.75
}

/// The sound of a fire: sparse noise bursts with an instant attack and an exponential decay,
/// mostly short clicks, some longer pops.
public enum CrackleShape {
    /// Share of events that are pops.
    public static let popShare: Float = 0.15
    /// Decay time constants, drawn log-uniformly per class.
    public static let clickDecaySeconds: ClosedRange<Float> = 0.0001...0.0005
    public static let popDecaySeconds: ClosedRange<Float> = 0.0015...0.006
    /// Burst amplitudes before `amplitudeScale`, drawn uniformly per class.
    public static let clickAmplitude: ClosedRange<Float> = 0.5...1
    public static let popAmplitude: ClosedRange<Float> = 0.25...0.5
    /// Makes crackle at 8 events/s carry the power of white noise (variance 1/3 per channel):
    /// λ·s²·E[a²τ]/12 = 1/3 with E[a²τ] = 1.94·10⁻⁴ s for the draws above.
    public static let amplitudeScale: Float = 50.7
}
