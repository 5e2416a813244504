#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Speech Intelligibility Index of ANSI S3.5-1997, one-third-octave band procedure (its
/// section 4 with the values of its Table 3): how much of the speech cues a listener receives, 0
/// (none) to 1 (all), given speech and noise spectrum levels at the listener.
///
/// Here it says what a noise is *for*: under a noise at the same loudness as a talker, the lower the
/// index, the less of the talker's words get through, so the better the noise hides chatter.
public enum SpeechIntelligibilityIndex {
    /// The 18 bands' centre frequencies, Hz.
    public static let bandCentresHz: [Double] = [
        160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000,
        2500, 3150, 4000, 5000, 6300, 8000,
    ]
    /// Each band's bandwidth in dB (10·log10 of its width in Hz): spectrum level + this = band level.
    public static let bandwidthDb: [Double] = (0..<18).map { 15.65 + Double($0) }
    /// Band importance for average speech (Table 3): the share of the speech cues each band carries.
    public static let averageSpeechImportance: [Double] = [
        0.0083, 0.0095, 0.0150, 0.0289, 0.0440, 0.0578, 0.0653, 0.0711, 0.0818, 0.0844, 0.0882, 0.0898,
        0.0868, 0.0844, 0.0771, 0.0527, 0.0364, 0.0185,
    ]
    /// The standard speech spectrum level for normal vocal effort at 1 m, dB SPL per Hz (Table 3);
    /// 62.35 dB SPL overall.
    public static let normalSpeechSpectrumDb: [Double] = [
        32.41, 34.48, 34.75, 33.98, 34.59, 34.27, 32.06, 28.30, 25.01, 23.00, 20.15, 17.32, 13.18, 11.55,
        9.33, 5.31, 2.59, 1.13,
    ]
    /// The reference internal noise spectrum level, dB (Table 3): what a normal ear hears as its own floor.
    static let internalNoiseDb: [Double] = [
        0.6, -1.7, -3.9, -6.1, -8.2, -9.7, -10.8, -11.9, -12.5, -13.5, -15.4,
        -17.7, -21.2, -24.2, -25.9, -23.6, -15.8, -7.1,
    ]
    /// The standard's stand-in for "no noise" (its section 4.2 note).
    public static let quietDb = -50.0

    /// The index for equivalent speech, noise and hearing-threshold spectrum levels (dB per Hz, 18
    /// bands each; a threshold of 0 dB HL is normal hearing) and a band importance function.
    public static func index(
        speechDb: [Double], noiseDb: [Double], thresholdDb: [Double] = Array(repeating: 0, count: 18),
        importance: [Double] = averageSpeechImportance
    ) -> Double {
        precondition(speechDb.count == 18 && noiseDb.count == 18 && thresholdDb.count == 18 && importance.count == 18)
        let f = bandCentresHz
        // 4.3.2: the speech masks itself 24 dB down; the louder of that and the noise masks.
        let masker = (0..<18).map { max(speechDb[$0] - 24, noiseDb[$0]) }
        // Upward spread of masking: each band's slope grows with its level (Eq. 7).
        let slope = (0..<18).map { 0.6 * (masker[$0] + 10 * log10(f[$0]) - 6.353) - 80 }
        var disturbance = [Double](repeating: 0, count: 18)
        for i in 0..<18 {
            // Equivalent masking spectrum (Eq. 9): the band's own noise plus what every lower band spreads into it.
            var masking = masker[0]
            if i > 0 {
                var power = pow(10, 0.1 * noiseDb[i])
                for k in 0..<i { power += pow(10, 0.1 * (masker[k] + 3.32 * slope[k] * log10(0.89 * f[i] / f[k]))) }
                masking = 10 * log10(power)
            }
            // The disturbance is the louder of the masking and the ear's own floor (4.4, 4.5).
            disturbance[i] = max(masking, internalNoiseDb[i] + thresholdDb[i])
        }
        var sii = 0.0
        for i in 0..<18 {
            // Very loud speech is understood less well (level distortion, Eq. 11).
            let distortion = min(1, 1 - (speechDb[i] - normalSpeechSpectrumDb[i] - 10) / 160)
            // Audible fraction of the band's 30 dB speech range (Eq. 12).
            let audible = min(1, max(0, (speechDb[i] - disturbance[i] + 15) / 30))
            sii += importance[i] * distortion * audible
        }
        return sii
    }
}
