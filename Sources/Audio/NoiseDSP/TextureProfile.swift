/// What a statistics-driven texture (`TextureBed` plus its events) is made of, per kind: the
/// statistics a listener uses (McDermott & Simoncelli 2011) set from the physics of the source.
///
/// - `bandGainsDb`: the bed's spectrum, one gain per ERB-spaced band (`TextureBed.bandEdgesHz`).
/// - Envelope drivers: each band's log-envelope is `depth · z`, z a unit-variance mix of a shared
///   and an own Ornstein–Uhlenbeck process, each the sum of a slow one (swells, flaring) and a
///   fast one (flutter); `sharedShare` is how much of z is shared (cross-band co-modulation),
///   `depth` the log-envelope's spread (sparsity: the exponential makes the envelope skewed).
/// - Surges: Poisson onsets (never a clock) of slow asymmetric pulses that lift bands by
///   `surgeDepth`: breaking waves (onset, crash, wash back), gusts, or thunder's rolling rumble
///   (a surge with later sub-peaks).
/// - Blade pass (fans): the bed's envelope pulses at `bladePassHz` with its second harmonic, the
///   rotation wandering by a slow random walk so the pulses never lock to a clock.
/// - A narrow line (`lineHz`): a fan's motor hum or the wind's whistle, riding the shared driver.
/// - Events at the layer's density: broadband taps (raindrop impacts, fire crackles) through a
///   low-pass set by the surface (`brightness`), a share of them ringing as bubbles.
public struct TextureProfile: Sendable, Equatable {
    public var bandGainsDb: SIMD8<Float>
    public var depth: SIMD8<Float>
    public var sharedShare: Float
    public var flutterShare: Float
    public var swellSeconds: Float
    public var flutterSeconds: Float
    public var surgePerSecond: Float = 0
    public var surgeRiseSeconds: Float = 1
    public var surgeFallSeconds: Float = 2
    public var surgeDepth: SIMD8<Float> = .zero
    /// Later sub-peaks of each surge (0: a surge is one pulse). Thunder rolls: sound from a channel
    /// kilometres long reaches the ear over seconds, each farther stretch of it and each echo (ground,
    /// hills, cloud base) a later, weaker peak. The gaps are exponential (mean
    /// `surgeEchoGapSeconds`), the j-th sub-peak's amplitude the first's × `surgeEchoDecay`^j ×
    /// U(0.5, 1).
    public var surgeEchoCount = 0
    public var surgeEchoGapSeconds: Float = 1
    public var surgeEchoDecay: Float = 0.7
    /// Thunder's crack: with `crackSeconds` > 0 the events (taps) follow a level that jumps at
    /// each surge peak and dies over `crackSeconds` (instead of the shared driver, `eventDepth`):
    /// the tearing clicks of the channel's nearest stretch, loud in the first tenths of a second.
    /// A later sub-peak's crack is `crackEchoDecay`^j weaker again than its rumble: it comes from
    /// farther along the channel, and the air has taken more of its highs.
    public var crackSeconds: Float = 0
    public var crackEchoDecay: Float = 0.5
    public var bladePassHz: Float = 0
    public var bladePassDepth: Float = 0
    public var lineHz: Float = 0
    public var lineQ: Float = 20
    /// The line's share of the bed's power (0 without a line).
    public var linePowerShare: Float = 0
    /// Events: what share of the layer's power budget the taps and rings get at the default density
    /// is set by their own amplitudes (`tapGain`, `ringGain`), added to the bed's.
    public var tapGain: Float = 0
    public var tapDecaySeconds: ClosedRange<Float> = 0.0002...0.001
    /// The taps' low-pass corner at brightness 0 and 1 (log-interpolated).
    public var tapCornerHz: ClosedRange<Float> = 1000...12000
    /// Share of events that ring as a bubble as well (van den Doel; rain on water, a stream).
    public var ringShare: Float = 0
    public var ringGain: Float = 0
    /// Every ring's amplitude before its damping scale: a bubble's ring is set by its own size
    /// (radius, damping), not by how hard the drop that made it hit (a big drop's tap is loud;
    /// the bubble it leaves need not be).
    public static let ringAmplitude: Float = 0.75
    /// Bubble radii the rings draw from, log-uniformly (Minnaert: f₀·r ≈ 3.26 m/s).
    public var ringRadiusMetres: ClosedRange<Float> = DropPhysics.radiusRangeMetres
    /// Taps' amplitudes follow raindrop sizes (Marshall–Palmer) when true, else a uniform draw.
    public var tapsAreRaindrops = false
    /// Depth of the shared driver's hold on the events' amplitude (rain drifting heavier, fire flaring).
    public var eventDepth: Float = 0

