/// The whole noise machine: four layers, master volume, limiter and output fader.
///
/// Signal flow: layers (two `LayerPair`s) → sum → master volume → `PeakLimiter` (−0.5 dBFS
/// ceiling) → two faders (the user's: fade-in, pause, stop; the sleep timer's) → interleaved output.
/// The faders multiply, so cancelling a timer never un-pauses and pausing never cancels a timer.
///
/// Lifecycle: `init` allocates and computes tables (call it off the render thread); `render`
/// is the only call the render thread makes per block, plus the `set…` calls that only store ramp
/// targets. None of them allocate, lock, log or do I/O.
public final class NoiseMachine {
    public static let layerCount = 4
    /// Default smoothing for control changes: long enough to be click-free, short enough to feel live.
    public static let defaultRampSeconds = 0.02

    public let spec: ProcessSpec
    public let seed: UInt64
    let pairs: (LayerPair, LayerPair)
    // The mutable state below is only ever touched by the thread that renders (the owner calls
    // `set…` and `render` from one thread), so the runtime's dynamic exclusivity checks, measured
    // at 2 % of render time, are switched off for it.
    @exclusivity(unchecked) var limiter: PeakLimiter
    @exclusivity(unchecked) var master: ParameterRamp
    /// Fader position 0…1 (a perceptual cubic like the volume slider, so fades sound even).
    @exclusivity(unchecked) var fader: ParameterRamp
    @exclusivity(unchecked) var timerFader = ParameterRamp(1)
    /// Hearing correction and notch on the mixed signal, before the limiter. Mono runs through its
    /// stereo-shaped scratch in pieces of 1024 frames, long enough that the pipeline fills rarely.
    let masterFilter = MasterFilter(maximumFrameCount: 1024)
    /// Scratch: one sub-block of each pair's four lanes.
    let pairScratch: UnsafeMutablePointer<SIMD4<Float>>
    /// Control-rate exactness: ramps, coefficients and movement move once per `controlInterval`
    /// frames counted from the stream's first frame, whatever block sizes the caller asks for, so a
    /// live stream (blocks sized by latency, any size) and an offline render (4096-frame blocks, cut
    /// where the timer fades) give the same samples. A block that ends inside an interval renders the
    /// whole interval here and keeps the rest for the next call.
    let intervalOut: UnsafeMutablePointer<Float>
    /// Frames of `intervalOut` already handed out (`controlInterval`: none pending).
    @exclusivity(unchecked) var intervalRead = LayerPair.controlInterval
    /// The faders' straight lines across the current interval, and how far into it they are.
    @exclusivity(unchecked) var faderLine = FaderLine()
    var layerSettings: [LayerSettings]

    /// Peak of the last rendered block (linear, after limiter and fader), for metering.
    @exclusivity(unchecked) public private(set) var lastBlockPeak: Float = 0
    /// Mean square of the last rendered block.
    @exclusivity(unchecked) public private(set) var lastBlockMeanSquare: Float = 0

