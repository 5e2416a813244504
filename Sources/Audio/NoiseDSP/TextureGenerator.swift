#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders one layer's texture (drops or crackle) as a stereo source that takes the place of the
/// layer's white noise at the head of its chain.
///
/// Events come from a `TextureEventSource`; each sounds on a voice from a pool allocated in
/// `init` (64 voices: drops at the top density, 400/s, keep about 25 busy). When every voice is
/// busy, the one nearest its end is taken over.
///
/// Lifecycle: `init` allocates; `render` and `set` neither allocate, lock, log nor throw.
final class TextureGenerator {
    struct Voice {
        var isDrop = true
        /// A tap (statistics-driven kinds): a crackle-like burst through its own one-pole low-pass.
        var isTap = false
        var lowPass: Float = 0, lowPassCoefficient: Float = 1
        /// Drops: the rotating phasor (amplitude folded in) and its per-sample rotation.
        var re: Float = 0, im: Float = 0, wr: Float = 0, wi: Float = 0
        var omega: Float = 0, omegaRisePerFrame: Float = 0, rho: Float = 0
        /// Crackle: the burst's envelope and its per-sample decay.
        var envelope: Float = 0, envelopeDecay: Float = 0
        var gainLeft: Float = 0, gainRight: Float = 0
        var ageFrames: Int32 = 0, lifeFrames: Int32 = 0
        /// First frame of the current sub-block this voice sounds in (non-zero only at its onset).
        var startFrame: Int32 = 0
    }

    static let voiceCapacity = 64
    /// ω is held below this (radians/sample) so a glide never folds over Nyquist.
    static let maximumOmega: Float = 0.9 * .pi

    let sampleRate: Double
    let isMono: Bool
    let voices: UnsafeMutablePointer<Voice>
    /// One sub-block of output frames (left, right).
    let output: UnsafeMutablePointer<SIMD2<Float>>
    let outputCapacity: Int
    // Unchecked: only the render thread touches a generator while it plays (the owner's
    // contract), and each dynamic access check cost a runtime call per sub-block and voice.
    @exclusivity(unchecked) var activeCount = 0
    @exclusivity(unchecked) var events: TextureEventSource
    var settings: TextureSettings
    /// The statistics-driven kinds' bed (idle for noise, drops and crackle).
    @exclusivity(unchecked) var bed: TextureBed
    /// Taps' and rings' amplitude scales for the current settings (see `TextureSpectrum`).
    var tapAmplitudeScale: Float = 0, ringAmplitudeScale: Float = 0, tapLowPass: Float = 1
    /// The largest value a tap's burst reaches (`TextureSpectrum.eventScales`): the model's peak
    /// estimate, made a bound.
    var tapClip: Float = .greatestFiniteMagnitude
    /// Crackle's burst noise (xorshift32, never 0).
    @exclusivity(unchecked) var burstNoise: UInt32
    /// Frames rendered so far.
    @exclusivity(unchecked) var frame = 0
    var eventSeed: UInt64 = 0
    /// The texture's share of the layer's source, 0 (noise) … 1 (texture): a change between noise
    /// and a texture crossfades over the change's ramp instead of swapping the source in one sample.
    @exclusivity(unchecked) var share = ParameterRamp(0)
    /// The noise's gain over the current sub-block (first frame, step per frame): cos of the share's
    /// quarter turn, so noise and texture keep their summed power through the fade (0 outside one).
    @exclusivity(unchecked) private(set) var noiseGainStart: Float = 0
    @exclusivity(unchecked) private(set) var noiseGainStep: Float = 0

    init(sampleRate: Double, channelCount: Int, seed: UInt64, frameCapacity: Int) {
        self.sampleRate = sampleRate
        isMono = channelCount == 1
        voices = .allocate(capacity: Self.voiceCapacity)
        voices.initialize(repeating: Voice(), count: Self.voiceCapacity)
        outputCapacity = frameCapacity
        output = .allocate(capacity: frameCapacity)
        output.initialize(repeating: .zero, count: frameCapacity)
        var seeds = SplitMix64(seed: seed)
        events = TextureEventSource(
            seed: seeds.next(), sampleRate: sampleRate, kind: .noise,
            densityPerSecond: TextureSettings.defaultDropDensity)
        burstNoise = UInt32(truncatingIfNeeded: seeds.next()) | 1
        settings = .noise
        bed = TextureBed(sampleRate: sampleRate, seed: seeds.next())
    }

    /// Starts the generator's sequences from `seed` (before rendering).
    func reseed(_ seed: UInt64) {
        var seeds = SplitMix64(seed: seed)
        eventSeed = seeds.next()
        events = initialEvents()
        burstNoise = UInt32(truncatingIfNeeded: seeds.next()) | 1
        bed.reseed(seeds.next())
        activeCount = 0
        frame = 0
    }

