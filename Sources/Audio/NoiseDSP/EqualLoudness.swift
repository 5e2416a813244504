#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ISO 226:2003 normal equal-loudness-level contours: the sound pressure level a pure tone needs at
/// each of the standard's 29 frequencies (20 Hz–12.5 kHz) to sound as loud as a 1 kHz tone of
/// `phon` dB SPL. Formula (1) of the standard with the coefficients of its Table 1 (published
/// values, not measured here). The standard calls contours valid from 20 phon to 90 phon
/// (80 phon above 4 kHz); the formula is evaluated for any level asked, as the standard does.
public enum EqualLoudness {
    /// The standard's preferred frequencies (ISO 266 third-octave centres), Hz.
    public static let frequenciesHz: [Double] = [
        20, 25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800,
        1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500,
    ]
    /// Table 1, αf: the exponent for loudness perception.
    static let exponent: [Double] = [
        0.532, 0.506, 0.480, 0.455, 0.432, 0.409, 0.387, 0.367, 0.349, 0.330, 0.315, 0.301, 0.288, 0.276,
        0.267, 0.259, 0.253, 0.250, 0.246, 0.244, 0.243, 0.243, 0.243, 0.242, 0.242, 0.245, 0.254, 0.271, 0.301,
    ]
    /// Table 1, LU: the magnitude of the linear transfer function normalised at 1 kHz, dB.
    static let transferDb: [Double] = [
        -31.6, -27.2, -23.0, -19.1, -15.9, -13.0, -10.3, -8.1, -6.2, -4.5, -3.1, -2.0, -1.1, -0.4,
        0.0, 0.3, 0.5, 0.0, -2.7, -4.1, -1.0, 1.7, 2.5, 1.2, -2.1, -7.1, -11.2, -10.7, -3.1,
    ]
    /// Table 1, Tf: the threshold of hearing, dB SPL.
    public static let thresholdDb: [Double] = [
        78.5, 68.7, 59.5, 51.1, 44.0, 37.5, 31.5, 26.5, 22.1, 17.9, 14.4, 11.4, 8.6, 6.2,
        4.4, 3.0, 2.2, 2.4, 3.5, 1.7, -1.3, -4.2, -6.0, -5.4, -1.5, 6.0, 12.6, 13.9, 12.3,
    ]

    /// The loudness levels a contour may be asked for here (the formula holds from 0 phon, the
    /// threshold; above 90 phon the standard has no data).
    public static let phonRange = 0.0...90.0

    /// The contour at `phon`: dB SPL at each of `frequenciesHz`.
    public static func contourDb(phon: Double) -> [Double] {
        (0..<frequenciesHz.count).map { i in
            let af = exponent[i], lu = transferDb[i], tf = thresholdDb[i]
            let a = 4.47e-3 * (pow(10, 0.025 * phon) - 1.15) + pow(0.4 * pow(10, (tf + lu) / 10 - 9), af)
            return 10 / af * log10(a) - lu + 94
        }
    }

    /// The loudness compensation for listening at `phon` rather than at `referencePhon`: at each of
    /// `frequenciesHz`, how much more (dB) a flat sound needs there, relative to 1 kHz, to keep the
    /// balance it has at the reference level; limited to ±`limitDb`.
    public static func compensationDb(phon: Double, referencePhon: Double = 80, limitDb: Double = 12) -> [Double] {
        let quiet = contourDb(phon: phon), loud = contourDb(phon: referencePhon)
        let k = frequenciesHz.firstIndex(of: 1000)!
        return (0..<frequenciesHz.count).map { i in
            let d = (quiet[i] - quiet[k]) - (loud[i] - loud[k])
            return min(max(d, -limitDb), limitDb)
        }
    }
}
