import CNoiseKernels

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
    static let colourStageCount = ColourDesign.sectionCount + 1  // + DC blocker; the kernel assumes 10
    static let biquadCount = 5  // low cut, high cut, 3 EQ bands
    /// Coefficients are recomputed at most this often (in frames) while a parameter moves.
    static let controlInterval = 32
    /// `processBoth` runs the chain in `cnk_layer_chain_avx2` (the same bits) when the CPU has
    /// AVX2 (the first pair's flag decides). Tests turn it off to compare the two.
    @exclusivity(unchecked) var usesAVX2 = MasterFilter.cpuHasAVX2

    let sampleRate: Double
    let design: ColourDesign
    let loudness: LoudnessCalibration
    @exclusivity(unchecked) var noise: NoiseSource

    // Colour cascade: per stage b0, b1, a1 and one state, as lanes.
    let colour: UnsafeMutablePointer<SIMD4<Float>>  // 4 × colourStageCount
    // Biquads: per stage b0, b1, b2, a1, a2, s1, s2, wet.
    let biquads: UnsafeMutablePointer<SIMD4<Float>>  // 8 × biquadCount

    /// One sub-block of intermediate lanes (room for two interleaved pairs).
    let scratch: UnsafeMutableRawPointer
    @exclusivity(unchecked) var ramps: (LayerRamps, LayerRamps)
    /// Gain per lane at the start of the next sub-block (volume curve × loudness calibration).
    @exclusivity(unchecked) var laneGain = SIMD4<Float>(repeating: 0)
    @exclusivity(unchecked) var needsCoefficients = true
    /// Movement (see `MovementSettings`): one modulator per layer, all seeded alike by the machine so
    /// layers that move with the same period swell together.
    @exclusivity(unchecked) var modulators = (MovementModulator(seed: 0), MovementModulator(seed: 0))
    /// Level factor and high-cut offset (octaves) from movement, per layer; exactly 1 and 0 when still.
    @exclusivity(unchecked) var movementGain: (Float, Float) = (1, 1)
    @exclusivity(unchecked) var movementCutOctaves: (Float, Float) = (0, 0)
    /// Frames since movement was last updated.
    @exclusivity(unchecked) var movementFrames = 0
    /// Movement is updated at this control rate (256 frames, 5.3 ms at 48 kHz: a swell of 2 s or
    /// more moves by under 0.02 dB or 0.002 octave per step, and the gain still ramps per sample).
    static let movementInterval = 256

    /// Each layer's texture source (idle while the layer makes noise).
    let textures: (TextureGenerator, TextureGenerator)

    init(
        sampleRate: Double, design: ColourDesign, loudness: LoudnessCalibration, seeds: inout SplitMix64,
        channelCount: Int = 2
    ) {
        textures = (
            TextureGenerator(
                sampleRate: sampleRate, channelCount: channelCount, seed: 0, frameCapacity: Self.controlInterval),
            TextureGenerator(
                sampleRate: sampleRate, channelCount: channelCount, seed: 0, frameCapacity: Self.controlInterval)
        )
        self.sampleRate = sampleRate
        self.design = design
        self.loudness = loudness
        noise = NoiseSource(seeds: &seeds)
        colour = .allocate(capacity: 4 * Self.colourStageCount)
        colour.initialize(repeating: .zero, count: 4 * Self.colourStageCount)
        biquads = .allocate(capacity: 8 * Self.biquadCount)
        biquads.initialize(repeating: .zero, count: 8 * Self.biquadCount)
        scratch = .allocate(byteCount: Self.controlInterval * MemoryLayout<SIMD8<Float>>.stride, alignment: 32)
        scratch.initializeMemory(as: SIMD8<Float>.self, repeating: .zero, count: Self.controlInterval)
        ramps = (LayerRamps(.off), LayerRamps(.off))
        updateCoefficients()
        laneGain = targetLaneGain()
    }

    deinit {
        colour.deallocate()
        biquads.deallocate()
        scratch.deallocate()
    }

    /// Clears filter state (not the generator: its sequence is part of the seed's contract).
    func reset() {
        for k in 0..<Self.colourStageCount { colour[4 * k + 3] = .zero }
        for q in 0..<Self.biquadCount {
            biquads[8 * q + 5] = .zero
            biquads[8 * q + 6] = .zero
        }
    }

    /// Seeds both layers' movement (call before rendering).
    func seedMovement(_ seed: UInt64) {
        modulators = (MovementModulator(seed: seed), MovementModulator(seed: seed))
    }

    /// Seeds both layers' textures (call before rendering); each layer gets its own sequence.
    func seedTextures(_ seed: UInt64) {
        var seeds = SplitMix64(seed: seed)
        textures.0.reseed(seeds.next())
        textures.1.reseed(seeds.next())
    }

    func set(_ index: Int, _ settings: LayerSettings, rampFrames: Int) {
        if index == 0 {
            ramps.0.set(settings, rampFrames: rampFrames)
        } else {
            ramps.1.set(settings, rampFrames: rampFrames)
        }
        if index == 0 {
            textures.0.set(settings.texture, rampFrames: rampFrames)
        } else {
            textures.1.set(settings.texture, rampFrames: rampFrames)
        }
        needsCoefficients = true
    }

    /// True when both layers are at zero gain and nothing is moving: the pair can be skipped.
    var isSilent: Bool {
        laneGain == .zero && !ramps.0.isRamping && !ramps.1.isRamping && ramps.0.gain.value == 0
            && ramps.1.gain.value == 0
    }

    /// Loudness calibration of each layer's current colour times the colour stages' factored-out
    /// b0s, refreshed with the coefficients.
    @exclusivity(unchecked) var loudnessGain: (Float, Float) = (1, 1)

    func targetLaneGain() -> SIMD4<Float> {
        let a = ramps.0.gain.value * loudnessGain.0 * movementGain.0
        let b = ramps.1.gain.value * loudnessGain.1 * movementGain.1
        return SIMD4(a, a, b, b)
    }

    /// Advances the ramps by one sub-block, refreshes coefficients if anything moved, and returns
    /// the per-sample gain line for the sub-block.
    func beginSubBlock(frameCount: Int) -> (start: SIMD4<Float>, step: SIMD4<Float>) {
        var cutMoved = false
        if ramps.0.isMoving || ramps.1.isMoving {
            movementFrames += frameCount
            if movementFrames >= Self.movementInterval {
                cutMoved = advanceMovement(movementFrames)
                movementFrames = 0
            }
        }
        if needsCoefficients || ramps.0.isRamping || ramps.1.isRamping {
            ramps.0.advance(frameCount)
            ramps.1.advance(frameCount)
            updateCoefficients()
            needsCoefficients = ramps.0.isRamping || ramps.1.isRamping
        } else if cutMoved {
            updateHighCuts()
        }
        let start = laneGain
        laneGain = targetLaneGain()
        return (start, (laneGain - start) / Float(frameCount))
    }

    /// Writes `frameCount` (≤ `controlInterval`) frames of the pair's four lanes into `output`.
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    func process(into output: UnsafeMutablePointer<SIMD4<Float>>, frameCount: Int) {
        let g = beginSubBlock(frameCount: frameCount)
        var gain = g.start
        var noise = self.noise
        let c = colour, q = biquads
        if textures.0.isActive || textures.1.isActive {
            // A texture layer's lanes take the texture in place of the noise; the generator still
            // advances, so the other layer's noise is the sample it would have been.
            let texA = textures.0.isActive, texB = textures.1.isActive
            TextureGenerator.render(
                texA ? textures.0 : nil, texB ? textures.1 : nil, nil, nil, frameCount: frameCount)
            let ta = textures.0.output, tb = textures.1.output
            // The noise's share of a lane that is fading to or from its texture (0 otherwise).
            let fadeA = (textures.0.noiseGainStart, textures.0.noiseGainStep)
            let fadeB = (textures.1.noiseGainStart, textures.1.noiseGainStep)
            // Outside a fade the lane is the texture alone: no arithmetic (and the same bytes as before).
            let fadingA = fadeA != (0, 0), fadingB = fadeB != (0, 0)
            var k = 0
            ChainKernel.run(
                frameCount: frameCount, scratch: scratch.assumingMemoryBound(to: SIMD4<Float>.self),
                load: { i in i < 40 ? c[i] : q[i - 40] },
                store: { i, v in if i < 40 { c[i] = v } else { q[i - 40] = v } },
                noise: {
                    var n = noise.next()
                    if texA { n.lowHalf = textureLane(n.lowHalf, ta[k], fading: fadingA, fadeA, at: Float(k)) }
                    if texB { n.highHalf = textureLane(n.highHalf, tb[k], fading: fadingB, fadeB, at: Float(k)) }
                    k += 1
                    return n
                },
                emit: { i, v in
                    gain += g.step
                    output[i] = v * gain
                })
            self.noise = noise
            return
        }
        ChainKernel.run(
            frameCount: frameCount, scratch: scratch.assumingMemoryBound(to: SIMD4<Float>.self),
            load: { i in i < 40 ? c[i] : q[i - 40] },
            store: { i, v in if i < 40 { c[i] = v } else { q[i - 40] = v } },
            noise: { noise.next() },
            emit: { i, v in
                gain += g.step
                output[i] = v * gain
            })
        self.noise = noise
    }

    /// Processes two pairs in one loop: their chains are independent, so interleaving them doubles
    /// the work in flight while each recursive filter waits on its previous sample.
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    static func processBoth(
        _ a: LayerPair, _ b: LayerPair, into outA: UnsafeMutablePointer<SIMD4<Float>>,
        _ outB: UnsafeMutablePointer<SIMD4<Float>>, frameCount: Int
    ) {
        let ga = a.beginSubBlock(frameCount: frameCount)
        let gb = b.beginSubBlock(frameCount: frameCount)
        let gain = (
            start: SIMD8(lowHalf: ga.start, highHalf: gb.start), step: SIMD8(lowHalf: ga.step, highHalf: gb.step)
        )
        var noiseA = a.noise, noiseB = b.noise
        let textured = (a.textures.0.isActive, a.textures.1.isActive, b.textures.0.isActive, b.textures.1.isActive)
        if textured.0 || textured.1 || textured.2 || textured.3 {
            // As in `process`: texture lanes replace noise lanes, every generator still advances.
            // The four generators' voices in one kernel call (see `TextureGenerator.render`).
            TextureGenerator.render(
                textured.0 ? a.textures.0 : nil, textured.1 ? a.textures.1 : nil, textured.2 ? b.textures.0 : nil,
                textured.3 ? b.textures.1 : nil, frameCount: frameCount)
            let t0 = a.textures.0.output, t1 = a.textures.1.output, t2 = b.textures.0.output, t3 = b.textures.1.output
            let f0 = (a.textures.0.noiseGainStart, a.textures.0.noiseGainStep)
            let f1 = (a.textures.1.noiseGainStart, a.textures.1.noiseGainStep)
            let f2 = (b.textures.0.noiseGainStart, b.textures.0.noiseGainStep)
            let f3 = (b.textures.1.noiseGainStart, b.textures.1.noiseGainStep)
            let fading = (f0 != (0, 0), f1 != (0, 0), f2 != (0, 0), f3 != (0, 0))
            // A pair whose two layers play their textures alone uses none of its noise: it moves on
            // by the sub-block afterwards instead (`skip`, the same state).
            let skipA = textured.0 && textured.1 && !fading.0 && !fading.1
            let skipB = textured.2 && textured.3 && !fading.2 && !fading.3
            if skipA && skipB && a.usesAVX2 {
                // All four lanes are textures: moved into the chain's input in C (the Swift loop
                // below spent 8 ns a frame building the vectors), then the same chain.
                cnk_texture_lanes(floats(t0), floats(t1), floats(t2), floats(t3), a.scratch, frameCount)
                chainAVX2(a, b, into: outA, outB, frameCount: frameCount, gain: gain)
            } else {
                var k = 0
                runBoth(a, b, into: outA, outB, frameCount: frameCount, gain: gain) {
                    var na = skipA ? .zero : noiseA.next(), nb = skipB ? .zero : noiseB.next()
                    let x = Float(k)
                    if textured.0 { na.lowHalf = textureLane(na.lowHalf, t0[k], fading: fading.0, f0, at: x) }
                    if textured.1 { na.highHalf = textureLane(na.highHalf, t1[k], fading: fading.1, f1, at: x) }
                    if textured.2 { nb.lowHalf = textureLane(nb.lowHalf, t2[k], fading: fading.2, f2, at: x) }
                    if textured.3 { nb.highHalf = textureLane(nb.highHalf, t3[k], fading: fading.3, f3, at: x) }
                    k += 1
                    return SIMD8(lowHalf: na, highHalf: nb)
                }
            }
            if skipA { noiseA.skip(frameCount) }
            if skipB { noiseB.skip(frameCount) }
        } else {
            runBoth(a, b, into: outA, outB, frameCount: frameCount, gain: gain) {
                SIMD8(lowHalf: noiseA.next(), highHalf: noiseB.next())
            }
        }
        a.noise = noiseA
        b.noise = noiseB
    }

    /// The two pairs' chains in one loop over `noise`'s eight lanes (pair `a` low, `b` high), with
    /// the gain ramping from `gain.start` by `gain.step` per frame. Always inlined, so each caller's
    /// `noise` is specialised into the loop as if written there.
    @inline(__always)
    private static func runBoth(
        _ a: LayerPair, _ b: LayerPair, into outA: UnsafeMutablePointer<SIMD4<Float>>,
        _ outB: UnsafeMutablePointer<SIMD4<Float>>, frameCount: Int,
        gain ramp: (start: SIMD8<Float>, step: SIMD8<Float>), noise: () -> SIMD8<Float>
    ) {
        if a.usesAVX2 {
            // The sources into the scratch, then the chain in one AVX register a vector (see
            // `cnk_layer_chain_avx2`): the same bits as `ChainKernel.run` below.
            let input = a.scratch.assumingMemoryBound(to: SIMD8<Float>.self)
            for i in 0..<frameCount { input[i] = noise() }
            chainAVX2(a, b, into: outA, outB, frameCount: frameCount, gain: ramp)
            return
        }
        let ca = a.colour, qa = a.biquads, cb = b.colour, qb = b.biquads
        var gain = ramp.start
        ChainKernel.run(
            frameCount: frameCount, scratch: a.scratch.assumingMemoryBound(to: SIMD8<Float>.self),
            load: { i in
                i < 40 ? SIMD8(lowHalf: ca[i], highHalf: cb[i]) : SIMD8(lowHalf: qa[i - 40], highHalf: qb[i - 40])
            },
            store: { i, v in
                if i < 40 {
                    ca[i] = v.lowHalf
                    cb[i] = v.highHalf
                } else {
                    qa[i - 40] = v.lowHalf
                    qb[i - 40] = v.highHalf
                }
            },
            noise: noise,
            emit: { i, v in
                gain += ramp.step
                let y = v * gain
                outA[i] = y.lowHalf
                outB[i] = y.highHalf
            })
    }

    /// The two pairs' chain on AVX2 over the sources in `a.scratch` (`cnk_layer_chain_avx2`).
    private static func chainAVX2(
        _ a: LayerPair, _ b: LayerPair, into outA: UnsafeMutablePointer<SIMD4<Float>>,
        _ outB: UnsafeMutablePointer<SIMD4<Float>>, frameCount: Int,
        gain ramp: (start: SIMD8<Float>, step: SIMD8<Float>)
    ) {
        var start = ramp.start, step = ramp.step
        withUnsafePointer(to: &start) { s in
            withUnsafePointer(to: &step) { d in
                cnk_layer_chain_avx2(
                    a.scratch, floats(a.colour), floats(b.colour), floats(a.biquads), floats(b.biquads), floats(s),
                    floats(d), floats(outA), floats(outB), frameCount)
            }
        }
    }

    /// Moves each moving layer's modulator on by `frames`; returns true when a high cut moved.
    ///
    /// Real-time safety: arithmetic and a few `exp2f`/`cosf`; no allocation.
    func advanceMovement(_ frames: Int) -> Bool {
        let fs = Float(sampleRate)
        let movedA = Self.move(
            ramps.0, &modulators.0, gain: &movementGain.0, cutOctaves: &movementCutOctaves.0,
            frames: frames, sampleRate: fs)
        let movedB = Self.move(
            ramps.1, &modulators.1, gain: &movementGain.1, cutOctaves: &movementCutOctaves.1,
            frames: frames, sampleRate: fs)
        return movedA || movedB
    }

    /// One layer of the pair: its modulator on by `frames`, then its level factor and high-cut offset;
    /// true when the offset changed. A layer without movement sits at gain 1 and offset 0.
    @inline(__always)
    private static func move(
        _ ramps: LayerRamps, _ modulator: inout MovementModulator, gain: inout Float,
        cutOctaves: inout Float, frames: Int, sampleRate fs: Float
    ) -> Bool {
        guard ramps.isMoving else {
            defer {
                gain = 1
                cutOctaves = 0
            }
            return cutOctaves != 0
        }
        // log2(10)/20: dB to a base-2 exponent of amplitude.
        let dbToLog2: Float = 0.166_096_4
        modulator.advance(frames, periodFrames: ramps.movePeriodSeconds * fs)
        let m = modulator.value
        gain = exp2f(ramps.moveLevelDb.value * m * dbToLog2)
        let cut = ramps.moveCutOctaves.value * m
        defer { cutOctaves = cut }
        return cut != cutOctaves
    }

    /// Recomputes only the high cuts (movement between full updates).
    func updateHighCuts() {
        let fs = sampleRate
        setBiquad(
            1, BiquadDesign.lowPass(cutoffHz: ramps.0.highCutHz(offsetOctaves: movementCutOctaves.0), sampleRate: fs),
            BiquadDesign.lowPass(cutoffHz: ramps.1.highCutHz(offsetOctaves: movementCutOctaves.1), sampleRate: fs),
            wetA: ramps.0.highCutWet.value, wetB: ramps.1.highCutWet.value)
    }

    /// Recomputes every coefficient from the ramps' current values.
    func updateCoefficients() {
        let a = ramps.0, b = ramps.1
        // The colour stages run with b0 factored out (one multiply fewer per stage and sample); the
        // product of the b0s joins the layer's gain at the end, where the chain is linear anyway.
        var gainA = Double(loudness.gain(beta: a.beta.value)), gainB = Double(loudness.gain(beta: b.beta.value))
        let dc = FirstOrderCoefficients.dcBlocker(cornerHz: ColourDesign.dcBlockerHz, sampleRate: sampleRate)
        for k in 0...ColourDesign.sectionCount {
            let isDC = k == ColourDesign.sectionCount
            let ca = isDC ? dc : design.section(k, beta: Double(a.beta.value))
            let cb = isDC ? dc : design.section(k, beta: Double(b.beta.value))
            gainA *= ca.b0
            gainB *= cb.b0
            let c = colour + 4 * k
            c[0] = SIMD4(Float(ca.b0), Float(ca.b0), Float(cb.b0), Float(cb.b0))  // kept for reference
            c[1] = SIMD4(Float(ca.b1 / ca.b0), Float(ca.b1 / ca.b0), Float(cb.b1 / cb.b0), Float(cb.b1 / cb.b0))
            c[2] = SIMD4(Float(ca.a1), Float(ca.a1), Float(cb.a1), Float(cb.a1))
        }
        loudnessGain = (Float(gainA), Float(gainB))

        let fs = sampleRate
        setBiquad(
            0, BiquadDesign.highPass(cutoffHz: a.lowCutHz, sampleRate: fs),
            BiquadDesign.highPass(cutoffHz: b.lowCutHz, sampleRate: fs), wetA: a.lowCutWet.value,
            wetB: b.lowCutWet.value)
        setBiquad(
            1, BiquadDesign.lowPass(cutoffHz: a.highCutHz(offsetOctaves: movementCutOctaves.0), sampleRate: fs),
            BiquadDesign.lowPass(cutoffHz: b.highCutHz(offsetOctaves: movementCutOctaves.1), sampleRate: fs),
            wetA: a.highCutWet.value, wetB: b.highCutWet.value)
        setBiquad(
            2,
            BiquadDesign.lowShelf(cornerHz: LayerSettings.eqLowShelfHz, gainDb: Double(a.eqLow.value), sampleRate: fs),
            BiquadDesign.lowShelf(cornerHz: LayerSettings.eqLowShelfHz, gainDb: Double(b.eqLow.value), sampleRate: fs))
        setBiquad(
            3,
            BiquadDesign.peaking(
                centreHz: LayerSettings.eqMidHz, q: LayerSettings.eqMidQ, gainDb: Double(a.eqMid.value),
                sampleRate: fs),
            BiquadDesign.peaking(
                centreHz: LayerSettings.eqMidHz, q: LayerSettings.eqMidQ, gainDb: Double(b.eqMid.value), sampleRate: fs)
        )
        setBiquad(
            4,
            BiquadDesign.highShelf(
                cornerHz: LayerSettings.eqHighShelfHz, gainDb: Double(a.eqHigh.value), sampleRate: fs),
            BiquadDesign.highShelf(
                cornerHz: LayerSettings.eqHighShelfHz, gainDb: Double(b.eqHigh.value), sampleRate: fs))
    }

    private func setBiquad(_ q: Int, _ a: BiquadCoefficients, _ b: BiquadCoefficients, wetA: Float = 1, wetB: Float = 1)
    {
        let c = biquads + 8 * q
        c[0] = SIMD4(Float(a.b0), Float(a.b0), Float(b.b0), Float(b.b0))
        c[1] = SIMD4(Float(a.b1), Float(a.b1), Float(b.b1), Float(b.b1))
        c[2] = SIMD4(Float(a.b2), Float(a.b2), Float(b.b2), Float(b.b2))
        c[3] = SIMD4(Float(a.a1), Float(a.a1), Float(b.a1), Float(b.a1))
        c[4] = SIMD4(Float(a.a2), Float(a.a2), Float(b.a2), Float(b.a2))
        c[7] = SIMD4(wetA, wetA, wetB, wetB)
    }
}