    deinit {
        voices.deallocate()
        output.deallocate()
    }

    /// Takes new settings. Between noise and a texture the source crossfades over `rampFrames`;
    /// from one texture to another the old kind's voices ring out (each decays on its own) while
    /// the new kind's events begin, so neither way jumps. A jump (`rampFrames` 0) silences them.
    ///
    /// Real-time safety: stores values only.
    func set(_ s: TextureSettings, rampFrames: Int = 0) {
        // Not `frame == 0`: a layer that has only played noise never rendered here, so its count
        // is still 0 however long it has played.
        let jump = rampFrames <= 0
        if s.kind != settings.kind && jump { activeCount = 0 }
        share.setTarget(s.kind == .noise ? 0 : 1, frames: jump ? 0 : rampFrames)
        settings = s
        if let p = TextureProfile.of(s.kind) {
            bed.set(p)
            let scales = TextureSpectrum.eventScales(s, profile: p, sampleRate: sampleRate)
            tapAmplitudeScale = scales.tap
            ringAmplitudeScale = scales.ring
            tapLowPass = scales.lowPass
            tapClip = scales.clip
        }
        if frame == 0 {
            // Nothing rendered yet: the sequence starts at these settings, so it is exactly what
            // `initialEvents()` replays.
            events = initialEvents()
        } else {
            events.kind = s.kind
            events.densityPerSecond = s.densityPerSecond
        }
    }

    /// The event sequence as it starts for the current settings.
    func initialEvents() -> TextureEventSource {
        TextureEventSource(
            seed: eventSeed, sampleRate: sampleRate, kind: settings.kind, densityPerSecond: settings.densityPerSecond)
    }

    /// True while the texture is heard at all (also while fading in or out).
    var isActive: Bool { share.value > 0 || share.isRamping }

    /// Renders `frameCount` (≤ the capacity) frames into `output`.
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    func render(frameCount n: Int) {
        output.update(repeating: .zero, count: n)
        if settings.isStatistical { bed.render(into: output, frameCount: n, isMono: isMono) }
        let end = frame + n
        while events.nextFrame < Double(end) {
            let e = events.next()
            start(e, atFrame: Int32(max(0, e.frame - frame)))
        }
        var i = 0
        while i < activeCount {
            if renderVoice(&voices[i], frameCount: n) {
                i += 1
            } else {
                activeCount -= 1
                voices[i] = voices[activeCount]
            }
        }
        frame = end
        if share.isRamping {
            applyCrossfade(frameCount: n)
        } else {
            noiseGainStart = 0
            noiseGainStep = 0
        }
        // Faded out (also in the sub-block whose fade just reached 0): the voices left are silent,
        // and the layer stops calling `render` once `isActive` is false, so drop them now; kept,
        // they would ring again from mid-life when a texture fades back in.
        if share.value == 0 && !share.isRamping { activeCount = 0 }
    }

    /// Scales this sub-block's texture by the share's sine and sets the noise's cosine gains, each
    /// a straight line from the sub-block's first frame to its end.
    ///
    /// Real-time safety: arithmetic and four `sinf`/`cosf`; no allocation.
    private func applyCrossfade(frameCount n: Int) {
        let before = share.value
        let after = share.advance(n)
        let quarter = Float.pi / 2
        let textureStart = sinf(before * quarter), textureEnd = sinf(after * quarter)
        let noiseEnd = cosf(after * quarter)
        noiseGainStart = cosf(before * quarter)
        noiseGainStep = (noiseEnd - noiseGainStart) / Float(n)
        let textureStep = (textureEnd - textureStart) / Float(n)
        for k in 0..<n { output[k] *= textureStart + textureStep * Float(k) }
    }

