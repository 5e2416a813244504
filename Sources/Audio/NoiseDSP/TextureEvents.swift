#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One drop or crackle as drawn: when, how big, how loud, where.
public struct TextureEvent: Sendable, Equatable {
    /// Frame of the onset, counted from the first frame the texture rendered.
    public var frame: Int
    public var kind: TextureKind
    /// Drops: the bubble's radius in metres (`DropPhysics.radiusRangeMetres`).
    public var radiusMetres: Float
    /// Crackle: the burst's decay time constant in seconds; 0 for drops.
    public var decaySeconds: Float
    /// Crackle: true for a pop, false for a click.
    public var isPop: Bool
    /// Amplitude before the kind's scaling (see `DropPhysics`, `CrackleShape`).
    public var amplitude: Float
    /// 0 hard left … 1 hard right (equal-power).
    public var pan: Float
}

/// The seeded sequence of a texture's events: Poisson arrivals (exponential gaps at the density)
/// and each event's parameters. The generator draws from it as it renders; tests draw from their
/// own copy with the same seed to know what was played.
///
/// Real-time safety: `next()` is arithmetic and one `log`; no allocation.
public struct TextureEventSource: Sendable {
    var random: SplitMix64
    public let sampleRate: Double
    public var kind: TextureKind
    /// Used for the gap after each event (a change applies from the next gap on).
    public var densityPerSecond: Float
    /// Frame of the next onset (fractional; the event starts at its integer part).
    public private(set) var nextFrame: Double

    public init(seed: UInt64, sampleRate: Double, kind: TextureKind, densityPerSecond: Float) {
        random = SplitMix64(seed: seed)
        self.sampleRate = sampleRate
        self.kind = kind
        self.densityPerSecond = densityPerSecond
        nextFrame = 0
        nextFrame = drawGapFrames()
    }

    /// Uniform in (0, 1].
    mutating func uniform() -> Float { Float((random.next() >> 40) + 1) * (1.0 / 16_777_216.0) }

    mutating func drawGapFrames() -> Double {
        let u = Double((random.next() >> 11) + 1) * (1.0 / 9_007_199_254_740_992.0)
        let density = Double(
            min(max(densityPerSecond, TextureSettings.densityRange.lowerBound), TextureSettings.densityRange.upperBound)
        )
        return -log(u) / density * sampleRate
    }

    static func logUniform(_ range: ClosedRange<Float>, _ u: Float) -> Float {
        expf(logf(range.lowerBound) + u * (logf(range.upperBound) - logf(range.lowerBound)))
    }

    static func uniform(_ range: ClosedRange<Float>, _ u: Float) -> Float {
        range.lowerBound + u * (range.upperBound - range.lowerBound)
    }

    /// The next event, and the gap to the one after it.
    public mutating func next() -> TextureEvent {
        let frame = Int(nextFrame)
        var e = TextureEvent(
            frame: frame, kind: kind, radiusMetres: 0, decaySeconds: 0, isPop: false, amplitude: 0, pan: 0.5)
        switch kind {
        case .noise:
            break
        case .drops:
            e.radiusMetres = Self.logUniform(DropPhysics.radiusRangeMetres, uniform())
            e.amplitude = Self.uniform(DropPhysics.amplitudeRange, uniform())
            e.pan = uniform()
        case .crackle:
            e.isPop = uniform() <= CrackleShape.popShare
            e.decaySeconds = Self.logUniform(
                e.isPop ? CrackleShape.popDecaySeconds : CrackleShape.clickDecaySeconds, uniform())
            e.amplitude = Self.uniform(e.isPop ? CrackleShape.popAmplitude : CrackleShape.clickAmplitude, uniform())
            e.pan = uniform()
        case .rain, .surf, .wind, .fire, .fan, .stream, .thunder:
            let p = TextureProfile.of(kind) ?? .rain
            e.decaySeconds = Self.logUniform(p.tapDecaySeconds, uniform())
            e.amplitude =
                p.tapsAreRaindrops
                ? RainPhysics.impactAmplitude(
                    diameterMm: RainPhysics.drawDiameterMm(u: uniform(), densityPerSecond: densityPerSecond))
                : Self.logUniform(RainPhysics.crackleAmplitude, uniform())
            let rings = uniform() < p.ringShare
            e.isPop = rings
            e.radiusMetres = rings ? Self.logUniform(p.ringRadiusMetres, uniform()) : 0
            e.pan = uniform()
        }
        nextFrame += drawGapFrames()
        return e
    }
}
