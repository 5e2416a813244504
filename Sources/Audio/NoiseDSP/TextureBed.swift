import CNoiseKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The statistics-driven part of a texture: noise in eight ERB-spaced subbands whose envelopes are
/// driven by seeded stochastic processes (`TextureProfile` says which), so that a layer carries a
/// stationary texture with a chosen spectrum, modulation spectrum, sparsity and co-modulation and
/// never a clock: Ornstein–Uhlenbeck drivers have a smooth (Lorentzian) modulation spectrum, surges
/// arrive as a Poisson process, a fan's rotation wanders.
///
/// Each band is the difference of two second-order low-passes (two one-poles in cascade, at its
/// edges: 12 dB/octave skirts, steep enough for wind's dark or fire's hollow spectrum) of its own
/// white noise, scaled to unit variance, so the bands are independent and the bed's power spectrum is exactly
/// Σ gₖ²|Hₖ|² (what `powerResponse` gives the loudness model); every envelope factor has a mean
/// square of 1 by construction.
///
/// Real-time safety: `render` and `set` are arithmetic on stored values (a few `expf`/`cosf` per
/// sub-block); no allocation, lock, I/O or logging.
struct TextureBed {
    /// Band edges equally spaced on the ERB-number scale (Glasberg & Moore 1990), 20 Hz … 12.5 kHz;
    /// the top band is a high-pass (its upper low-pass is the identity).
    static let lowEdgesHz = SIMD8<Float>(20, 209, 538, 1115, 2125, 3900, 7000, 12470)
    static let highEdgesHz = SIMD8<Float>(209, 538, 1115, 2125, 3900, 7000, 12470, 0)

    let sampleRate: Float
    var profile = TextureProfile.rain
    var aLo = SIMD8<Float>(repeating: 0), aHi = SIMD8<Float>(repeating: 1)
    /// Per band: gain (normalised so the bed and line together have the white noise's power) over
    /// the band's own noise gain.
    var bandGain = SIMD8<Float>(repeating: 0)
    var lineGain: Float = 0
    var lineA1: Float = 0, lineA2: Float = 0
    var lo = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
    var hi = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
    var lo2 = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
    var hi2 = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
    /// Each band's variance over its white noise's (numerically, once per sample rate).
    var bandVariances = SIMD8<Float>(repeating: 1)
    var line = (SIMD2<Float>(repeating: 0), SIMD2<Float>(repeating: 0))
    var noise = (SIMD8<UInt32>(repeating: 1), SIMD8<UInt32>(repeating: 1))
    var lineNoise = SIMD2<UInt32>(repeating: 1)
    var random: SplitMix64
    var sharedSlow: Float = 0, sharedFast: Float = 0
    var ownSlow = SIMD8<Float>(repeating: 0), ownFast = SIMD8<Float>(repeating: 0)
    /// Surges as a difference of two decays (a rise, then a fall), fed by Poisson onsets.
    var surgeFall: Float = 0, surgeRise: Float = 0
    var framesToSurge: Float = 0
    /// A surge's later sub-peaks still to come (`surgeEchoCount`): frames until each, and its
    /// amplitude (0: the lane is free). Eight lanes hold two rolling surges at once; a third
    /// starting while both roll loses the sub-peaks that find no lane (thunder every 15 s with four
    /// sub-peaks over about 4 s: about one surge in forty, a fraction of a percent of the power).
    var echoFrames = SIMD8<Float>(repeating: 0), echoAmplitude = SIMD8<Float>(repeating: 0)
    /// Each pending sub-peak's crack, and the crack's level now (see `crackSeconds`).
    var echoCrack = SIMD8<Float>(repeating: 0), crack: Float = 0
    /// 1/√E[crack²] for the profile (closed form, `crackMoments`).
    var crackNorm: Float = 1
    var bladePhase: Float = 0, bladeWander: Float = 0
    /// The OU drivers' (ρ, √(1 − ρ²)) for sub-blocks of `driverFrames` at the time constants beside them.
    var driverSlow: (Float, Float) = (0, 0), driverFast: (Float, Float) = (0, 0)
    var driverFrames = -1
    var driverSwellSeconds: Float = 0, driverFlutterSeconds: Float = 0
    /// The profile's constants `step` needs, computed once in `set` with the same arithmetic `step`
    /// used each time (thunder's `surgeMoments` alone took 50 `powf` a sub-block): the surge pulse's
    /// peak and each band's √E[(1 + d·S)²].
    var surgePeak: Float = 1
    var surgeMeanSquareRoot = SIMD8<Float>(repeating: 1)
    /// How `step` mixes the drivers, from the profile's shares: √(1 − flutter), √flutter,
    /// √shared, √(1 − shared) (six `sqrtf` calls a sub-block before).
    var driverMix: (slow: Float, fast: Float, shared: Float, own: Float) = (1, 0, 0, 1)
    /// Per-sub-block decays of the surge, the crack and the blade wander for `decayFrames` frames
    /// (-1: to be computed for the profile now set).
    var surgeFallDecay: Float = 1, surgeRiseDecay: Float = 1, crackDecay: Float = 1
    var bladeDriver: (Float, Float) = (0, 0)
    var decayFrames = -1
    /// The envelope at the end of the last sub-block (the next one ramps from it).
    var envelope = SIMD8<Float>(repeating: 0)
    var lineEnvelope: Float = 0
    /// The shared driver's level for the events (mean square 1): rain drifting, a fire flaring.
    private(set) var eventLevel: Float = 1
    /// 1/√E[level²] for the profile's event depth with the flare capped (see `flareCapSigma`).
    var eventLevelNorm: Float = 1

