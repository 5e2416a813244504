#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The expected power spectrum of a texture's source, per channel: what stands in for the white
/// noise's flat σ² when the loudness model follows a texture layer through its chain.
///
/// Events are a Poisson process of independent pulses, so the source's power spectral density is
/// the event rate times the pulses' mean energy spectrum (Campbell's theorem): λ/fs · E|P(ω)|²,
/// times E[g²] = 1/2 for the equal-power pan (or the mono gain √½). Crackle's pulses are white
/// noise under an envelope, so their spectrum is flat; a drop is a decaying sinusoid, a two-pole
/// resonance, averaged over the radius distribution (96 points, log-spaced like the draws).
///
/// Off the render thread only (it loops over the radius distribution).
public enum TextureSpectrum {
    static let radiusNodeCount = 96
    static let decayNodeCount = 64

    /// Source power at cos ω, in the units of `NoiseSource.variance` (1/3 for the noise itself).
    public static func sourcePower(_ t: TextureSettings, cosOmega c: Double, sampleRate fs: Double) -> Double {
        switch t.kind {
        case .noise: return NoiseSource.variance
        case .crackle: return crackleFlatPower(t, sampleRate: fs)
        case .drops: return Double(t.densityPerSecond) * dropEnergySpectrum(cosOmega: c, sampleRate: fs)
        case .rain, .surf, .wind, .fire, .fan, .stream, .thunder:
            return statisticalPower(t, cosOmega: c, sampleRate: fs)
        }
    }

    /// E[τ] (seconds) of a log-uniform draw.
    static func meanLogUniform(_ r: ClosedRange<Float>) -> Float {
        let lo = r.lowerBound, hi = r.upperBound
        return hi > lo ? (hi - lo) / logf(hi / lo) : lo
    }

    /// The taps' and rings' amplitude scales, the taps' one-pole coefficient and their clip: at the
    /// kind's default density the taps carry `tapGain`² and the rings `ringGain`² times the white
    /// noise's power (for E[a²] = 1; raindrops' sizes move it with the rain rate), both raised by
    /// `TextureBed.referenceGain`. Rain's bed is its unresolved far drops, so it grows with the rain
    /// rate as the near taps do: for raindrops the scales are set at the layer's own density, and a
    /// heavier rain is denser at the same balance of bed, taps and rings, not tap-dominated (at the
    /// default density's scales, 400 taps/s carried 2.7× rain's tap power: texstat envelope kurtosis
    /// above 2.5 kHz 4.9, against 3.4 in the rain recording). Crackles are events of their own
    /// over the fire's roar: their scales stay at the default density.
    ///
    /// The clip is what a loud tap reaches: the tap one in a thousand (a raindrop's size from
    /// Marshall–Palmer's tail; the loudest crackle), at a flare at its cap, through the low-pass (its
    /// noise gain: the burst is white noise). The generator clips each burst there, so the loudness
    /// model's peak estimate is a bound and the limiter stays idle at the reference loudness; the
    /// few taps it touches lose a fraction of a dB of their peak, not of the texture's power.
    ///
    /// Real-time safety: a few `logf`/`expf`/`erfcf`; no allocation (`TextureGenerator.set` calls it).
    public static func eventScales(_ t: TextureSettings, profile p: TextureProfile, sampleRate fs: Double)
        -> (tap: Float, ring: Float, lowPass: Float, clip: Float)
    {
        let densities = TextureSettings.densityRange
        let lambda =
            p.tapsAreRaindrops
            ? min(max(t.densityPerSecond, densities.lowerBound), densities.upperBound)
            : TextureSettings.defaultDensity(t.kind)
        let g = TextureBed.referenceGain
        let tap = g * p.tapGain * (4 / (lambda * meanLogUniform(p.tapDecaySeconds))).squareRoot()
        let ring =
            p.ringShare > 0
            ? g * p.ringGain
                * (8 * DropPhysics.referenceDampingPerSecond * Float(NoiseSource.variance) / (lambda * p.ringShare))
                .squareRoot() : 0
        let b = min(max(t.brightness, 0), 1)
        let corner = p.tapCornerHz.lowerBound * powf(p.tapCornerHz.upperBound / p.tapCornerHz.lowerBound, b)
        let a = TextureBed.onePole(corner, Float(fs))
        let amplitude =
            p.tapsAreRaindrops
            ? RainPhysics.impactAmplitude(
                diameterMm: RainPhysics.drawDiameterMm(u: 1e-3, densityPerSecond: t.densityPerSecond))
            : RainPhysics.crackleAmplitude.upperBound
        let clip = tap * amplitude * (a / (2 - a)).squareRoot() * TextureBed.largestEventLevel(p)
        return (tap, ring, a, clip)
    }

