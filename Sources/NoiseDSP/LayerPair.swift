/// Two layers, each in stereo, processed together as the four lanes of a SIMD vector
/// ([A left, A right, B left, B right]): generator → colour cascade → DC blocker → low cut →
/// high cut → low shelf → mid peak → high shelf → gain.
///
/// The lanes are independent in time, so the whole recursive chain runs four-wide even though
/// each filter is recursive. When both layers of a pair are silent and settled, the pair is skipped
/// (`isSilent`): a layer at zero volume costs nearly nothing.
///
/// Lifecycle (JUCE's prepare / reset / process): `init` allocates everything, `reset` clears state,
/// `process` neither allocates, locks, logs nor throws.
final class LayerPair {
    static let colourStageCount = ColourDesign.sectionCount + 1   // + DC blocker
    static let biquadCount = 5                                    // low cut, high cut, 3 EQ bands
    /// Coefficients are recomputed at most this often (in frames) while a parameter moves.
    static let controlInterval = 32

    let sampleRate: Double
    let design: ColourDesign
    let loudness: LoudnessCalibration
    var noise: NoiseSource

    // Colour cascade: per stage b0, b1, a1 and one state, as lanes.
    let colour: UnsafeMutablePointer<SIMD4<Float>>        // 4 × colourStageCount
    // Biquads: per stage b0, b1, b2, a1, a2, s1, s2, wet.
    let biquads: UnsafeMutablePointer<SIMD4<Float>>       // 8 × biquadCount

    var ramps: (LayerRamps, LayerRamps)
    /// Gain per lane at the start of the next sub-block (volume curve × loudness calibration).
    var laneGain = SIMD4<Float>(repeating: 0)
    var needsCoefficients = true

    init(sampleRate: Double, design: ColourDesign, loudness: LoudnessCalibration, seeds: inout SplitMix64) {
        self.sampleRate = sampleRate
        self.design = design
        self.loudness = loudness
        noise = NoiseSource(seeds: &seeds)
        colour = .allocate(capacity: 4 * Self.colourStageCount)
        colour.initialize(repeating: .zero, count: 4 * Self.colourStageCount)
        biquads = .allocate(capacity: 8 * Self.biquadCount)
        biquads.initialize(repeating: .zero, count: 8 * Self.biquadCount)
        ramps = (LayerRamps(.off), LayerRamps(.off))
        updateCoefficients()
        laneGain = targetLaneGain()
    }

    deinit {
        colour.deallocate()
        biquads.deallocate()
    }

    /// Clears filter state (not the generator: its sequence is part of the seed's contract).
    func reset() {
        for k in 0..<Self.colourStageCount { colour[4 * k + 3] = .zero }
        for q in 0..<Self.biquadCount {
            biquads[8 * q + 5] = .zero
            biquads[8 * q + 6] = .zero
        }
    }

    func set(_ index: Int, _ settings: LayerSettings, rampFrames: Int) {
        if index == 0 { ramps.0.set(settings, rampFrames: rampFrames) } else { ramps.1.set(settings, rampFrames: rampFrames) }
        needsCoefficients = true
    }

    /// True when both layers are at zero gain and nothing is moving: the pair can be skipped.
    var isSilent: Bool {
        laneGain == .zero && !ramps.0.isRamping && !ramps.1.isRamping && ramps.0.gain.value == 0 && ramps.1.gain.value == 0
    }

    func targetLaneGain() -> SIMD4<Float> {
        let a = ramps.0.gain.value * loudness.gain(beta: ramps.0.beta.value)
        let b = ramps.1.gain.value * loudness.gain(beta: ramps.1.beta.value)
        return SIMD4(a, a, b, b)
    }