/// A vector's storage as its floats.
@inline(__always)
private func floats<V: SIMD>(_ p: UnsafePointer<V>) -> UnsafeMutablePointer<Float> where V.Scalar == Float {
    UnsafeMutableRawPointer(mutating: p).assumingMemoryBound(to: Float.self)
}

/// A texture lane's sample `k` of a sub-block: the texture alone, or while it fades to or from
/// noise (`fading`) the noise at its share `fade.start + fade.step · k` under the texture. Outside
/// a fade no arithmetic, so those lanes keep the texture's bytes. Inlined: `process` and
/// `processBoth` call it per lane inside the sample loop.
@inline(__always)
func textureLane(
    _ noise: SIMD2<Float>, _ texture: SIMD2<Float>, fading: Bool, _ fade: (start: Float, step: Float), at k: Float
) -> SIMD2<Float> {
    fading ? noise * (fade.start + fade.step * k) + texture : texture
}

/// The per-sample chain of a layer pair, written once for any lane width (SIMD4: one pair;
/// SIMD8: two pairs interleaved). Storage indices: colour stage k at 4k (b0, b1, a1, state),
/// biquad q at 40 + 8q (b0, b1, b2, a1, a2, s1, s2, wet).
enum ChainKernel {
    @inline(__always)
    static func run<V: SIMD>(
        frameCount: Int, scratch: UnsafeMutablePointer<V>, load: (Int) -> V, store: (Int, V) -> Void,
        noise: () -> V, emit: (Int, V) -> Void
    ) where V.Scalar == Float {
        // Coefficients and states in locals: the compiler keeps what fits in registers and knows
        // the rest cannot alias the output, so the sample loop has no reloads through pointers.
        var c0 = FirstOrderLanes<V>(load, 0), c1 = FirstOrderLanes<V>(load, 4)
        var c2 = FirstOrderLanes<V>(load, 8), c3 = FirstOrderLanes<V>(load, 12)
        var c4 = FirstOrderLanes<V>(load, 16), c5 = FirstOrderLanes<V>(load, 20)
        var c6 = FirstOrderLanes<V>(load, 24), c7 = FirstOrderLanes<V>(load, 28)
        var c8 = FirstOrderLanes<V>(load, 32), dc = FirstOrderLanes<V>(load, 36)
        var bq0 = BiquadLanes<V>(load, 40), bq1 = BiquadLanes<V>(load, 48), bq2 = BiquadLanes<V>(load, 56)
        var bq3 = BiquadLanes<V>(load, 64), bq4 = BiquadLanes<V>(load, 72)
        // Four passes over the sub-block through a small buffer in L1: each pass keeps only its
        // own states live, so with 16 SSE registers far less spills than one pass over all stages.
        for i in 0..<frameCount {
            var v = noise()
            c0.process(&v)
            c1.process(&v)
            c2.process(&v)
            c3.process(&v)
            c4.process(&v)
            scratch[i] = v
        }
        for i in 0..<frameCount {
            var v = scratch[i]
            c5.process(&v)
            c6.process(&v)
            c7.process(&v)
            c8.process(&v)
            dc.process(&v)
            scratch[i] = v
        }
        if bq0.wet == V(repeating: 1) && bq1.wet == V(repeating: 1) {
            // Both cuts fully on (the usual case): no dry/wet mix to compute.
            for i in 0..<frameCount {
                var v = scratch[i]
                bq0.process(&v)
                bq1.process(&v)
                scratch[i] = v
            }
        } else {
            for i in 0..<frameCount {
                var v = scratch[i]
                bq0.processWet(&v)
                bq1.processWet(&v)
                scratch[i] = v
            }
        }
        for i in 0..<frameCount {
            var v = scratch[i]
            bq2.process(&v)
            bq3.process(&v)
            bq4.process(&v)
            emit(i, v)
        }
        c0.store(store, 0)
        c1.store(store, 4)
        c2.store(store, 8)
        c3.store(store, 12)
        c4.store(store, 16)
        c5.store(store, 20)
        c6.store(store, 24)
        c7.store(store, 28)
        c8.store(store, 32)
        dc.store(store, 36)
        bq0.store(store, 40)
        bq1.store(store, 48)
        bq2.store(store, 56)
        bq3.store(store, 64)
        bq4.store(store, 72)
    }
}