    /// A statistics-driven kind's source power: the bed's, the taps' (Campbell's theorem over the
    /// decay and amplitude draws, through their low-pass) and the rings'.
    public static func statisticalPower(_ t: TextureSettings, cosOmega c: Double, sampleRate fs: Double) -> Double {
        guard let p = TextureProfile.of(t.kind) else { return NoiseSource.variance }
        let g = Double(TextureBed.referenceGain)
        var power = g * g * NoiseSource.variance * TextureBed.powerResponse(p, cosOmega: c, sampleRate: fs)
        let scales = eventScales(t, profile: p, sampleRate: fs)
        let lambda = Double(t.densityPerSecond)
        let meanA2 =
            p.tapsAreRaindrops
            ? RainPhysics.meanSquareImpactAmplitude(densityPerSecond: t.densityPerSecond)
            : RainPhysics.meanSquareCrackleAmplitude()
        if p.tapGain > 0 {
            let sum = decayEnergySum(p.tapDecaySeconds, sampleRate: fs)
            let a = Double(scales.lowPass)
            let s = (max(0, 1 - c * c)).squareRoot()
            let dr = 1 - (1 - a) * c, di = (1 - a) * s
            let lowPass = a * a / (dr * dr + di * di)
            let tap = Double(scales.tap)
            power +=
                lambda / fs * tap * tap * meanA2 * sum / Double(decayNodeCount) * NoiseSource.variance * 0.5
                * lowPass
        }
        if p.ringShare > 0 {
            let ring = Double(scales.ring)
            power +=
                Double(p.ringShare) * lambda * ring * ring
                * Double(TextureProfile.ringAmplitude * TextureProfile.ringAmplitude)
                * ringEnergySpectrum(cosOmega: c, sampleRate: fs, radii: p.ringRadiusMetres)
        }
        return power
    }

    /// A ringing bubble's energy spectrum per event (unit amplitude before the √(d/d_ref) scaling,
    /// equal-power pan), averaged over log-uniform radii.
    static func ringEnergySpectrum(cosOmega c: Double, sampleRate fs: Double, radii: ClosedRange<Float>) -> Double {
        let s = (max(0, 1 - c * c)).squareRoot()
        let cos2 = 2 * c * c - 1, sin2 = 2 * s * c
        let lo = log(Double(radii.lowerBound)), hi = log(Double(radii.upperBound))
        var sum = 0.0
        for k in 0..<radiusNodeCount {
            let r = Float(exp(lo + (Double(k) + 0.5) / Double(radiusNodeCount) * (hi - lo)))
            let d = Double(DropPhysics.dampingPerSecond(radiusMetres: r))
            let rho = exp(-d / fs)
            let omega = min(
                2 * Double.pi * Double(DropPhysics.meanRingingHz(radiusMetres: r)) / fs,
                Double(TextureGenerator.maximumOmega))
            let re = 1 - 2 * rho * cos(omega) * c + rho * rho * cos2
            let im = 2 * rho * cos(omega) * s - rho * rho * sin2
            let sinW = sin(omega)
            sum += d / Double(DropPhysics.referenceDampingPerSecond) * rho * rho * sinW * sinW / (re * re + im * im)
        }
        return 1 / fs * 0.5 * sum / Double(radiusNodeCount)
    }

    /// The largest pulse amplitude a texture draws (0 for noise): a drop of the smallest radius
    /// at full amplitude, or a click at full amplitude, panned hard to one side.
    public static func largestPulseAmplitude(_ t: TextureSettings) -> Double {
        switch t.kind {
        case .noise: 0
        case .drops:
            Double(DropPhysics.amplitudeRange.upperBound)
                * (Double(DropPhysics.dampingPerSecond(radiusMetres: DropPhysics.radiusRangeMetres.lowerBound))
                / Double(DropPhysics.referenceDampingPerSecond)).squareRoot()
        case .crackle: Double(CrackleShape.clickAmplitude.upperBound * CrackleShape.amplitudeScale)
        case .rain, .surf, .wind, .fire, .fan, .stream, .thunder:
            // The loudest tap heard in a while (a drop one in a thousand, the loudest crackle) at a
            // flare two standard deviations up, through the taps' low-pass (its noise gain: the
            // burst is white noise).
            if let p = TextureProfile.of(t.kind), p.tapGain > 0 {
                tapPeak(t, profile: p)
            } else {
                0
            }
        }
    }