    /// The profile of a statistics-driven kind (nil for noise, drops and crackle).
    public static func of(_ kind: TextureKind) -> TextureProfile? {
        switch kind {
        case .noise, .drops, .crackle: nil
        case .rain: rain
        case .surf: surf
        case .wind: wind
        case .fire: fire
        case .fan: fan
        case .stream: stream
        case .thunder: thunder
        }
    }

    /// Rain: the unresolved patter of thousands of far drops (a co-modulated broadband bed,
    /// slightly dark) and the near drops as broadband impact taps; a few of them ring.
    public static let rain = TextureProfile(
        bandGainsDb: SIMD8(3, 0, -1, 0, 0, -1, -3, -5),
        depth: SIMD8(0.5, 0.3, 0.18, 0.16, 0.16, 0.16, 0.2, 0.25), sharedShare: 0.3, flutterShare: 0.6,
        swellSeconds: 4, flutterSeconds: 0.012,
        tapGain: 1.0, tapDecaySeconds: 0.0003...0.0025, tapCornerHz: 1200...14000,
        ringShare: 0.06, ringGain: 0.25, ringRadiusMetres: 0.0008...0.003, tapsAreRaindrops: true,
        eventDepth: 0.3)

    /// Surf: an undertow under breaking waves: Poisson onsets every ~4 s, a 1–3 s crash
    /// that lifts every band above 300 Hz together, a wash back that dies over seconds. The lulls
    /// sit about 7 dB under the mean power: a real beach recording (Blanket's waves) drops 4.6 % of
    /// its 400 ms blocks under BS.1770's relative gate; surges lifting the bands 5× dropped 13.5 %.
    /// The undertow's swell follows each wave's run-up and backwash (1.5 s), not a slower drift: at
    /// 3 s, 10 minutes of ocean kept an envelope autocorrelation of 0.215 at 2.1 s (texstat
    /// `period`; the waves recording 0.161).
    public static let surf = TextureProfile(
        bandGainsDb: SIMD8(-6, 1, 3, 2, 1, -1, -4, -10),
        depth: SIMD8(0.2, 0.25, 0.35, 0.4, 0.4, 0.4, 0.4, 0.4), sharedShare: 0.85, flutterShare: 0.15,
        swellSeconds: 1.5, flutterSeconds: 0.15,
        surgePerSecond: 0.25, surgeRiseSeconds: 0.5, surgeFallSeconds: 1.3,
        surgeDepth: SIMD8(0.6, 1.2, 2.4, 3, 3, 3, 3, 3))

    /// Wind: a gust process (Poisson gusts rising over a second or two, dying over several) with
    /// flutter around 0.5–2 Hz in the upper bands, each band partly on its own, and a faint whistle.
    public static let wind = TextureProfile(
        bandGainsDb: SIMD8(22, 8, -4, -12, -16, -18, -20, -26),
        depth: SIMD8(0.25, 0.22, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2), sharedShare: 0.45, flutterShare: 0.4,
        swellSeconds: 3, flutterSeconds: 0.25,
        surgePerSecond: 0.12, surgeRiseSeconds: 1.5, surgeFallSeconds: 3,
        surgeDepth: SIMD8(0.3, 0.35, 0.45, 0.5, 0.5, 0.5, 0.5, 0.5),
        lineHz: 650, lineQ: 12, linePowerShare: 0.02)