    /// Writes `frameCount` (≤ `controlInterval`) frames of the pair's four lanes into `output`.
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    func process(into output: UnsafeMutablePointer<SIMD4<Float>>, frameCount: Int) {
        if needsCoefficients || ramps.0.isRamping || ramps.1.isRamping {
            ramps.0.advance(frameCount)
            ramps.1.advance(frameCount)
            updateCoefficients()
            needsCoefficients = ramps.0.isRamping || ramps.1.isRamping
        }
        let startGain = laneGain
        let endGain = targetLaneGain()
        laneGain = endGain
        let gainStep = (endGain - startGain) / Float(frameCount)
        var gain = startGain

        var noise = self.noise
        let colour = self.colour
        let biquads = self.biquads
        for i in 0..<frameCount {
            var v = noise.next()
            for k in 0..<Self.colourStageCount {
                let c = colour + 4 * k
                let y = c[0] * v + c[3]
                c[3] = c[1] * v - c[2] * y
                v = y
            }
            for q in 0..<Self.biquadCount {
                let c = biquads + 8 * q
                let y = c[0] * v + c[5]
                c[5] = c[1] * v - c[3] * y + c[6]
                c[6] = c[2] * v - c[4] * y
                v = v + c[7] * (y - v)
            }
            gain += gainStep
            output[i] = v * gain
        }
        self.noise = noise
    }

    /// Recomputes every coefficient from the ramps' current values.
    func updateCoefficients() {
        let a = ramps.0, b = ramps.1
        for k in 0..<ColourDesign.sectionCount {
            let ca = design.section(k, beta: Double(a.beta.value))
            let cb = design.section(k, beta: Double(b.beta.value))
            let c = colour + 4 * k
            c[0] = SIMD4(Float(ca.b0), Float(ca.b0), Float(cb.b0), Float(cb.b0))
            c[1] = SIMD4(Float(ca.b1), Float(ca.b1), Float(cb.b1), Float(cb.b1))
            c[2] = SIMD4(Float(ca.a1), Float(ca.a1), Float(cb.a1), Float(cb.a1))
        }
        let dc = FirstOrderCoefficients.dcBlocker(cornerHz: ColourDesign.dcBlockerHz, sampleRate: sampleRate)
        let d = colour + 4 * ColourDesign.sectionCount
        d[0] = SIMD4(repeating: Float(dc.b0))
        d[1] = SIMD4(repeating: Float(dc.b1))
        d[2] = SIMD4(repeating: Float(dc.a1))

        let fs = sampleRate
        setBiquad(0, BiquadDesign.highPass(cutoffHz: a.lowCutHz, sampleRate: fs),
                  BiquadDesign.highPass(cutoffHz: b.lowCutHz, sampleRate: fs), wetA: a.lowCutWet.value, wetB: b.lowCutWet.value)
        setBiquad(1, BiquadDesign.lowPass(cutoffHz: a.highCutHz, sampleRate: fs),
                  BiquadDesign.lowPass(cutoffHz: b.highCutHz, sampleRate: fs), wetA: a.highCutWet.value, wetB: b.highCutWet.value)
        setBiquad(2, BiquadDesign.lowShelf(cornerHz: LayerSettings.eqLowShelfHz, gainDb: Double(a.eqLow.value), sampleRate: fs),
                  BiquadDesign.lowShelf(cornerHz: LayerSettings.eqLowShelfHz, gainDb: Double(b.eqLow.value), sampleRate: fs))
        setBiquad(3, BiquadDesign.peaking(centreHz: LayerSettings.eqMidHz, q: LayerSettings.eqMidQ, gainDb: Double(a.eqMid.value), sampleRate: fs),
                  BiquadDesign.peaking(centreHz: LayerSettings.eqMidHz, q: LayerSettings.eqMidQ, gainDb: Double(b.eqMid.value), sampleRate: fs))
        setBiquad(4, BiquadDesign.highShelf(cornerHz: LayerSettings.eqHighShelfHz, gainDb: Double(a.eqHigh.value), sampleRate: fs),
                  BiquadDesign.highShelf(cornerHz: LayerSettings.eqHighShelfHz, gainDb: Double(b.eqHigh.value), sampleRate: fs))
    }

