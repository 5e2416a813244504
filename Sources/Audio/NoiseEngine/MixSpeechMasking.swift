import Foundation
import NoiseDSP
import SpeechIntelligibility

#if canImport(Glibc)
    import Glibc
#endif

/// What a mix is *for*, measured: the Speech Intelligibility Index (ANSI S3.5-1997) of a talker at
/// normal vocal effort, 1 m away, heard under the mix playing at the talker's loudness.
///
/// The speech is the standard's speech spectrum at its own level (62.35 dB SPL); the noise is the
/// mix's predicted spectrum (`LoudnessModel`, movement averaged), scaled so that its BS.1770
/// K-weighted level equals the speech's: both at −23 LUFS, say. Monaural, normal hearing, the
/// average-speech importance function. The lower the index, the less of a colleague's words get through.
extension Mix {
    /// Words about how well a mix masks speech, made from the measured index and never written by
    /// hand (a preset's description once called white noise the best masker while its own index
    /// ranked it tenth of twelve): its place among `indices` (the lower, the better) and its figure.
    /// - Parameters:
    ///   - index: this mix's index (0…1), nil for a silent mix.
    ///   - indices: every compared mix's index, this one's included.
    public static func speechMaskingWords(index: Double?, among indices: [Double]) -> String {
        guard let index else { return "speech masking: none (silent)" }
        let rank = 1 + indices.filter { $0 < index }.count
        let place = rank == 1 ? "best" : "\(Self.ordinal(rank)) best"
        return "speech masking: \(place) of \(indices.count) (SII \(String(format: "%.3f", index)))"
    }

    static func ordinal(_ n: Int) -> String {
        let suffix =
            (11...13).contains(n % 100) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th"
        return "\(n)\(suffix)"
    }

    public func speechIntelligibilityIndex(sampleRate: Double = 48000) -> Double? {
        let noise = speechMaskingNoiseSpectrumDb(sampleRate: sampleRate)
        return noise.map {
            SpeechIntelligibilityIndex.index(speechDb: SpeechIntelligibilityIndex.normalSpeechSpectrumDb, noiseDb: $0)
        }
    }

    /// The mix's noise spectrum level in each SII band (dB per Hz, on the speech's SPL scale) at
    /// the speech's loudness; nil for a silent mix.
    func speechMaskingNoiseSpectrumDb(sampleRate: Double) -> [Double]? {
        let model = Self.loudnessModel(sampleRate: sampleRate)
        let layers = layerSettings.filter { $0.isEnabled && $0.volume > 0 }
        let noiseLoudness = model.predict(layers: layers, masterVolume: 1, channelCount: 1).loudnessLufs
        guard noiseLoudness.isFinite else { return nil }
        let noiseKWeightedDb = noiseLoudness - LoudnessModel.lufsOffset
        let offsetDb = Self.speechKWeightedDb(sampleRate: sampleRate) - noiseKWeightedDb
        let sii = SpeechIntelligibilityIndex.self
        return sii.bandCentresHz.indices.map { i in
            let power = layers.reduce(0.0) { $0 + Self.bandPower(model, $1, centreHz: sii.bandCentresHz[i]) }
            return 10 * log10(max(power, 1e-30)) + offsetDb - sii.bandwidthDb[i]
        }
    }

    /// Power of one layer in the one-third-octave band around `centreHz` (per channel, master 1):
    /// its density integrated over the band's edges, 64 log-spaced points.
    static func bandPower(_ model: LoudnessModel, _ layer: LayerSettings, centreHz: Double) -> Double {
        let points = 64
        let lowLog = Foundation.log(centreHz) - Foundation.log(2.0) / 6, width = Foundation.log(2.0) / 3
        var sum = 0.0
        for k in 0..<points {
            let f = exp(lowLog + width * (Double(k) + 0.5) / Double(points))
            // ∫ S(f) df = ∫ S(f) f d(ln f)
            sum += model.layerDensity(layer, masterVolume: 1, atHz: f) * f
        }
        return sum * width / Double(points)
    }

    /// K-weighted level of the standard speech spectrum (normal effort), dB on its SPL scale:
    /// each band's power times the K-weighting's gain at its centre.
    static func speechKWeightedDb(sampleRate: Double) -> Double {
        let k = KWeighting.stages(sampleRate: sampleRate)
        let sii = SpeechIntelligibilityIndex.self
        var power = 0.0
        for i in sii.bandCentresHz.indices {
            let c = cos(2 * Double.pi * sii.bandCentresHz[i] / sampleRate)
            let gain = k.shelf.powerResponse(cosOmega: c) * k.highPass.powerResponse(cosOmega: c)
            power += pow(10, (sii.normalSpeechSpectrumDb[i] + sii.bandwidthDb[i]) / 10) * gain
        }
        return 10 * log10(power)
    }
}