/// One transposed-direct-form-II first-order section across the lanes, with b0 factored out
/// (`b1` here is b1/b0; the caller applies b0): y = x + s, s = b1·x − a1·y. Copied out of the
/// pair's storage (b0, b1, a1, state at `base`…`base + 3`) for a sub-block, like `BiquadLanes`.
struct FirstOrderLanes<V: SIMD> where V.Scalar == Float {
    let b1, a1: V
    var s: V

    @inline(__always)
    init(_ load: (Int) -> V, _ base: Int) {
        b1 = load(base + 1)
        a1 = load(base + 2)
        s = load(base + 3)
    }

    @inline(__always)
    func store(_ store: (Int, V) -> Void, _ base: Int) {
        store(base + 3, s)
    }

    @inline(__always)
    mutating func process(_ v: inout V) {
        let y = v + s
        s = b1 * v - a1 * y
        v = y
    }
}

/// A biquad's coefficients and state across the lanes, copied out of the pair's storage for a
/// sub-block (TDF-II, the form that behaves best while coefficients move).
struct BiquadLanes<V: SIMD> where V.Scalar == Float {
    let b0, b1, b2, a1, a2, wet: V
    var s1, s2: V

    @inline(__always)
    init(_ load: (Int) -> V, _ base: Int) {
        b0 = load(base)
        b1 = load(base + 1)
        b2 = load(base + 2)
        a1 = load(base + 3)
        a2 = load(base + 4)
        s1 = load(base + 5)
        s2 = load(base + 6)
        wet = load(base + 7)
    }