    private func setBiquad(_ q: Int, _ a: BiquadCoefficients, _ b: BiquadCoefficients, wetA: Float = 1, wetB: Float = 1) {
        let c = biquads + 8 * q
        c[0] = SIMD4(Float(a.b0), Float(a.b0), Float(b.b0), Float(b.b0))
        c[1] = SIMD4(Float(a.b1), Float(a.b1), Float(b.b1), Float(b.b1))
        c[2] = SIMD4(Float(a.b2), Float(a.b2), Float(b.b2), Float(b.b2))
        c[3] = SIMD4(Float(a.a1), Float(a.a1), Float(b.a1), Float(b.a1))
        c[4] = SIMD4(Float(a.a2), Float(a.a2), Float(b.a2), Float(b.a2))
        c[7] = SIMD4(wetA, wetA, wetB, wetB)
    }
}

/// The smoothed controls of one layer. Cut-off frequencies move in octaves (log2 Hz), gains in dB
/// for the EQ and in amplitude for the volume; switching a cut on or off cross-fades its output.
struct LayerRamps {
    var gain: ParameterRamp
    var beta: ParameterRamp
    var log2LowCut: ParameterRamp
    var log2HighCut: ParameterRamp
    var lowCutWet: ParameterRamp
    var highCutWet: ParameterRamp
    var eqLow: ParameterRamp
    var eqMid: ParameterRamp
    var eqHigh: ParameterRamp

    /// Corners used while a cut is off: the filter keeps running there so turning it on is smooth.
    static let idleLowCutHz: Float = 20
    static let idleHighCutHz: Float = 20_000

    init(_ s: LayerSettings) {
        gain = ParameterRamp(s.isEnabled ? VolumeCurve.amplitude(s.volume) : 0)
        beta = ParameterRamp(s.colour)
        log2LowCut = ParameterRamp(log2f(s.lowCutHz ?? Self.idleLowCutHz))
        log2HighCut = ParameterRamp(log2f(s.highCutHz ?? Self.idleHighCutHz))
        lowCutWet = ParameterRamp(s.lowCutHz == nil ? 0 : 1)
        highCutWet = ParameterRamp(s.highCutHz == nil ? 0 : 1)
        eqLow = ParameterRamp(s.eqLowDb)
        eqMid = ParameterRamp(s.eqMidDb)
        eqHigh = ParameterRamp(s.eqHighDb)
    }

    mutating func set(_ s: LayerSettings, rampFrames n: Int) {
        gain.setTarget(s.isEnabled ? VolumeCurve.amplitude(s.volume) : 0, frames: n)
        beta.setTarget(s.colour, frames: n)
        if let hz = s.lowCutHz { log2LowCut.setTarget(log2f(hz), frames: lowCutWet.target == 0 ? 0 : n) }
        if let hz = s.highCutHz { log2HighCut.setTarget(log2f(hz), frames: highCutWet.target == 0 ? 0 : n) }
        lowCutWet.setTarget(s.lowCutHz == nil ? 0 : 1, frames: n)
        highCutWet.setTarget(s.highCutHz == nil ? 0 : 1, frames: n)
        eqLow.setTarget(s.eqLowDb, frames: n)
        eqMid.setTarget(s.eqMidDb, frames: n)
        eqHigh.setTarget(s.eqHighDb, frames: n)
    }

    var isRamping: Bool {
        gain.isRamping || beta.isRamping || log2LowCut.isRamping || log2HighCut.isRamping || lowCutWet.isRamping
            || highCutWet.isRamping || eqLow.isRamping || eqMid.isRamping || eqHigh.isRamping
    }

    mutating func advance(_ n: Int) {
        gain.advance(n); beta.advance(n); log2LowCut.advance(n); log2HighCut.advance(n)
        lowCutWet.advance(n); highCutWet.advance(n); eqLow.advance(n); eqMid.advance(n); eqHigh.advance(n)
    }

    var lowCutHz: Double { Double(exp2f(log2LowCut.value)) }
    var highCutHz: Double { Double(exp2f(log2HighCut.value)) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