    /// An event's largest value: a tap's clip (see `eventScales`), or the ring of the smallest
    /// bubble (the most damped, so the loudest start) at a flare at its cap, whichever is larger,
    /// over the bed at one standard deviation (the bed goes on under the event: campfire's loudest
    /// clipped crackle over 120 s measured 0.02 dB over the clip alone).
    static func tapPeak(_ t: TextureSettings, profile p: TextureProfile) -> Double {
        let scales = eventScales(t, profile: p, sampleRate: 48_000)
        let bed = Double(TextureBed.referenceGain) * NoiseSource.variance.squareRoot()
        guard p.ringShare > 0 else { return Double(scales.clip) + bed }
        let flare = TextureBed.largestEventLevel(p)
        let damping = DropPhysics.dampingPerSecond(radiusMetres: p.ringRadiusMetres.lowerBound)
        let ring =
            scales.ring * flare * TextureProfile.ringAmplitude
            * (damping / DropPhysics.referenceDampingPerSecond).squareRoot()
        return Double(max(scales.clip, ring)) + bed
    }

    /// Σ e^{−2n/τ} over an event's life (the generator's cut-off at `lifetimeTimeConstants` τ),
    /// summed over `decayNodeCount` decay times τ log-spaced across `decaySeconds`: divide by the
    /// node count for the mean. The generator computes in Float; these few digits do not matter
    /// at this scale.
    static func decayEnergySum(_ decaySeconds: ClosedRange<Float>, sampleRate fs: Double) -> Double {
        let lo = log(Double(decaySeconds.lowerBound)), hi = log(Double(decaySeconds.upperBound))
        var sum = 0.0
        for k in 0..<decayNodeCount {
            let tauFrames = exp(lo + (Double(k) + 0.5) / Double(decayNodeCount) * (hi - lo)) * fs
            let q = exp(-2 / tauFrames)
            let length = (Double(DropPhysics.lifetimeTimeConstants) * tauFrames).rounded(.up)
            sum += (1 - pow(q, length)) / (1 - q)
        }
        return sum
    }

    /// E[a²] for a uniform draw on `r`.
    static func meanSquare(_ r: ClosedRange<Float>) -> Double {
        let lo = Double(r.lowerBound), hi = Double(r.upperBound)
        return (hi * hi * hi - lo * lo * lo) / (3 * (hi - lo))
    }

    /// Crackle's flat power: λ/fs · s² · E[a² Σ e^{−2n/τ}] · σ² · ½.
    public static func crackleFlatPower(_ t: TextureSettings, sampleRate fs: Double) -> Double {
        func classEnergy(_ decay: ClosedRange<Float>, _ amplitude: ClosedRange<Float>) -> Double {
            meanSquare(amplitude) * decayEnergySum(decay, sampleRate: fs) / Double(decayNodeCount)
        }
        let pop = Double(CrackleShape.popShare)
        let energy =
            pop * classEnergy(CrackleShape.popDecaySeconds, CrackleShape.popAmplitude)
            + (1 - pop) * classEnergy(CrackleShape.clickDecaySeconds, CrackleShape.clickAmplitude)
        let scale = Double(CrackleShape.amplitudeScale)
        return Double(t.densityPerSecond) / fs * scale * scale * energy * NoiseSource.variance * 0.5
    }

    /// Drops' source power per unit density (events per second) at cos ω: a ring of each radius
    /// the drops draw, at their mean square amplitude.
    public static func dropEnergySpectrum(cosOmega c: Double, sampleRate fs: Double) -> Double {
        meanSquare(DropPhysics.amplitudeRange)
            * ringEnergySpectrum(cosOmega: c, sampleRate: fs, radii: DropPhysics.radiusRangeMetres)
    }
}