    @inline(__always)
    func store(_ store: (Int, V) -> Void, _ base: Int) {
        store(base + 5, s1)
        store(base + 6, s2)
    }

    @inline(__always)
    mutating func process(_ v: inout V) {
        let y = b0 * v + s1
        s1 = b1 * v - a1 * y + s2
        s2 = b2 * v - a2 * y
        v = y
    }

    /// Processes and mixes the result with the input by `wet` (0 bypasses exactly).
    @inline(__always)
    mutating func processWet(_ v: inout V) {
        let x = v
        process(&v)
        v = x + wet * (v - x)
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
    var moveLevelDb: ParameterRamp
    var moveCutOctaves: ParameterRamp
    var movePeriodSeconds: Float

    /// Corners used while a cut is off: the filter keeps running there so turning it on is smooth.
    static let idleLowCutHz: Float = 20
    static let idleHighCutHz: Float = 20_000

    init(_ s: LayerSettings) {
        gain = ParameterRamp(s.isEnabled ? VolumeCurve.amplitude(s.volume) : 0)
        beta = ParameterRamp(s.effectiveColour)
        log2LowCut = ParameterRamp(log2f(s.lowCutHz ?? Self.idleLowCutHz))
        log2HighCut = ParameterRamp(log2f(s.highCutHz ?? Self.idleHighCutHz))
        lowCutWet = ParameterRamp(s.lowCutHz == nil ? 0 : 1)
        highCutWet = ParameterRamp(s.highCutHz == nil ? 0 : 1)
        eqLow = ParameterRamp(s.eqLowDb)
        eqMid = ParameterRamp(s.eqMidDb)
        eqHigh = ParameterRamp(s.eqHighDb)
        moveLevelDb = ParameterRamp(s.movement.levelDb)
        moveCutOctaves = ParameterRamp(s.highCutHz == nil ? 0 : s.movement.highCutOctaves)
        movePeriodSeconds = s.movement.periodSeconds
    }

    mutating func set(_ s: LayerSettings, rampFrames n: Int) {
        gain.setTarget(s.isEnabled ? VolumeCurve.amplitude(s.volume) : 0, frames: n)
        beta.setTarget(s.effectiveColour, frames: n)
        // A cut that is fully off jumps to its new corner (nothing of it is heard); one still fading
        // out, or on, glides there.
        if let hz = s.lowCutHz {
            log2LowCut.setTarget(log2f(hz), frames: lowCutWet.value == 0 && !lowCutWet.isRamping ? 0 : n)
        }
        if let hz = s.highCutHz {
            log2HighCut.setTarget(log2f(hz), frames: highCutWet.value == 0 && !highCutWet.isRamping ? 0 : n)
        }
        lowCutWet.setTarget(s.lowCutHz == nil ? 0 : 1, frames: n)
        highCutWet.setTarget(s.highCutHz == nil ? 0 : 1, frames: n)
        eqLow.setTarget(s.eqLowDb, frames: n)
        eqMid.setTarget(s.eqMidDb, frames: n)
        eqHigh.setTarget(s.eqHighDb, frames: n)
        moveLevelDb.setTarget(s.movement.levelDb, frames: n)
        moveCutOctaves.setTarget(s.highCutHz == nil ? 0 : s.movement.highCutOctaves, frames: n)
        movePeriodSeconds = max(s.movement.periodSeconds, 0.1)
    }

    /// True while movement does anything (or is fading in or out).
    var isMoving: Bool {
        moveLevelDb.value != 0 || moveLevelDb.isRamping || moveCutOctaves.value != 0 || moveCutOctaves.isRamping
    }

    var isRamping: Bool {
        gain.isRamping || beta.isRamping || log2LowCut.isRamping || log2HighCut.isRamping || lowCutWet.isRamping
            || highCutWet.isRamping || eqLow.isRamping || eqMid.isRamping || eqHigh.isRamping
            || moveLevelDb.isRamping || moveCutOctaves.isRamping
    }

    mutating func advance(_ n: Int) {
        gain.advance(n)
        beta.advance(n)
        log2LowCut.advance(n)
        log2HighCut.advance(n)
        lowCutWet.advance(n)
        highCutWet.advance(n)
        eqLow.advance(n)
        eqMid.advance(n)
        eqHigh.advance(n)
        moveLevelDb.advance(n)
        moveCutOctaves.advance(n)
    }

    var lowCutHz: Double { Double(exp2f(log2LowCut.value)) }
    var highCutHz: Double { Double(exp2f(log2HighCut.value)) }
    /// The high cut moved by `offsetOctaves` (exactly `highCutHz` when the offset is 0).
    func highCutHz(offsetOctaves: Float) -> Double { Double(exp2f(log2HighCut.value + offsetOctaves)) }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
