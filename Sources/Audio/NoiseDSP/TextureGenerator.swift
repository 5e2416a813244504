import CNoiseKernels

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
    /// A voice (`cnk_voice`, shared with the C kernel that renders them): a drop's ring, a tap or a
    /// crackle's burst.
    typealias Voice = cnk_voice

    static let voiceCapacity = 64
    let hasAVX2 = cnk_has_avx2() == 1
    /// The voices run in `cnk_texture_voices` (the Swift loop's arithmetic in its order, eight
    /// voices to a vector: the same bits). Tests turn it off to compare the two.
    @exclusivity(unchecked) var usesKernel = true
    /// The kernel runs when the generators rendered together hold at least this many voices (the
    /// smallest of theirs; tests set 0 to run it always).
    @exclusivity(unchecked) var kernelVoiceMinimum = 8
    /// ω is held below this (radians/sample) so a glide never folds over Nyquist.
    static let maximumOmega: Float = 0.9 * .pi
    /// A statistical texture's ring ends 60 dB below its start (ln 10³ time constants), where a
    /// lone drop (`drops`) rings on to 80 dB: under the bed and hundreds of other events a second,
    /// a tail 60 dB down (a millionth of the ring's energy) is masked many times over, and the last
    /// 20 dB took a quarter of the rings' frames (stream at 400/s: about 40 rings at once). Taps
    /// keep 80 dB: ending them sooner too moved rain's loudest peak over 120 s (seed 12) from −2.06
    /// to −1.26 dBFS, past the loudness model's estimate. (Rings ending sooner reorder the voices
    /// as well, so the taps draw the noise sequence in another order: another realisation, the
    /// same statistics; texstat's ratios unchanged to two decimals.)
    static let ringLifetimeTimeConstants: Float = 6.907_755

    let sampleRate: Double
    let isMono: Bool
    let voices: UnsafeMutablePointer<Voice>
    /// The voices' noise drawn ahead by the kernel (`cnk_noise_stream`; `burstNoise` stays the
    /// sequence's state, and the stream follows it).
    let noiseStream: UnsafeMutablePointer<cnk_noise_stream>
    /// One sub-block of the burst noise's values for the Swift loop's taps (see `drawNoise`).
    let noiseValues: UnsafeMutablePointer<Float>
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
    var burstNoise: UInt32 {
        get { noiseState.pointee }
        set { noiseState.pointee = newValue }
    }
    /// Where `burstNoise` lives (the kernel reads and writes it in place).
    let noiseState: UnsafeMutablePointer<UInt32>
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
        voices.initialize(repeating: .silent, count: Self.voiceCapacity)
        noiseStream = .allocate(capacity: 1)
        noiseStream.initialize(to: cnk_noise_stream())
        noiseState = .allocate(capacity: 1)
        noiseState.initialize(to: 1)
        outputCapacity = frameCapacity
        output = .allocate(capacity: frameCapacity)
        output.initialize(repeating: .zero, count: frameCapacity)
        noiseValues = .allocate(capacity: frameCapacity)
        noiseValues.initialize(repeating: 0, count: frameCapacity)
        var seeds = SplitMix64(seed: seed)
        events = TextureEventSource(
            seed: seeds.next(), sampleRate: sampleRate, kind: .noise,
            densityPerSecond: TextureSettings.defaultDropDensity)
        noiseState.pointee = UInt32(truncatingIfNeeded: seeds.next()) | 1
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
        noiseStream.deallocate()
        noiseState.deallocate()
        output.deallocate()
        noiseValues.deallocate()
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
        Self.render(self, nil, nil, nil, frameCount: n)
    }

    /// Renders `frameCount` frames of each generator given into its `output`, the voices of all
    /// of them in one kernel call: with four layers of stream at 400/s about forty rings sound at
    /// once, and eight to a vector, the vectors side by side, they cost a fraction of one voice
    /// after the other (each a recursion on its previous sample). Each generator's output is what
    /// its own `render` alone makes, bit for bit.
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    static func render(
        _ g0: TextureGenerator?, _ g1: TextureGenerator?, _ g2: TextureGenerator?, _ g3: TextureGenerator?,
        frameCount n: Int
    ) {
        g0?.beginRender(frameCount: n)
        g1?.beginRender(frameCount: n)
        g2?.beginRender(frameCount: n)
        g3?.beginRender(frameCount: n)
        // The kernel pays for each voice's set-up (its lane, its state in and out, the transposes)
        // what the Swift loop does not; it wins where many voices sound. `perf record` of 60 s of
        // four layers at 400/s, voice samples (Swift loop -> kernel for every sub-block): stream
        // (about 48 voices over the layers) 893 -> 578, rain (about 20) 421 -> 388, thunder (about
        // 12) 236 -> 269, fire (about 7) 174 -> 276. Same bits either way. Since the kernel keeps
        // its groups' states in registers (`rings_taps`) and the Swift loop draws its noise eight
        // stretches at a time, the line sits at 8: voice samples over the bed's in one `perf record`
        // (threshold 16 -> 8), thunder 1.50 -> 1.15, fire 0.81 -> 0.81.
        func kernelVoices(_ g: TextureGenerator?) -> Int {
            g.map { $0.usesKernel && n <= 32 ? $0.activeCount : 0 } ?? 0
        }
        func minimum(_ g: TextureGenerator?) -> Int { g?.kernelVoiceMinimum ?? .max }
        let least = min(min(minimum(g0), minimum(g1)), min(minimum(g2), minimum(g3)))
        let useKernel = kernelVoices(g0) + kernelVoices(g1) + kernelVoices(g2) + kernelVoices(g3) >= least
        // Set k is generator k's (empty, with no voices pointer, for one absent or not on the kernel).
        var sets = (cnk_voice_set(), cnk_voice_set(), cnk_voice_set(), cnk_voice_set())
        var hasAVX2 = true
        func voices(_ g: TextureGenerator?, _ set: inout cnk_voice_set) {
            guard let g else { return }
            if useKernel && g.usesKernel && n <= 32 {
                set = g.voiceSet()
                hasAVX2 = hasAVX2 && g.hasAVX2
            } else {
                g.renderVoicesInSwift(frameCount: n)
            }
        }
        voices(g0, &sets.0)
        voices(g1, &sets.1)
        voices(g2, &sets.2)
        voices(g3, &sets.3)
        if useKernel {
            withUnsafeMutablePointer(to: &sets) { tuple in
                tuple.withMemoryRebound(to: cnk_voice_set.self, capacity: 4) { p in
                    if hasAVX2 {
                        cnk_texture_voices_avx2(p, 4, n, maximumOmega)
                    } else {
                        cnk_texture_voices(p, 4, n, maximumOmega)
                    }
                }
            }
        }
        func finish(_ g: TextureGenerator?, _ set: cnk_voice_set) {
            guard let g else { return }
            if set.voices != nil { g.activeCount = set.count }
            g.finishRender(frameCount: n)
        }
        finish(g0, sets.0)
        finish(g1, sets.1)
        finish(g2, sets.2)
        finish(g3, sets.3)
    }

    /// This generator's voices for the kernel.
    private func voiceSet() -> cnk_voice_set {
        cnk_voice_set(
            voices: voices, count: activeCount,
            output: UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self), noiseState: noiseState,
            stream: noiseStream, clip: tapClip)
    }

    /// The sub-block up to its voices: the bed, and the events that start in it.
    private func beginRender(frameCount n: Int) {
        output.update(repeating: .zero, count: n)
        if settings.isStatistical { bed.render(into: output, frameCount: n, isMono: isMono) }
        let end = frame + n
        while events.nextFrame < Double(end) {
            let e = events.next()
            start(e, atFrame: Int32(max(0, e.frame - frame)))
        }
    }

    /// The voices one after the other (what the kernel does eight at a time; tests compare them).
    private func renderVoicesInSwift(frameCount n: Int) {
        var i = 0
        while i < activeCount {
            if renderVoice(&voices[i], frameCount: n) {
                i += 1
            } else {
                activeCount -= 1
                voices[i] = voices[activeCount]
            }
        }
    }

    /// The sub-block after its voices: the crossfade with the noise.
    private func finishRender(frameCount n: Int) {
        frame += n
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
        var v = Voice.silent
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
                    min(Self.ringLifetimeTimeConstants / d * fs, Float(Int32.max / 2)).rounded(.up))
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

    /// The burst noise's next `count` (≤ the capacity) values as floats in `noiseValues`, and
    /// `burstNoise` moved past them: the xorshift32 sequence a serial loop steps through, drawn
    /// eight stretches at a time by the kernel's stream (`cnk_noise_draw`, the same bits). In the
    /// loop each value waited on the one before (six dependent operations), across every voice of
    /// the sub-block in turn: thunder's and fire's taps, too few for the kernel, spent a fifth of
    /// their render there.
    @inline(__always)
    private func drawNoise(_ count: Int) -> UnsafeMutablePointer<Float> {
        cnk_noise_draw(noiseStream, noiseState, noiseValues, Int32(count))
        return noiseValues
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
            var wr: Float = 0, wi: Float = 0
            cnk_ring_rotation(v.rho, omega, &wr, &wi)
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
            var y = v.lowPass
            let a = v.lowPassCoefficient
            let clip = tapClip
            let u = drawNoise(max(0, last - first))
            for i in first..<max(first, last) {
                y += a * (env * u[i - first] - y)
                output[i] += gain * min(max(y, -clip), clip)
                env *= decay
            }
            v.envelope = env
            v.lowPass = y
        } else {
            var env = v.envelope
            let decay = v.envelopeDecay
            let u = drawNoise(max(0, last - first))
            for i in first..<max(first, last) {
                output[i] += gain * (env * u[i - first])
                env *= decay
            }
            v.envelope = env
        }
        v.ageFrames += Int32(max(0, last - first))
        v.startFrame = 0
        return v.ageFrames < v.lifeFrames
    }
}

extension cnk_voice {
    /// A voice before its kind sets it up (a drop's defaults; a low-pass that passes everything).
    static let silent: cnk_voice = {
        var v = cnk_voice()
        v.isDrop = true
        v.lowPassCoefficient = 1
        return v
    }()
}
