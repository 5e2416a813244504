import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Predicts what a mix measures, without rendering it: the integrated loudness (ITU-R BS.1770,
/// LUFS), the unweighted level and the spectrum of each layer and of the total.
///
/// Each layer is white noise of known variance through known filters (colour cascade, DC blocker,
/// cuts, EQ) times known gains (loudness calibration, volume curve, master), so its power spectral
/// density is σ²·|H(f)|² and its K-weighted power the integral of that times the K-weighting.
/// Layers are independent generators, so their powers add. Movement multiplies a layer's power by
/// its long-run average over the modulator's distribution (fixed, so the average is too).
/// The limiter is not modelled: it only acts on mixes that `peakHeadroomDb` says are near it.
///
/// Everything here allocates and takes milliseconds: never call it on the render thread.
public struct LoudnessModel: Sendable {
    public let sampleRate: Double
    let design: ColourDesign
    let calibration: LoudnessCalibration
    /// Midpoint grid over 0…Nyquist: cos ω and the K-weighting's |H|² at each point.
    let cosines: [Double]
    let kWeight: [Double]
    /// Movement's long-run distribution: values of the modulator and the share of time at each.
    let movementValues: [Float]
    let movementWeights: [Double]
    /// Drops' source power per unit density at each grid point (`TextureSpectrum`).
    let dropSpectrum: [Double]
    /// Surging kinds' envelopes in 100 ms hops (`TextureBed.powerFactorHops`), for the gate. An
    /// hour of one takes ~25 ms to make (41 % of `noise presets show white` when all three were made
    /// with every model), so each is made when a mix first has such a layer, once per process.
    static let surgeHopCache = Mutex<[SurgeHopKey: [SIMD8<Float>]]>([:])
    struct SurgeHopKey: Hashable {
        var kind: TextureKind
        var sampleRate: Double
    }

    /// How long a surging texture's envelope the gate is judged over: an hour holds 900 waves and
    /// 240 flashes of thunder (the gate's lift settles faster than the level itself).
    static let gateHopCount = 36_000

    public static let pointCount = 8192
    /// Computed once per process (about 20 ms).
    static let movementDistribution = MovementModulator.distribution()
    /// BS.1770's offset between K-weighted mean square and LUFS.
    public static let lufsOffset = -0.691
    /// Peak-to-RMS ratio used to judge the limiter: a Gaussian signal passes 4.5σ (13.1 dB) in about
    /// 1 sample of 150 000, once or twice a second at 48 kHz stereo.
    public static let crestFactorDb = 13.1
    /// The limiter's ceiling (see `PeakLimiter`).
    public static let limiterCeilingDbfs = -0.5

    public init(sampleRate: Double) {
        self.init(design: ColourDesign(sampleRate: sampleRate))
    }

    public init(design: ColourDesign) {
        sampleRate = design.sampleRate
        self.design = design
        calibration = LoudnessCalibration(design: design)
        let k = KWeighting.stages(sampleRate: sampleRate)
        var c = [Double](repeating: 0, count: Self.pointCount)
        var w = [Double](repeating: 0, count: Self.pointCount)
        for i in 0..<Self.pointCount {
            c[i] = cos(Double.pi * (Double(i) + 0.5) / Double(Self.pointCount))
            w[i] = k.shelf.powerResponse(cosOmega: c[i]) * k.highPass.powerResponse(cosOmega: c[i])
        }
        cosines = c
        kWeight = w
        (movementValues, movementWeights) = Self.movementDistribution
        let fs = sampleRate
        dropSpectrum = c.map { TextureSpectrum.dropEnergySpectrum(cosOmega: $0, sampleRate: fs) }
    }

    /// `kind`'s envelope for the gate, or nil when the kind does not surge.
    func surgeHops(_ kind: TextureKind) -> [SIMD8<Float>]? {
        guard let p = TextureProfile.of(kind), p.surgePerSecond > 0 else { return nil }
        let key = SurgeHopKey(kind: kind, sampleRate: sampleRate)
        if let hops = Self.surgeHopCache.withLock({ $0[key] }) { return hops }
        let hops = TextureBed.powerFactorHops(p, sampleRate: sampleRate, hopCount: Self.gateHopCount)
        Self.surgeHopCache.withLock { $0[key] = hops }
        return hops
    }

    /// A layer's source power at grid point `i` (σ² for noise).
    func sourcePower(_ t: TextureSettings, point i: Int) -> Double {
        t.kind == .drops
            ? Double(t.densityPerSecond) * dropSpectrum[i]
            : TextureSpectrum.sourcePower(t, cosOmega: cosines[i], sampleRate: sampleRate)
    }

    /// |H|² of a layer's whole chain at cos ω, gains included (calibration × volume curve), without
    /// the master; `highCutOffsetOctaves` moves the high cut as movement does.
    public func layerPowerResponse(_ s: LayerSettings, cosOmega c: Double, highCutOffsetOctaves: Float = 0) -> Double {
        guard s.isEnabled else { return 0 }
        let amplitude = Double(VolumeCurve.amplitude(s.volume) * calibration.gain(beta: s.effectiveColour))
        // A texture's source relative to the white noise it replaces.
        var p =
            amplitude * amplitude * TextureSpectrum.sourcePower(s.texture, cosOmega: c, sampleRate: sampleRate)
            / NoiseSource.variance
        for section in design.sections(beta: Double(s.effectiveColour)) { p *= section.powerResponse(cosOmega: c) }
        for f in filters(s, highCutOffsetOctaves: highCutOffsetOctaves) { p *= f.powerResponse(cosOmega: c) }
        return p
    }

    /// The cut and EQ biquads as the engine designs them.
    func filters(_ s: LayerSettings, highCutOffsetOctaves: Float = 0) -> [BiquadCoefficients] {
        var out: [BiquadCoefficients] = []
        if let lc = s.lowCutHz {
            out.append(BiquadDesign.highPass(cutoffHz: Double(exp2f(log2f(lc))), sampleRate: sampleRate))
        }
        if let hc = s.highCutHz {
            out.append(
                BiquadDesign.lowPass(cutoffHz: Double(exp2f(log2f(hc) + highCutOffsetOctaves)), sampleRate: sampleRate))
        }
        out.append(
            BiquadDesign.lowShelf(
                cornerHz: LayerSettings.eqLowShelfHz, gainDb: Double(s.eqLowDb), sampleRate: sampleRate))
        out.append(
            BiquadDesign.peaking(
                centreHz: LayerSettings.eqMidHz, q: LayerSettings.eqMidQ, gainDb: Double(s.eqMidDb),
                sampleRate: sampleRate))
        out.append(
            BiquadDesign.highShelf(
                cornerHz: LayerSettings.eqHighShelfHz, gainDb: Double(s.eqHighDb), sampleRate: sampleRate))
        return out
    }

    /// Filters and colour of one layer over the grid, reusable for several weightings.
    func layerResponses(_ s: LayerSettings, highCutOffsetOctaves: Float) -> [Double] {
        guard s.isEnabled, s.volume > 0 else { return [Double](repeating: 0, count: Self.pointCount) }
        let sections = design.sections(beta: Double(s.effectiveColour))
        let biquads = filters(s, highCutOffsetOctaves: highCutOffsetOctaves)
        let amplitude = Double(VolumeCurve.amplitude(s.volume) * calibration.gain(beta: s.effectiveColour))
        let g = amplitude * amplitude
        return cosines.indices.map { i in
            let c = cosines[i]
            var p = g * sourcePower(s.texture, point: i)
            for x in sections { p *= x.powerResponse(cosOmega: c) }
            for x in biquads { p *= x.powerResponse(cosOmega: c) }
            return p
        }
    }

    /// One layer's mean square per channel, K-weighted and unweighted, averaged over its movement.
    public func layerPower(_ s: LayerSettings) -> (kWeighted: Double, unweighted: Double) {
        func powers(_ offset: Float) -> (Double, Double) {
            let r = layerResponses(s, highCutOffsetOctaves: offset)
            var k = 0.0, u = 0.0
            for i in 0..<Self.pointCount {
                k += r[i] * kWeight[i]
                u += r[i]
            }
            return (k / Double(Self.pointCount), u / Double(Self.pointCount))
        }
        let still = powers(0)
        let move = s.movement
        let cutMoves = s.highCutHz != nil && move.highCutOctaves != 0
        guard s.isEnabled, move.levelDb != 0 || cutMoves else { return still }
        // Power as a function of the modulator value m: the level factor is exact; the cut's effect
        // is interpolated from 9 points of m in −1…1.
        let nodes = 9
        let cutPowers: [(Double, Double)] =
            cutMoves
            ? (0..<nodes).map { powers(move.highCutOctaves * (Float($0) / Float(nodes - 1) * 2 - 1)) }
            : []
        var k = 0.0, u = 0.0
        for (m, weight) in zip(movementValues, movementWeights) where weight > 0 {
            let level = weight * pow(10, Double(move.levelDb * m) / 10)
            var pk = still.0, pu = still.1
            if cutMoves {
                let x = Double(m + 1) / 2 * Double(nodes - 1)
                let i = min(Int(x), nodes - 2)
                let f = x - Double(i)
                pk = cutPowers[i].0 * (1 - f) + cutPowers[i + 1].0 * f
                pu = cutPowers[i].1 * (1 - f) + cutPowers[i + 1].1 * f
            }
            k += level * pk
            u += level * pu
        }
        return (k, u)
    }

    public struct Prediction: Sendable {
        /// Integrated loudness, LUFS (BS.1770, every channel weighted 1).
        public var loudnessLufs: Double
        /// Unweighted RMS of one channel, dBFS.
        public var rmsDbfs: Double
        /// The highest level movement reaches, above the average, in dB (0 for a still mix).
        public var movementPeakDb: Double
        /// The loudest single drop or crackle any texture layer plays, dBFS, before filtering
        /// (−∞ without textures): sparse pulses peak far above what the RMS's crest factor says.
        public var texturePeakDbfs: Double = -.infinity
        /// What BS.1770's relative gate adds to the loudness over the mean power, LU (0 unless a
        /// layer surges: `gatedPower`).
        public var gateLiftDb: Double = 0
        /// Estimated peaks (RMS + crest factor + movement, or the loudest texture pulse) against
        /// the limiter's ceiling: negative means the limiter stays idle.
        public var peakOverCeilingDb: Double {
            max(rmsDbfs + LoudnessModel.crestFactorDb, texturePeakDbfs) + movementPeakDb
                - LoudnessModel.limiterCeilingDbfs
        }
    }

    /// The loudness of `layers` at `masterVolume` (slider 0…1), in `channelCount` channels (mono is
    /// the left channel alone, so it measures 3 dB below stereo).
    public func predict(layers: [LayerSettings], masterVolume: Float, channelCount: Int = 2) -> Prediction {
        var k = 0.0, u = 0.0
        var movementPeak = 0.0
        var texturePeak = 0.0
        for l in layers where l.isEnabled && l.volume > 0 {
            let p = layerPower(l)
            k += p.kWeighted
            u += p.unweighted
            movementPeak = max(movementPeak, Double(l.movement.levelDb))
            texturePeak = max(
                texturePeak,
                Double(VolumeCurve.amplitude(l.volume) * calibration.gain(beta: l.effectiveColour))
                    * pulsePeakGain(beta: Double(l.effectiveColour))
                    * TextureSpectrum.largestPulseAmplitude(l.texture))
        }
        let master = Double(VolumeCurve.amplitude(masterVolume))
        k *= master * master
        u *= master * master
        let gated = gatedPower(
            layers: layers, masterPower: master * master, channelCount: channelCount, total: k)
        var prediction = Prediction(
            loudnessLufs: Self.lufsOffset + 10 * log10(gated * Double(channelCount)),
            rmsDbfs: 10 * log10(u), movementPeakDb: movementPeak)
        prediction.texturePeakDbfs = 20 * log10(texturePeak * master)
        prediction.gateLiftDb = k > 0 ? 10 * log10(gated / k) : 0
        return prediction
    }

    /// The K-weighted power (per channel, master included: `total`) that BS.1770's gates keep.
    /// Still layers and most textures hold their level from one 400 ms block to the next, so the
    /// gates drop nothing and the mean power is the loudness. Surging textures (waves, gusts,
    /// thunder) do not: a lull between waves sits several dB under the mean, and blocks more than
    /// 10 LU under the ungated loudness are dropped, which lifts the measure (ocean at 20 minutes:
    /// 0.15–0.2 LU over its mean power, measured on three seeds). Each surging layer's bands follow
    /// their kind's envelope (`surgeHops`, weighted by the band's K-weighted power in this layer);
    /// everything else (other layers, a texture's line and events) is taken as steady. Two
    /// layers of one kind play different stretches of it (their seeds differ).
    func gatedPower(layers: [LayerSettings], masterPower: Double, channelCount: Int, total: Double) -> Double {
        var surging: [(weights: SIMD8<Double>, hops: [SIMD8<Float>])] = []
        var steady = total
        for l in layers where l.isEnabled && l.volume > 0 {
            guard let hops = surgeHops(l.texture.kind), let p = TextureProfile.of(l.texture.kind) else { continue }
            let r = layerResponses(l, highCutOffsetOctaves: 0)
            let g = Double(TextureBed.referenceGain)
            var still = 0.0
            var bands = SIMD8<Double>(repeating: 0)
            for i in 0..<Self.pointCount where r[i] > 0 {
                let source = sourcePower(l.texture, point: i)
                let bed =
                    g * g * NoiseSource.variance
                    * TextureBed.bandPowers(p, cosOmega: cosines[i], sampleRate: sampleRate)
                let kw = r[i] * kWeight[i]
                still += kw
                bands += bed * (kw / source)
            }
            guard still > 0 else { continue }
            // Movement averages the layer's level; the bands keep their share of it.
            let weights = bands * (layerPower(l).kWeighted / still * masterPower)
            surging.append((weights, hops))
            steady -= weights.sum()
        }
        guard !surging.isEmpty else { return total }
        let base = max(steady, 0)
        let n = Self.gateHopCount
        var hopPower = [Double](repeating: base, count: n)
        for (j, s) in surging.enumerated() {
            let shift = j * n / (surging.count + 1)
            for h in 0..<n {
                let f = s.hops[(h + shift) % n]
                var sum = 0.0
                for b in 0..<8 { sum += s.weights[b] * Double(f[b]) }
                hopPower[h] += sum
            }
        }
        // 400 ms blocks, 75 % overlap; the absolute gate (−70 LUFS), then the relative (−10 LU).
        var blocks = [Double](repeating: 0, count: n - 3)
        for h in 0..<(n - 3) {
            let first = hopPower[h] + hopPower[h + 1]
            blocks[h] = (first + hopPower[h + 2] + hopPower[h + 3]) / 4
        }
        let absolute = pow(10, (-70 - Self.lufsOffset) / 10) / Double(channelCount)
        let audible = blocks.filter { $0 > absolute }
        guard !audible.isEmpty else { return total }
        let relative = audible.reduce(0, +) / Double(audible.count) * 0.1
        let kept = audible.filter { $0 > relative }
        let keptMean = kept.reduce(0, +) / Double(kept.count)
        let allMean = blocks.reduce(0, +) / Double(blocks.count)
        // The envelope's hour has its own mean (within a fraction of a percent of the model's):
        // the gate's lift is taken as a ratio so the mean power stays the model's closed form.
        return total * keptMean / allMean
    }

    /// What the colour stages do to a pulse's peak: the product of their b0s, the first sample of
    /// the cascade's impulse response. A pulse is over in a few samples (a click's envelope decays
    /// in 5–24), while the stages' tails that would add to it are long and small, so the first tap
    /// sets the peak; the calibration gain alone (which restores the *power* the colour takes from
    /// broadband noise) overstated campfire's clicks by about 8 dB.
    func pulsePeakGain(beta: Double) -> Double {
        abs(design.sections(beta: beta).reduce(1.0) { $0 * $1.b0 })
    }

    /// One-sided power spectral density of one channel (power per Hz) of one layer at `frequencyHz`,
    /// master included, averaged over movement of the high cut.
    public func layerDensity(_ s: LayerSettings, masterVolume: Float, atHz frequencyHz: Double) -> Double {
        guard s.isEnabled, s.volume > 0 else { return 0 }
        let c = cos(2 * Double.pi * frequencyHz / sampleRate)
        let master = Double(VolumeCurve.amplitude(masterVolume))
        let scale = 2 * NoiseSource.variance / sampleRate * master * master
        let move = s.movement
        if move.isStill || (move.levelDb == 0 && s.highCutHz == nil) {
            return scale * layerPowerResponse(s, cosOmega: c)
        }
        var sum = 0.0
        for (m, weight) in zip(movementValues, movementWeights) where weight > 0 {
            let level = pow(10, Double(move.levelDb * m) / 10)
            let offset = s.highCutHz == nil ? 0 : move.highCutOctaves * m
            sum += weight * level * layerPowerResponse(s, cosOmega: c, highCutOffsetOctaves: offset)
        }
        return scale * sum
    }
}