    /// - Parameters:
    ///   - seed: the generators' seed; the same seed and settings give the same samples on every run.
    public init(
        spec: ProcessSpec, seed: UInt64, layers: [LayerSettings] = [], masterVolume: Float = 1,
        faderPosition: Float = 1, masterFilter filterDesign: MasterFilterDesign = .off
    ) {
        self.spec = spec
        self.seed = seed
        let design = ColourDesign(sampleRate: spec.sampleRate)
        let loudness = LoudnessCalibration(design: design)
        var seeds = SplitMix64(seed: seed)
        pairs = (
            LayerPair(
                sampleRate: spec.sampleRate, design: design, loudness: loudness, seeds: &seeds,
                channelCount: spec.channelCount),
            LayerPair(
                sampleRate: spec.sampleRate, design: design, loudness: loudness, seeds: &seeds,
                channelCount: spec.channelCount)
        )
        // Drawn after the generators' seeds, so mixes without movement render as they always did.
        let movementSeed = seeds.next()
        pairs.0.seedMovement(movementSeed)
        pairs.1.seedMovement(movementSeed)
        // And the textures' after that, for the same reason.
        let textureSeed = seeds.next()
        pairs.0.seedTextures(textureSeed)
        pairs.1.seedTextures(textureSeed ^ 0x5445_5854_5552_4531)
        limiter = PeakLimiter(sampleRate: spec.sampleRate, channelCount: spec.channelCount)
        master = ParameterRamp(VolumeCurve.amplitude(masterVolume))
        fader = ParameterRamp(faderPosition)
        pairScratch = .allocate(capacity: 2 * LayerPair.controlInterval)
        pairScratch.initialize(repeating: .zero, count: 2 * LayerPair.controlInterval)
        intervalOut = .allocate(capacity: LayerPair.controlInterval * spec.channelCount)
        intervalOut.initialize(repeating: 0, count: LayerPair.controlInterval * spec.channelCount)
        layerSettings = Array(repeating: .off, count: Self.layerCount)
        for (i, l) in layers.prefix(Self.layerCount).enumerated() { setLayer(i, l, rampSeconds: 0) }
        if !filterDesign.isOff { setMasterFilter(filterDesign.sections(sampleRate: spec.sampleRate), rampSeconds: 0) }
    }

    /// Moves the master filter (hearing correction and notch) to `sections` (from
    /// `MasterFilterDesign.sections`) over `rampSeconds`.
    ///
    /// Real-time safety: copies the coefficients into preallocated storage; no allocation.
    public func setMasterFilter(
        _ sections: [BiquadCoefficientsF], rampSeconds: Double = MasterFilter.defaultRampSeconds
    ) {
        sections.withUnsafeBufferPointer { setMasterFilter($0.baseAddress!, count: $0.count, rampSeconds: rampSeconds) }
    }

    /// As above, from a pointer (the live player's mailbox).
    public func setMasterFilter(
        _ sections: UnsafePointer<BiquadCoefficientsF>, count: Int,
        rampSeconds: Double = MasterFilter.defaultRampSeconds
    ) {
        masterFilter.setTarget(sections, count: count, rampFrames: frames(rampSeconds))
    }

    deinit {
        pairScratch.deallocate()
        intervalOut.deallocate()
    }

    /// The settings last asked for, per layer.
    public func layer(_ index: Int) -> LayerSettings { layerSettings[index] }

    /// Moves layer `index` (0…3) to `settings` over `rampSeconds`.
    ///
    /// Real-time safety: stores ramp targets only.
    public func setLayer(_ index: Int, _ settings: LayerSettings, rampSeconds: Double = NoiseMachine.defaultRampSeconds)
    {
        precondition((0..<Self.layerCount).contains(index))
        layerSettings[index] = settings
        let n = frames(rampSeconds)
        if index < 2 {
            pairs.0.set(index, settings, rampFrames: n)
        } else {
            pairs.1.set(index - 2, settings, rampFrames: n)
        }
    }

    /// The events layer `index`'s texture plays from its first frame (for a texture set before
    /// rendering): a fresh copy of the same seeded sequence, for tests and analysis.
    public func textureEvents(layer index: Int) -> TextureEventSource {
        let pair = index < 2 ? pairs.0 : pairs.1
        return index % 2 == 0 ? pair.textures.0.initialEvents() : pair.textures.1.initialEvents()
    }

    /// Master volume slider 0…1 (cubic curve), reached over `rampSeconds`.
    public func setMasterVolume(_ volume: Float, rampSeconds: Double = NoiseMachine.defaultRampSeconds) {
        master.setTarget(VolumeCurve.amplitude(volume), frames: frames(rampSeconds))
    }

    /// Moves the fader to `position` (0 silent … 1 full) over `seconds`: fade-in, sleep-timer
    /// fade-out, pause and stop all go through here.
    public func fade(to position: Float, seconds: Double) {
        fader.setTarget(min(max(position, 0), 1), frames: frames(seconds))
    }