    /// Fire: the roar of the flames (low, slowly flaring at ~0.5 Hz), a hiss above 4 kHz, and
    /// broadband crackles that cluster as the fire flares.
    public static let fire = TextureProfile(
        bandGainsDb: SIMD8(8, 0, -10, -12, -6, 0, 3, 2),
        depth: SIMD8(0.2, 0.2, 0.22, 0.25, 0.25, 0.25, 0.25, 0.25), sharedShare: 0.5, flutterShare: 0.45,
        swellSeconds: 1.5, flutterSeconds: 0.04,
        tapGain: 0.5, tapDecaySeconds: 0.00008...0.0015, tapCornerHz: 3000...16000,
        eventDepth: 0.8)

    /// Fan: steady air noise whose envelope pulses at the blade-pass rate (3 blades at ~2.2 rev/s)
    /// with its second harmonic, and the motor's line at twice the mains frequency.
    public static let fan = TextureProfile(
        bandGainsDb: SIMD8(-8, -3, 0, 0, -2, -5, -10, -18),
        depth: SIMD8(repeating: 0.04), sharedShare: 0.5, flutterShare: 0.3,
        swellSeconds: 6, flutterSeconds: 0.3,
        bladePassHz: 6.6, bladePassDepth: 1.3,
        lineHz: 100, lineQ: 40, linePowerShare: 0.03)

    /// Thunder, a storm's layer: a faint low floor, and every 15 s on average (Poisson: never a
    /// clock, sometimes two close together) a rumble: a fast onset (a few tenths of a second),
    /// the flash's first peak and four later, weaker sub-peaks over the next seconds (the roll, see
    /// `surgeEchoCount`), each dying over 1.5 s. One surge lifts every band at once (a storm
    /// recording's bands move together: envelope correlation 0.67 against 0.22 for rain and wind
    /// alone), most of the power below 500 Hz: thunder's acoustic spectrum peaks near 50–100 Hz
    /// and kilometres of air take the highs. Each peak opens with a crack: broadband clicks (the
    /// N-waves of the channel's nearest stretches) dying over 0.3 s, the later peaks' weaker again
    /// (the storm recording's 4–8 kHz band jumps 20–30 dB at each rumble's onset for a few tenths
    /// of a second: envelope kurtosis 15 there). The layer's density sets the clicks' rate, its
    /// brightness their low-pass.
    public static let thunder = TextureProfile(
        bandGainsDb: SIMD8(8, 4, -2, -7, -12, -18, -26, -34),
        depth: SIMD8(repeating: 0.2), sharedShare: 0.8, flutterShare: 0.4,
        swellSeconds: 1, flutterSeconds: 0.08,
        surgePerSecond: 1.0 / 15, surgeRiseSeconds: 0.3, surgeFallSeconds: 1.5,
        surgeDepth: SIMD8(repeating: 30),
        surgeEchoCount: 4, surgeEchoGapSeconds: 0.9, surgeEchoDecay: 0.8,
        crackSeconds: 0.3, crackEchoDecay: 0.6,
        tapGain: 0.5, tapDecaySeconds: 0.0002...0.002, tapCornerHz: 1500...9000)

    /// A stream: bright churning water (fast flutter, little co-modulation) full of small bubbles.
    public static let stream = TextureProfile(
        bandGainsDb: SIMD8(-10, -5, -1, 0, 0, -2, -6, -12),
        depth: SIMD8(repeating: 0.25), sharedShare: 0.25, flutterShare: 0.7,
        swellSeconds: 2, flutterSeconds: 0.03,
        tapGain: 0.3, tapDecaySeconds: 0.0003...0.001, tapCornerHz: 2000...8000,
        ringShare: 0.7, ringGain: 0.9, ringRadiusMetres: 0.0006...0.0025,
        eventDepth: 0.3)
}