    /// A flare lifts the events by at most this many standard deviations of the shared driver: a
    /// fire flares, it does not explode, and the loudest tap stays within the peak estimate.
    static let flareCapSigma: Float = 2

    /// The statistics-driven textures play 3 dB over white noise of the same variance (the bed and
    /// its events alike), so that a one-layer texture preset reaches the reference loudness at the
    /// presets' shared master with volume to spare, as the noise presets do.
    static let referenceGain: Float = 1.412_537_5

    /// The events' level at its cap (a flare `flareCapSigma` deviations up), renormalised.
    static func largestLevel(depth d: Float) -> Float {
        expf(flareCapSigma * d - d * d) / cappedLevelMeanSquare(depth: d).squareRoot()
    }

    /// E[L²] of the capped level L = exp(d·min(z, c) − d²), z a unit Gaussian:
    /// Φ(c − 2d) + exp(2dc − 2d²)·Q(c).
    static func cappedLevelMeanSquare(depth d: Float) -> Float {
        let c = flareCapSigma
        let phi = 0.5 * erfcf(-(c - 2 * d) / 1.414_213_5)
        let q = 0.5 * erfcf(c / 1.414_213_5)
        return phi + expf(2 * d * c - 2 * d * d) * q
    }
    var isStarted = false
    /// The sample loop runs in `cnk_texture_bed_avx2` (the same arithmetic in the same order, so
    /// the same bits as the Swift loop) when the CPU has AVX2. Tests turn it off to compare the two.
    var usesAVX2 = MasterFilter.cpuHasAVX2

