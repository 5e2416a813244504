import Foundation
import NoiseDSP
import Synchronization

/// Loudness of whole mixes: the prediction, the reference level the built-in presets share, and
/// the master setting that reaches a target.
extension Mix {
    /// Every built-in preset measures this at its shipped master volume (EBU R128's programme
    /// level). Presets also share one master (`referenceMasterVolume`), so a master volume the user
    /// set keeps them all at the same loudness when switching.
    public static let referenceLoudnessLufs = -23.0
    /// The master volume every built-in preset ships with.
    public static let referenceMasterVolume = 0.9
    /// Accepted `--loudness` targets.
    public static let loudnessTargetRange = -70.0...0.0

    /// Models are cached per sample rate (building one takes a few milliseconds).
    static let models = Mutex<[Double: LoudnessModel]>([:])

    public static func loudnessModel(sampleRate: Double) -> LoudnessModel {
        if let m = models.withLock({ $0[sampleRate] }) { return m }
        let m = LoudnessModel(sampleRate: sampleRate)
        models.withLock { $0[sampleRate] = m }
        return m
    }

    /// The predicted loudness and level of this mix as it stands.
    public func predictedLoudness(sampleRate: Double = 48000, channelCount: Int = 2) -> LoudnessModel.Prediction {
        Self.loudnessModel(sampleRate: sampleRate).predict(
            layers: layerSettings, masterVolume: Float(masterVolume),
            channelCount: channelCount)
    }

    /// The master volume that makes this mix measure `targetLufs`, or why none does.
    public func masterVolume(
        forLoudness targetLufs: Double, sampleRate: Double = 48000,
        channelCount: Int = 2
    ) throws(MixError) -> Double {
        guard targetLufs.isFinite, Self.loudnessTargetRange.contains(targetLufs) else {
            throw MixError(
                path: "--loudness", message: "\(MixError.format(targetLufs)) LUFS is out of range; allowed -70…0 LUFS")
        }
        let model = Self.loudnessModel(sampleRate: sampleRate)
        let full = model.predict(layers: layerSettings, masterVolume: 1, channelCount: channelCount)
        guard full.loudnessLufs.isFinite else {
            throw MixError(
                path: "--loudness",
                message: "every layer is off or at volume 0: no master setting makes it \(Self.lufs(targetLufs))")
        }
        // The master is a cubic slider: 60·log10(v) dB.
        let neededDb = targetLufs - full.loudnessLufs
        if neededDb > 1e-9 {
            throw MixError(
                path: "--loudness",
                message:
                    """
                    \(Self.lufs(targetLufs)) is out of reach: at master 100% this mix measures \
                    \(Self.lufs(full.loudnessLufs)) (predicted); raise the layer volumes
                    """
            )
        }
        let over = full.peakOverCeilingDb + neededDb
        if over > 0 {
            throw MixError(
                path: "--loudness",
                message:
                    """
                    \(Self.lufs(targetLufs)) would drive the limiter: peaks about \(Self.db(over)) over its \
                    \(Self.db(LoudnessModel.limiterCeilingDbfs))FS ceiling (predicted RMS \
                    \(Self.db(full.rmsDbfs + neededDb))FS); the loudest this mix plays cleanly is \
                    \(Self.lufs(targetLufs - over))
                    """
            )
        }
        return min(1, pow(10, neededDb / 60))
    }

    public static func lufs(_ v: Double) -> String { v.isFinite ? String(format: "%.1f LUFS", v) : "silent" }
    static func db(_ v: Double) -> String { String(format: "%.1f dB", v) }
}

extension Mix {
    /// How long a render of this mix must last for its long-run level to show within a few tenths
    /// of a dB (what the loudness and spectrum checks render): still noise settles in 40 s; a
    /// statistics-driven texture swells for seconds at a time (4 minutes); a moving layer needs many
    /// swells (4 minutes); waves and gusts arrive a few a minute, each lifting it several dB
    /// (20 minutes); a layer whose power comes almost all in rare bursts settles over a count of
    /// bursts, not of minutes (`settlingBursts`: thunder, 100 minutes).
    public var settlingSeconds: Double {
        let live = layers.filter { $0.enabled && $0.volume > 0 }
        let profiles = live.compactMap { $0.texture.flatMap { TextureProfile.of($0.kind) } }
        if let rarest = Self.burstRatesPerSecond(live).min() { return max(1200, Double(Self.settlingBursts / rarest)) }
        if profiles.contains(where: { $0.surgePerSecond > 0 }) { return 1200 }
        let moving = live.contains { $0.movement.map { !$0.isStill } ?? false }
        return moving || !profiles.isEmpty ? 240 : 40
    }

    /// The mean seconds between bursts of this mix's rarest burst layer (thunder: 15 s), playing or
    /// not, nil when it has none: a render shorter than a few of these holds no burst or one, so its
    /// statistics say little about the layer (`noise match` renders such a mix longer, and keeps the
    /// length while its search turns the layer down to 0 and up again).
    public var burstIntervalSeconds: Double? { Self.burstRatesPerSecond(layers).min().map { 1 / Double($0) } }

    /// Surge rates of the layers whose surges carry their power (`burstSurgeDepth`).
    static func burstRatesPerSecond(_ layers: [Layer]) -> [Float] {
        layers.compactMap { $0.texture.flatMap { TextureProfile.of($0.kind) } }
            .filter { $0.surgePerSecond > 0 && $0.surgeDepth.min() >= burstSurgeDepth }.map(\.surgePerSecond)
    }

    /// Surges this deep carry nearly all of their layer's power: thunder's floor sits 30 dB under a
    /// flash, where a wave or a gust lifts a bed that sounds between them (depth 3 or less).
    static let burstSurgeDepth: Float = 10

    /// How many bursts a render must hold for such a layer's level to settle. Its power is a
    /// compound Poisson sum, so over N bursts it spreads by √(K/N), K = E[e²]/E[e]² of one burst's
    /// energy (the count's spread and the bursts' own: thunder's flash strength, its sub-peaks).
    /// Measured on the storm's thunder layer alone, 17 renders of 20 minutes (80 flashes each):
    /// 0.74 dB from render to render (K ≈ 2.4), with the model 0.20 ± 0.18 dB from their mean in
    /// every third octave, so the model is right and 20 minutes too few (seed 21 drew a quiet storm,
    /// 1.6 dB under). 400 bursts bring the spread to 0.33 dB, a third of the spectrum check's 1 dB.
    static let settlingBursts: Float = 400
}