    private func start(_ e: TextureEvent, atFrame offset: Int32) {
        var v = Voice()
        let fs = Float(sampleRate)
        if isMono {
            v.gainLeft = Float(0.5).squareRoot()
            v.gainRight = v.gainLeft
        } else {
            let angle = e.pan * (.pi / 2)
            v.gainLeft = cosf(angle)
            v.gainRight = sinf(angle)
        }
        switch e.kind {
        case .noise:
            return
        case .drops:
            let d = DropPhysics.dampingPerSecond(radiusMetres: e.radiusMetres)
            v.isDrop = true
            v.rho = expf(-d / fs)
            v.omega = min(2 * .pi * DropPhysics.resonanceHz(radiusMetres: e.radiusMetres) / fs, Self.maximumOmega)
            v.omegaRisePerFrame = v.omega * DropPhysics.riseFactor * d / fs
            v.re = e.amplitude * (d / DropPhysics.referenceDampingPerSecond).squareRoot()
            v.lifeFrames = Int32(min(DropPhysics.lifetimeTimeConstants / d * fs, Float(Int32.max / 2)).rounded(.up))
        case .crackle:
            let tauFrames = e.decaySeconds * fs
            v.isDrop = false
            v.envelope = e.amplitude * CrackleShape.amplitudeScale
            v.envelopeDecay = expf(-1 / tauFrames)
            v.lifeFrames = Int32((DropPhysics.lifetimeTimeConstants * tauFrames).rounded(.up))
        case .rain, .surf, .wind, .fire, .fan, .stream, .thunder:
            let level = bed.eventLevel
            if e.radiusMetres > 0 {
                // The drop also rings: its bubble as in `drops`, scaled to the profile's ring share.
                var r = v
                let d = DropPhysics.dampingPerSecond(radiusMetres: e.radiusMetres)
                r.isDrop = true
                r.rho = expf(-d / fs)
                r.omega = min(2 * .pi * DropPhysics.resonanceHz(radiusMetres: e.radiusMetres) / fs, Self.maximumOmega)
                r.omegaRisePerFrame = r.omega * DropPhysics.riseFactor * d / fs
                r.re =
                    ringAmplitudeScale * level * TextureProfile.ringAmplitude
                    * (d / DropPhysics.referenceDampingPerSecond).squareRoot()
                r.lifeFrames = Int32(
                    min(DropPhysics.lifetimeTimeConstants / d * fs, Float(Int32.max / 2)).rounded(.up))
                r.startFrame = offset
                add(r)
            }
            let tauFrames = e.decaySeconds * fs
            v.isDrop = false
            v.isTap = true
            v.lowPassCoefficient = tapLowPass
            v.envelope = e.amplitude * tapAmplitudeScale * level
            v.envelopeDecay = expf(-1 / tauFrames)
            v.lifeFrames = Int32((DropPhysics.lifetimeTimeConstants * tauFrames).rounded(.up))
        }
        v.startFrame = offset
        add(v)
    }

    private func add(_ v: Voice) {
        if activeCount < Self.voiceCapacity {
            voices[activeCount] = v
            activeCount += 1
        } else {
            // Take over the voice nearest its end (the quietest, as every envelope decays).
            var oldest = 0
            var oldestShare: Float = -1
            for k in 0..<activeCount {
                let share = Float(voices[k].ageFrames) / Float(voices[k].lifeFrames)
                if share > oldestShare {
                    oldestShare = share
                    oldest = k
                }
            }
            voices[oldest] = v
        }
    }

    /// Adds the voice's frames to `output`; false when it has ended.
    @inline(__always)
    private func renderVoice(_ v: inout Voice, frameCount n: Int) -> Bool {
        let first = Int(v.startFrame)
        let last = min(n, first + Int(v.lifeFrames - v.ageFrames))
        let gain = SIMD2(v.gainLeft, v.gainRight)
        if v.isDrop {
            // The glide moves once per sub-block: ω for the voice's age now.
            let omega = min(v.omega + v.omegaRisePerFrame * Float(v.ageFrames), Self.maximumOmega)
            let wr = v.rho * cosf(omega), wi = v.rho * sinf(omega)
            var re = v.re, im = v.im
            for i in first..<max(first, last) {
                let r = re * wr - im * wi
                im = re * wi + im * wr
                re = r
                output[i] += gain * im
            }
            v.re = re
            v.im = im
        } else if v.isTap {
            var env = v.envelope
            let decay = v.envelopeDecay
            var x = burstNoise
            var y = v.lowPass
            let a = v.lowPassCoefficient
            let clip = tapClip
            for i in first..<max(first, last) {
                x ^= x << 13
                x ^= x >> 17
                x ^= x << 5
                let u = Float(Int32(bitPattern: x)) * (1.0 / 2_147_483_648.0)
                y += a * (env * u - y)
                output[i] += gain * min(max(y, -clip), clip)
                env *= decay
            }
            burstNoise = x
            v.envelope = env
            v.lowPass = y
        } else {
            var env = v.envelope
            let decay = v.envelopeDecay
            var x = burstNoise
            for i in first..<max(first, last) {
                x ^= x << 13
                x ^= x >> 17
                x ^= x << 5
                let u = Float(Int32(bitPattern: x)) * (1.0 / 2_147_483_648.0)
                output[i] += gain * (env * u)
                env *= decay
            }
            burstNoise = x
            v.envelope = env
        }
        v.ageFrames += Int32(max(0, last - first))
        v.startFrame = 0
        return v.ageFrames < v.lifeFrames
    }
}