    /// Moves the sleep timer's own fader (independent of `fade`).
    public func fadeTimer(to position: Float, seconds: Double) {
        timerFader.setTarget(min(max(position, 0), 1), frames: frames(seconds))
    }

    public var faderPosition: Float { fader.value }
    /// Where the user's fader is heading (0 while paused or stopping).
    public var faderTarget: Float { fader.target }
    public var timerFaderPosition: Float { timerFader.value }
    public var isFading: Bool { fader.isRamping || timerFader.isRamping }
    /// True when either fader has reached silence and stays there.
    public var isSilenced: Bool {
        (fader.value == 0 && !fader.isRamping) || (timerFader.value == 0 && !timerFader.isRamping)
    }

    /// Runs the machine for `seconds` and throws the output away, so the first block a listener
    /// hears is steady state: filters settled (brown's lowest section needs ~0.3 s) and the
    /// limiter's look-ahead delay filled. Allocates a scratch buffer: call it before real time.
    public func preroll(seconds: Double = 0.5) {
        let block = 1024
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: block * spec.channelCount)
        defer { scratch.deallocate() }
        var left = frames(seconds)
        while left > 0 {
            let n = min(block, left)
            render(into: scratch, frameCount: n)
            left -= n
        }
    }

    /// The processing latency added by the limiter's look-ahead.
    public var latencyFrames: Int { limiter.lookaheadFrames }

    /// Clears every filter and the limiter; ramps jump to their targets.
    public func reset() {
        pairs.0.reset()
        pairs.1.reset()
        masterFilter.reset()
        limiter.reset()
        intervalRead = LayerPair.controlInterval
        faderLine = FaderLine()
    }

    func frames(_ seconds: Double) -> Int { max(0, Int((seconds * spec.sampleRate).rounded())) }

    /// Renders `frameCount` interleaved frames (`spec.channelCount` samples each) into `output`.
    ///
    /// Real-time safety: no allocation, lock, I/O, logging or throwing.
    public func render(into output: UnsafeMutablePointer<Float>, frameCount: Int) {
        let channels = spec.channelCount
        let interval = LayerPair.controlInterval
        var done = 0
        // The rest of an interval a previous block began.
        if intervalRead < interval && frameCount > 0 {
            let n = min(interval - intervalRead, frameCount)
            output.update(from: intervalOut + intervalRead * channels, count: n * channels)
            intervalRead += n
            done = n
        }
        // The whole intervals are filtered in one call, which fills and drains the master
        // filter's pipeline once instead of once per interval (a ramp cross-fades sample by
        // sample, so it needs no per-interval calls); every sample meets the same arithmetic.
        let unfiltered = done
        while frameCount - done >= interval {
            renderSubBlock(into: output + done * channels, frameCount: interval, filter: false)
            done += interval
        }
        if unfiltered < done {
            masterFilter.process(output + unfiltered * channels, frameCount: done - unfiltered, channelCount: channels)
        }
        if done < frameCount {
            let n = frameCount - done
            renderSubBlock(into: intervalOut, frameCount: interval, filter: true)
            (output + done * channels).update(from: intervalOut, count: n * channels)
            intervalRead = n
        }
        limiter.process(output, frameCount: frameCount)
        applyFader(output, frameCount: frameCount)
    }

    /// - Parameter filter: false when the caller runs the master filter over several intervals at once.
    private func renderSubBlock(into out: UnsafeMutablePointer<Float>, frameCount n: Int, filter: Bool) {
        let a = pairScratch
        let b = pairScratch + LayerPair.controlInterval
        let aSilent = pairs.0.isSilent
        let bSilent = pairs.1.isSilent
        switch (aSilent, bSilent) {
        case (false, false): LayerPair.processBoth(pairs.0, pairs.1, into: a, b, frameCount: n)
        case (false, true): pairs.0.process(into: a, frameCount: n)
        case (true, false): pairs.1.process(into: b, frameCount: n)
        case (true, true): break
        }
        let m0 = master.value
        let m1 = master.advance(n)
        let mStep = (m1 - m0) / Float(n)
        var m = m0
        let channels = spec.channelCount
        let stereo = UnsafeMutableRawPointer(out).assumingMemoryBound(to: SIMD2<Float>.self)
        for i in 0..<n {
            var lanes = SIMD4<Float>.zero
            if !aSilent { lanes += a[i] }
            if !bSilent { lanes += b[i] }
            m += mStep
            // Lanes are [layer A left, A right, layer B left, B right].
            let frame = (lanes.lowHalf + lanes.highHalf) * m
            if channels == 2 {
                stereo[i] = frame
            } else {
                out[i] = frame.x
            }
        }
        if filter { masterFilter.process(out, frameCount: n, channelCount: channels) }
    }

    private func applyFader(_ output: UnsafeMutablePointer<Float>, frameCount: Int) {
        let channels = spec.channelCount
        let count = frameCount * channels
        var peak: Float = 0
        var sumSquares: Float = 0
        if !fader.isRamping && fader.value == 1 && !timerFader.isRamping && timerFader.value == 1 && faderLine.isUnity {
            // Metering only: four independent accumulators, so the adds do not wait on each other.
            var p0: Float = 0, p1: Float = 0, p2: Float = 0, p3: Float = 0
            var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
            let quads = count / 4
            for q in 0..<quads {
                let a = output[4 * q], b = output[4 * q + 1], c = output[4 * q + 2], d = output[4 * q + 3]
                p0 = max(p0, abs(a))
                p1 = max(p1, abs(b))
                p2 = max(p2, abs(c))
                p3 = max(p3, abs(d))
                s0 += a * a
                s1 += b * b
                s2 += c * c
                s3 += d * d
            }
            peak = max(max(p0, p1), max(p2, p3))
            faderLine = FaderLine(phase: (faderLine.phase + frameCount) % LayerPair.controlInterval)
            sumSquares = (s0 + s1) + (s2 + s3)
            for i in (quads * 4)..<count {
                let x = output[i]
                peak = max(peak, abs(x))
                sumSquares += x * x
            }
        } else {
            let interval = LayerPair.controlInterval
            var line = faderLine
            var done = 0
            while done < frameCount {
                if line.phase == 0 {
                    // A new interval: both faders move one interval along their ramps.
                    let p0 = fader.value, t0 = timerFader.value
                    let p1 = fader.advance(interval), t1 = timerFader.advance(interval)
                    line = FaderLine(
                        position: p0, step: (p1 - p0) / Float(interval),
                        timer: t0, timerStep: (t1 - t0) / Float(interval), phase: 0)
                }
                let n = min(interval - line.phase, frameCount - done)
                var p = line.position, t = line.timer
                for i in done..<(done + n) {
                    p += line.step
                    t += line.timerStep
                    let g = VolumeCurve.amplitude(p) * VolumeCurve.amplitude(t)
                    for c in 0..<channels {
                        let x = output[i * channels + c] * g
                        output[i * channels + c] = x
                        peak = max(peak, abs(x))
                        sumSquares += x * x
                    }
                }
                line.position = p
                line.timer = t
                line.phase = (line.phase + n) % interval
                done += n
            }
            faderLine = line
        }
        lastBlockPeak = peak
        lastBlockMeanSquare = count > 0 ? sumSquares / Float(count) : 0
    }
}

/// Where the faders are along the current control interval: a straight line per fader from the
/// interval's start, continued by the next block when a block ends inside the interval.
struct FaderLine {
    var position: Float = 1
    var step: Float = 0
    var timer: Float = 1
    var timerStep: Float = 0
    /// Frames of the interval already applied (0: the next frame starts a new interval).
    var phase = 0

    /// True when the rest of the interval is gain 1, so the fast path may take over.
    var isUnity: Bool { phase == 0 || (position == 1 && step == 0 && timer == 1 && timerStep == 0) }
}