    init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = Float(sampleRate)
        random = SplitMix64(seed: seed)
        for k in 0..<8 {
            aLo[k] = Self.onePole(Self.lowEdgesHz[k], self.sampleRate)
            aHi[k] = Self.onePole(Self.highEdgesHz[k], self.sampleRate)
            bandVariances[k] = Float(Self.bandVariance(band: k, sampleRate: sampleRate))
        }
        reseed(seed)
    }

    mutating func reseed(_ seed: UInt64) {
        random = SplitMix64(seed: seed)
        var n0 = SIMD8<UInt32>(repeating: 1), n1 = SIMD8<UInt32>(repeating: 1)
        for k in 0..<8 {
            let r = random.next()
            n0[k] = UInt32(truncatingIfNeeded: r) | 1
            n1[k] = UInt32(truncatingIfNeeded: r >> 32) | 1
        }
        noise = (n0, n1)
        let r = random.next()
        lineNoise = SIMD2(UInt32(truncatingIfNeeded: r) | 1, UInt32(truncatingIfNeeded: r >> 32) | 1)
        lo = (.zero, .zero)
        hi = (.zero, .zero)
        lo2 = (.zero, .zero)
        hi2 = (.zero, .zero)
        line = (.zero, .zero)
        echoAmplitude = .zero
        crack = 0
        isStarted = false
    }

    /// One-pole low-pass coefficient for a corner (1: the identity, for corner 0).
    static func onePole(_ hz: Float, _ fs: Float) -> Float {
        hz <= 0 ? 1 : 1 - expf(-2 * .pi * min(hz, 0.45 * fs) / fs)
    }

    /// Band k's power response at cos ω: |H_hi² − H_lo²|², H a one-pole low-pass.
    static func bandResponse(band k: Int, cosOmega c: Double, sampleRate fs: Double) -> Double {
        let s = (max(0, 1 - c * c)).squareRoot()
        func response(_ a: Double) -> (Double, Double) {
            // a / (1 − (1−a)(c − js)), squared
            let dr = 1 - (1 - a) * c, di = (1 - a) * s
            let m = dr * dr + di * di
            let re = a * dr / m, im = -a * di / m
            return (re * re - im * im, 2 * re * im)
        }
        let f = Float(fs)
        let hl = response(Double(onePole(lowEdgesHz[k], f))), hh = response(Double(onePole(highEdgesHz[k], f)))
        let dr = hh.0 - hl.0, di = hh.1 - hl.1
        return dr * dr + di * di
    }

    /// `bandVariance` for the common rates without recomputing it at every grid point.
    static func bandVarianceCached(band k: Int, sampleRate fs: Double) -> Double {
        switch fs {
        case 44_100: variances44k[k]
        case 48_000: variances48k[k]
        case 96_000: variances96k[k]
        default: bandVariance(band: k, sampleRate: fs)
        }
    }
    static let variances44k = (0..<8).map { bandVariance(band: $0, sampleRate: 44_100) }
    static let variances48k = (0..<8).map { bandVariance(band: $0, sampleRate: 48_000) }
    static let variances96k = (0..<8).map { bandVariance(band: $0, sampleRate: 96_000) }

    /// Band k's variance over its white noise's: (1/π)∫|D|²dω, on a log-spaced grid (the lowest
    /// band is a few hertz wide at 48 kHz). Off the render thread (init).
    static func bandVariance(band k: Int, sampleRate fs: Double) -> Double {
        let n = 4000
        let lo = log(0.01), hi = log(fs / 2)
        var sum = 0.0
        for i in 0..<n {
            let f0 = exp(lo + Double(i) / Double(n) * (hi - lo)), f1 = exp(lo + Double(i + 1) / Double(n) * (hi - lo))
            let f = (f0 + f1) / 2
            sum += bandResponse(band: k, cosOmega: cos(2 * .pi * f / fs), sampleRate: fs) * (f1 - f0)
        }
        return max(sum / (fs / 2), 1e-12)
    }

    /// The line's resonator y = x + a1·y₁ + a2·y₂ (bandwidth lineHz/Q) and its noise gain.
    static func resonator(_ p: TextureProfile, _ fs: Float) -> (a1: Float, a2: Float, variance: Float) {
        let r = expf(-.pi * p.lineHz / max(p.lineQ, 1) / fs)
        let a1 = 2 * r * cosf(2 * .pi * p.lineHz / fs), a2 = -r * r
        let v = (1 - a2) / ((1 + a2) * ((1 - a2) * (1 - a2) - a1 * a1))
        return (a1, a2, v)
    }

    /// Takes a kind's profile (the envelope drivers keep their state, so a change glides).
    mutating func set(_ p: TextureProfile) {
        profile = p
        let fs = sampleRate
        decayFrames = -1
        surgePeak = Self.surgeShape(p).peak
        driverMix = (
            (1 - p.flutterShare).squareRoot(), p.flutterShare.squareRoot(), p.sharedShare.squareRoot(),
            (1 - p.sharedShare).squareRoot()
        )
        if p.surgePerSecond > 0 {
            let m = Self.surgeMoments(p)
            let d = p.surgeDepth
            let meanSquare = (1 + d * m.mean) * (1 + d * m.mean) + d * d * m.variance
            surgeMeanSquareRoot = meanSquare.squareRoot()
        }
        var raw = SIMD8<Float>(repeating: 0)
        for k in 0..<8 { raw[k] = powf(10, p.bandGainsDb[k] / 20) }
        eventLevelNorm = 1 / Self.cappedLevelMeanSquare(depth: p.eventDepth).squareRoot()
        if p.crackSeconds > 0 {
            let m = Self.crackMoments(p)
            crackNorm = 1 / (m.mean * m.mean + m.variance).squareRoot()
        }
        let scale = Self.referenceGain * ((1 - p.linePowerShare) / (raw * raw).sum()).squareRoot()
        for k in 0..<8 { bandGain[k] = raw[k] * scale / bandVariances[k].squareRoot() }
        if p.linePowerShare > 0 {
            let res = Self.resonator(p, fs)
            lineA1 = res.a1
            lineA2 = res.a2
            lineGain = Self.referenceGain * (p.linePowerShare / res.variance).squareRoot()
        } else {
            lineGain = 0
        }
    }

    /// A Gaussian draw (sum of four 16-bit uniforms, scaled to unit variance).
    @inline(__always)
    mutating func gaussian() -> Float {
        let r = random.next()
        let s =
            Float(r & 0xFFFF) + Float((r >> 16) & 0xFFFF) + Float((r >> 32) & 0xFFFF) + Float(r >> 48)
        return (s * (1 / 65_536.0) - 2) * 1.732_050_8
    }

    @inline(__always)
    mutating func uniform() -> Float { Float((random.next() >> 40) + 1) * (1.0 / 16_777_216.0) }

    /// The surge pulse's peak over its two time constants, the pulse's ∫h and ∫h² (seconds).
    static func surgeShape(_ p: TextureProfile) -> (peak: Float, area: Float, energy: Float) {
        let tr = max(p.surgeRiseSeconds / 2, 0.01), tf = max(p.surgeFallSeconds, tr * 1.5)
        let tPeak = logf(tf / tr) * tf * tr / (tf - tr)
        let peak = expf(-tPeak / tf) - expf(-tPeak / tr)
        return (peak, tf - tr, tf / 2 + tr / 2 - 2 * tf * tr / (tf + tr))
    }

    /// Mean and variance of the surge signal S (pulses of peak 1 × amplitude U(0.4, 1), each with
    /// its sub-peaks): Campbell's theorem for a Poisson process of clusters, λ·E[∫h] and λ·E[∫h²].
    static func surgeMoments(_ p: TextureProfile) -> (mean: Float, variance: Float) {
        guard p.surgePerSecond > 0 else { return (0, 0) }
        let s = surgeShape(p)
        let meanA: Float = 0.7, meanA2: Float = (1 - 0.064) / (3 * 0.6)
        guard p.surgeEchoCount > 0 else {
            return (
                p.surgePerSecond * meanA * s.area / s.peak,
                p.surgePerSecond * meanA2 * s.energy / (s.peak * s.peak)
            )
        }
        let tr = max(p.surgeRiseSeconds / 2, 0.01), tf = max(p.surgeFallSeconds, tr * 1.5)
        let kappa = tf * tr / (tf + tr)
        let c = echoSums(p, ratio: p.surgeEchoDecay, autocorrelation: (tf / 2 - kappa, tf, tr / 2 - kappa, tr))
        return (
            p.surgePerSecond * meanA * c.amplitude * s.area / s.peak,
            p.surgePerSecond * meanA2 * c.energy / (s.peak * s.peak)
        )
    }

    /// Mean and variance of the crack level (pulses e^{−t/τc} at every surge peak, the j-th
    /// `crackEchoDecay`^j weaker again than its rumble), as `surgeMoments`.
    static func crackMoments(_ p: TextureProfile) -> (mean: Float, variance: Float) {
        guard p.surgePerSecond > 0, p.crackSeconds > 0 else { return (0, 0) }
        let meanA: Float = 0.7, meanA2: Float = (1 - 0.064) / (3 * 0.6)
        let tc = p.crackSeconds
        let c = echoSums(p, ratio: p.surgeEchoDecay * p.crackEchoDecay, autocorrelation: (tc / 2, tc, 0, tc))
        return (p.surgePerSecond * meanA * c.amplitude * tc, p.surgePerSecond * meanA2 * c.energy)
    }

    /// The crack level's largest value over its root mean square: one flash at full strength with
    /// every sub-peak's crack landing at once (a bound for one flash; two overlapping are rarer
    /// still, and the taps' clip holds them).
    static func largestCrackLevel(_ p: TextureProfile) -> Float {
        let m = crackMoments(p)
        var sum: Float = 1, c: Float = 1
        for _ in 0..<p.surgeEchoCount {
            c *= p.surgeEchoDecay * p.crackEchoDecay
            sum += c
        }
        return sum / (m.mean * m.mean + m.variance).squareRoot()
    }

    /// The events' largest level over its root mean square: the crack's, or a flare's at its cap.
    static func largestEventLevel(_ p: TextureProfile) -> Float {
        p.crackSeconds > 0 && p.surgePerSecond > 0 ? largestCrackLevel(p) : largestLevel(depth: p.eventDepth)
    }

    /// A surge cluster's Σⱼ E[cⱼ] and Σⱼₖ E[cⱼcₖ]·E[R(|tⱼ − tₖ|)], cⱼ the j-th peak's amplitude over
    /// the first's (c₀ = 1, cⱼ = rʲ·U(0.5, 1)) and R the pulse's autocorrelation a·e^{−Δ/τa} −
    /// b·e^{−Δ/τb}. For the surge's pulse e^{−t/τf} − e^{−t/τr}, a = τf/2 − κ and b = κ − τr/2 with
    /// κ = τfτr/(τf + τr); for the crack's e^{−t/τc}, a = τc/2, b = 0. Peaks m apart are a sum of m
    /// exponential gaps of mean g (a gamma variable), and E[e^{−Δ/τ}] = (1 + g/τ)^{−m}: closed
    /// form, no integral.
    static func echoSums(
        _ p: TextureProfile, ratio: Float, autocorrelation r: (a: Float, tauA: Float, minusB: Float, tauB: Float)
    ) -> (amplitude: Float, energy: Float) {
        let alpha = r.a, beta = -r.minusB
        let g = p.surgeEchoGapSeconds
        let qf = 1 / (1 + g / r.tauA), qr = 1 / (1 + g / r.tauB)
        let n = p.surgeEchoCount
        let meanV: Float = 0.75, meanV2: Float = 7.0 / 12
        var amplitude: Float = 0, energy: Float = 0
        var rj: Float = 1
        for j in 0...n {
            amplitude += rj * (j == 0 ? 1 : meanV)
            var rk: Float = 1
            for k in 0...n {
                let m = Float(abs(j - k))
                let product: Float =
                    j == k ? rj * rk * (j == 0 ? 1 : meanV2) : rj * rk * (j == 0 ? 1 : meanV) * (k == 0 ? 1 : meanV)
                energy += product * (alpha * powf(qf, m) - beta * powf(qr, m))
                rk *= ratio
            }
            rj *= ratio
        }
        return (amplitude, energy)
    }

    /// Moves the drivers one sub-block of `frames` and returns the envelope at its end.
    mutating func step(frames: Int) -> SIMD8<Float> {
        // `profile.` read in place: `let p = profile` copied the whole profile (a `memmove`) each sub-block.
        let dt = Float(frames) / sampleRate
        func ou(_ tau: Float) -> (Float, Float) {
            let rho = expf(-dt / max(tau, 1e-3))
            return (rho, (1 - rho * rho).squareRoot())
        }
        // The drivers' coefficients depend only on the sub-block's length and the profile's time
        // constants: computed again only when one of them changes (two `expf` per sub-block saved).
        let swell = profile.swellSeconds, flutter = profile.flutterSeconds
        if frames != driverFrames || swell != driverSwellSeconds || flutter != driverFlutterSeconds {
            driverSlow = ou(swell)
            driverFast = ou(flutter)
            (driverFrames, driverSwellSeconds, driverFlutterSeconds) = (frames, swell, flutter)
        }
        if frames != decayFrames {
            let tr = max(profile.surgeRiseSeconds / 2, 0.01), tf = max(profile.surgeFallSeconds, tr * 1.5)
            surgeFallDecay = expf(-dt / tf)
            surgeRiseDecay = expf(-dt / tr)
            crackDecay = profile.crackSeconds > 0 ? expf(-dt / profile.crackSeconds) : 1
            bladeDriver = ou(2)
            decayFrames = frames
        }
        let slow = driverSlow, fast = driverFast
        sharedSlow = slow.0 * sharedSlow + slow.1 * gaussian()
        sharedFast = fast.0 * sharedFast + fast.1 * gaussian()
        // Each band's two draws, slow then fast, band after band (the sequence's order), into
        // scalars and then the vectors: written a lane at a time, each vector was read back whole
        // after a one-lane store (a failed store forwarding each time: a third of `step`).
        let s0 = gaussian(), f0 = gaussian(), s1 = gaussian(), f1 = gaussian()
        let s2 = gaussian(), f2 = gaussian(), s3 = gaussian(), f3 = gaussian()
        let s4 = gaussian(), f4 = gaussian(), s5 = gaussian(), f5 = gaussian()
        let s6 = gaussian(), f6 = gaussian(), s7 = gaussian(), f7 = gaussian()
        let gs = SIMD8<Float>(s0, s1, s2, s3, s4, s5, s6, s7), gf = SIMD8<Float>(f0, f1, f2, f3, f4, f5, f6, f7)
        ownSlow = slow.0 * ownSlow + slow.1 * gs
        ownFast = fast.0 * ownFast + fast.1 * gf
        let mix = driverMix
        let shared = mix.slow * sharedSlow + mix.fast * sharedFast
        let own = mix.slow * ownSlow + mix.fast * ownFast
        let z = mix.shared * shared + mix.own * own
        // exp(d·z − d²) has a mean square of 1 for unit-variance Gaussian z.
        var e = bandGain
        let dz = profile.depth * z - profile.depth * profile.depth
        e *= Self.exp8(dz)
        let ed = profile.eventDepth
        eventLevel = expf(ed * min(shared, Self.flareCapSigma) - ed * ed) * eventLevelNorm
        if profile.surgePerSecond > 0 {
            surgeFall *= surgeFallDecay
            surgeRise *= surgeRiseDecay
            if profile.crackSeconds > 0 { crack *= crackDecay }
            framesToSurge -= Float(frames)
            if framesToSurge <= 0 {
                let a = (0.4 + 0.6 * uniform()) / surgePeak
                surgeFall += a
                surgeRise += a
                framesToSurge += -logf(uniform()) / profile.surgePerSecond * sampleRate
                if profile.crackSeconds > 0 { crack += a * surgePeak }
                if profile.surgeEchoCount > 0 { scheduleEchoes(after: a, profile) }
            }
            if profile.surgeEchoCount > 0 {
                echoFrames -= Float(frames)
                for lane in 0..<8 where echoAmplitude[lane] > 0 && echoFrames[lane] <= 0 {
                    surgeFall += echoAmplitude[lane]
                    surgeRise += echoAmplitude[lane]
                    crack += echoCrack[lane]
                    echoAmplitude[lane] = 0
                }
            }
            if profile.crackSeconds > 0 { eventLevel = crack * crackNorm }
            let s = surgeFall - surgeRise
            let d = profile.surgeDepth
            e *= (1 + d * s) / surgeMeanSquareRoot
        }
        if profile.bladePassHz > 0 {
            // Rotation wanders (OU, 6 % over ~2 s: the air load and a shaded-pole motor's slip) and
            // the pulses' phase at the ear diffuses (turbulence between fan and listener): a line,
            // never a clock. At 3 % and 0.35 rad/√s a pulse train was still in step with itself a
            // second later (texstat `repeat` 0.32 at 1 s over 10 minutes); at 6 % its phase has
            // spread by about 2.3 rad there, while the line stays within its modulation band.
            let w = bladeDriver
            bladeWander = w.0 * bladeWander + w.1 * gaussian()
            let hz = profile.bladePassHz
            bladePhase += 2 * .pi * hz * (1 + 0.06 * bladeWander) * dt + 0.6 * dt.squareRoot() * gaussian()
            if bladePhase > 2 * .pi { bladePhase -= 2 * .pi }
            let shape = cosf(bladePhase) + 0.5 * cosf(2 * bladePhase)
            let m = profile.bladePassDepth
            e *= (1 + m * shape) / (1 + m * m * 0.625).squareRoot()
        }
        // Without a line its envelope is 0 either way (0 × a finite exp); skip the `expf`.
        lineEnvelope = lineGain > 0 ? lineGain * expf(0.3 * shared - 0.09) : 0
        return e
    }

    /// e^x for eight values at once, within 10⁻⁷ relative of the exact value for x in −87 … 88
    /// (9.6·10⁻⁸ the largest found at 200,000 points; outside, the ends): x = k·ln 2 + r with k
    /// the nearest integer (a float sum that rounds, so no rounding instruction the baseline x86-64
    /// target lacks) and ln 2 in two parts (Cody–Waite) so r keeps
    /// its precision, then e^r by its Taylor polynomial to r⁷ (|r| ≤ 0.35: the next term is under
    /// 6·10⁻⁹) times 2^k made from its exponent bits, instead of eight `expf` calls a sub-block
    /// (with `driverMix`, stream's benchmark 7,303 → 7,259 µs a second of audio).
    @inline(__always)
    static func exp8(_ x: SIMD8<Float>) -> SIMD8<Float> {
        var v = x
        v.replace(with: -87, where: v .< -87)
        v.replace(with: 88, where: v .> 88)
        // 1.5·2²³: adding it leaves x·log₂e rounded to an integer in the low mantissa bits.
        let magic: Float = 12_582_912
        let shifted = v * 1.442_695 + magic
        let k = shifted - magic
        let r = (v - k * 0.693_145_751_953_125) - k * 1.428_606_765_330_187e-6
        let c7: Float = 1.0 / 5040, c6: Float = 1.0 / 720, c5: Float = 1.0 / 120, c4: Float = 1.0 / 24
        let c3: Float = 1.0 / 6
        var p = c6 + r * c7
        p = c5 + r * p
        p = c4 + r * p
        p = c3 + r * p
        p = 0.5 + r * p
        p = 1 + r * p
        p = 1 + r * p
        let integer = unsafeBitCast(shifted, to: SIMD8<UInt32>.self) &- magic.bitPattern
        let scale = unsafeBitCast((integer &+ 127) &<< 23, to: SIMD8<Float>.self)
        return p * scale
    }

    /// Places a surge's later sub-peaks (see `surgeEchoCount`) in free lanes.
    mutating func scheduleEchoes(after first: Float, _ p: TextureProfile) {
        var frames: Float = 0
        var amplitude = first
        var crackAmplitude = first * surgePeak
        var placed = 0
        for lane in 0..<8 where placed < p.surgeEchoCount && echoAmplitude[lane] == 0 {
            frames += -logf(uniform()) * p.surgeEchoGapSeconds * sampleRate
            amplitude *= p.surgeEchoDecay
            crackAmplitude *= p.surgeEchoDecay * p.crackEchoDecay
            let v = 0.5 + 0.5 * uniform()
            echoFrames[lane] = frames
            echoAmplitude[lane] = amplitude * v
            echoCrack[lane] = crackAmplitude * v
            placed += 1
        }
    }

    /// Puts the drivers in their stationary state (a render does not begin in a lull).
    mutating func start() {
        sharedSlow = gaussian()
        sharedFast = gaussian()
        for k in 0..<8 {
            ownSlow[k] = gaussian()
            ownFast[k] = gaussian()
        }
        framesToSurge = -logf(uniform()) / max(profile.surgePerSecond, 1e-3) * sampleRate
        envelope = step(frames: 0)
        isStarted = true
    }

    /// A profile's envelope as the loudness model needs it for BS.1770's gate: each band's power
    /// factor (its envelope squared over its gain, mean 1) averaged over `hopCount` hops of 100 ms
    /// (the gate's blocks are four hops), driven by the same `step` as a render with a fixed seed,
    /// so the model is deterministic. Off the render thread (it allocates).
    static func powerFactorHops(
        _ p: TextureProfile, sampleRate: Double, hopCount: Int, stepsPerHop: Int = 2
    ) -> [SIMD8<Float>] {
        var bed = TextureBed(sampleRate: sampleRate, seed: 0x6A7E_B10C)
        bed.set(p)
        bed.start()
        let frames = max(1, Int((sampleRate * 0.1 / Double(stepsPerHop)).rounded()))
        let inverseGainSquared = 1 / (bed.bandGain * bed.bandGain)
        var hops = [SIMD8<Float>](repeating: .zero, count: hopCount)
        for h in 0..<hopCount {
            var sum = SIMD8<Float>(repeating: 0)
            for _ in 0..<stepsPerHop {
                let e = bed.step(frames: frames)
                sum += e * e * inverseGainSquared
            }
            hops[h] = sum / Float(stepsPerHop)
        }
        return hops
    }

    /// Adds `n` frames (≤ 32, one control step) of the bed to `output`.
    ///
    /// Real-time safety: arithmetic only; no allocation.
    mutating func render(into output: UnsafeMutablePointer<SIMD2<Float>>, frameCount n: Int, isMono: Bool) {
        guard n > 0 else { return }
        if !isStarted { start() }
        let lineBefore = lineEnvelope
        let start = envelope
        let end = step(frames: n)
        envelope = end
        let inv = 1 / Float(n)
        let envStep = (end - start) * inv
        let lineStep = (lineEnvelope - lineBefore) * inv
        let a1 = lineA1, a2 = lineA2
        let scale: Float = 1.0 / 2_147_483_648.0
        // In stereo the AVX2 loop also plays the line, its recursion beside the bands' (fan and wind
        // spent about 10 % of their render in the line's own loop below).
        let lineInKernel = usesAVX2 && !isMono && lineGain > 0
        if usesAVX2 {
            // Four rain layers spent 37 % of their time in the Swift loop below (SSE: each band
            // vector in two halves, and the band sum one lane at a time).
            var envelopeStart = start, step = envStep
            let out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self)
            if lineInKernel {
                var l = cnk_bed_line(
                    noise: (lineNoise.x, lineNoise.y), y1: (line.0.x, line.0.y), y2: (line.1.x, line.1.y),
                    a1: lineA1, a2: lineA2, gain: lineBefore, gainStep: lineStep)
                cnk_texture_bed_line_avx2(
                    2, &noise, &lo, &hi, &lo2, &hi2, &envelopeStart, &step, &aLo, &aHi, &l, out, n)
                lineNoise = SIMD2(l.noise.0, l.noise.1)
                line = (SIMD2(l.y1.0, l.y1.1), SIMD2(l.y2.0, l.y2.1))
            } else {
                cnk_texture_bed_avx2(
                    isMono ? 1 : 2, &noise, &lo, &hi, &lo2, &hi2, &envelopeStart, &step, &aLo, &aHi, out, n)
            }
        } else {
            for c in 0..<(isMono ? 1 : 2) {
                var x = c == 0 ? noise.0 : noise.1
                var l = c == 0 ? lo.0 : lo.1
                var h = c == 0 ? hi.0 : hi.1
                var l2 = c == 0 ? lo2.0 : lo2.1
                var h2 = c == 0 ? hi2.0 : hi2.1
                var env = start
                let al = aLo, ah = aHi
                for i in 0..<n {
                    x ^= x &<< 13
                    x ^= x &>> 17
                    x ^= x &<< 5
                    let u = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: x)) * scale
                    l += al * (u - l)
                    h += ah * (u - h)
                    l2 += al * (l - l2)
                    h2 += ah * (h - h2)
                    let y = ((h2 - l2) * env).sum()
                    if c == 0 { output[i].x += y } else { output[i].y += y }
                    env += envStep
                }
                if c == 0 {
                    noise.0 = x
                    lo.0 = l
                    hi.0 = h
                    lo2.0 = l2
                    hi2.0 = h2
                } else {
                    noise.1 = x
                    lo.1 = l
                    hi.1 = h
                    lo2.1 = l2
                    hi2.1 = h2
                }
            }
        }
        if isMono {
            for i in 0..<n { output[i].y = output[i].x }
        }
        guard lineGain > 0 && !lineInKernel else { return }
        var y1 = line.0, y2 = line.1
        var ln = lineNoise
        var g = lineBefore
        for i in 0..<n {
            ln ^= ln &<< 13
            ln ^= ln &>> 17
            ln ^= ln &<< 5
            let u = SIMD2<Float>(SIMD2<Int32>(truncatingIfNeeded: ln)) * scale
            let y = u + a1 * y1 + a2 * y2
            y2 = y1
            y1 = y
            output[i] += y * g
            g += lineStep
        }
        line = (y1, y2)
        lineNoise = ln
    }

    /// The bed's source power at cos ω relative to white noise of the same variance (1 on average
    /// over frequency for the bands plus the line, before `referenceGain`): Σ gₖ²|H_hi − H_lo|² / varₖ
    /// + the line's.
    ///
    /// Off the render thread (the loudness model).
    /// Each band's share of `powerResponse` at cos ω (the terms it sums, the line left out).
    static func bandPowers(_ p: TextureProfile, cosOmega c: Double, sampleRate fs: Double) -> SIMD8<Double> {
        var raw = SIMD8<Double>(repeating: 0)
        for k in 0..<8 { raw[k] = pow(10, Double(p.bandGainsDb[k]) / 20) }
        let total = (raw * raw).sum()
        var out = SIMD8<Double>(repeating: 0)
        for k in 0..<8 {
            let share = raw[k] * raw[k] / total * Double(1 - p.linePowerShare)
            out[k] =
                share * bandResponse(band: k, cosOmega: c, sampleRate: fs)
                / bandVarianceCached(band: k, sampleRate: fs)
        }
        return out
    }

    static func powerResponse(_ p: TextureProfile, cosOmega c: Double, sampleRate fs: Double) -> Double {
        let s = (max(0, 1 - c * c)).squareRoot()
        var raw = [Double](repeating: 0, count: 8)
        for k in 0..<8 { raw[k] = pow(10, Double(p.bandGainsDb[k]) / 20) }
        let total = raw.reduce(0) { $0 + $1 * $1 }
        var sum = 0.0
        let f = Float(fs)
        for k in 0..<8 {
            let share = raw[k] * raw[k] / total * Double(1 - p.linePowerShare)
            let response = bandResponse(band: k, cosOmega: c, sampleRate: fs)
            sum += share * response / bandVarianceCached(band: k, sampleRate: fs)
        }
        if p.linePowerShare > 0 {
            let r = resonator(p, f)
            let a1 = Double(r.a1), a2 = Double(r.a2)
            // 1 − a1 e^{−jω} − a2 e^{−2jω}
            let c2 = 2 * c * c - 1, s2 = 2 * s * c
            let re = 1 - a1 * c - a2 * c2, im = a1 * s + a2 * s2
            sum += Double(p.linePowerShare) / Double(r.variance) / (re * re + im * im)
        }
        return sum
    }
}
