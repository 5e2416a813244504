#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The statistics in words a person can read: band groups by centre frequency (low < 500 Hz,
/// mid 500 Hz–2.5 kHz, high ≥ 2.5 kHz), the spectrum's tilt against the 1 kHz band, neighbour and
/// distant band correlation, and the modulation spectrum at octave steps. Same summaries as
/// texstat's `profile`.
public struct TextureSummary: Sendable, Equatable {
    public enum BandGroup: String, CaseIterable, Sendable {
        case low, mid, high
    }

    /// Coefficient of variation (M2), mean per group.
    public var variation: [BandGroup: Double] = [:]
    public var skewness: [BandGroup: Double] = [:]
    /// Kurtosis (10^M4), mean per group: low for steady noise, high for sparse events (drops, clicks).
    public var kurtosis: [BandGroup: Double] = [:]
    /// Mean envelope correlation of neighbouring bands.
    public var neighbourCorrelation: Double = 0
    /// Mean envelope correlation of bands eight apart: broadband events.
    public var distantCorrelation: Double = 0
    /// Modulation power, mean over bands, at the MP band nearest each frequency, in dB of the
    /// envelope variance.
    public var modulationDb: [(hz: Double, db: Double)] = []
    /// Level of the bands below 250 Hz against the 1 kHz band, dB.
    public var lowToMidDb: Double = 0
    /// Level of the bands above 4 kHz against the 1 kHz band, dB.
    public var highToMidDb: Double = 0
    /// Mean imaginary part of C2: onset/decay asymmetry.
    public var onsetAsymmetry: Double = 0

    public static let modulationReportHz: [Double] = [0.5, 1, 2, 4, 8, 16, 32, 64, 128]

    public static func == (a: TextureSummary, b: TextureSummary) -> Bool {
        a.variation == b.variation && a.skewness == b.skewness && a.kurtosis == b.kurtosis
            && a.neighbourCorrelation == b.neighbourCorrelation && a.distantCorrelation == b.distantCorrelation
            && a.modulationDb.map(\.db) == b.modulationDb.map(\.db) && a.lowToMidDb == b.lowToMidDb
            && a.highToMidDb == b.highToMidDb && a.onsetAsymmetry == b.onsetAsymmetry
    }

    public static func group(ofCentreHz hz: Double) -> BandGroup { hz < 500 ? .low : (hz < 2500 ? .mid : .high) }

    public init(_ st: TextureStats) {
        let centres = CochlearFilterbank.centresHz
        let nb = centres.count
        for g in BandGroup.allCases {
            let idx = (0..<nb).filter { Self.group(ofCentreHz: centres[$0]) == g }
            func mean(_ f: (Int) -> Double) -> Double { idx.map(f).reduce(0, +) / Double(max(idx.count, 1)) }
            variation[g] = mean { st[.m2][$0] }
            skewness[g] = mean { st[.m3][$0] }
            kurtosis[g] = mean { pow(10, st[.m4][$0]) }
        }
        let c = st[.c]
        if c.count >= nb - 1 {
            neighbourCorrelation = c[0..<(nb - 1)].reduce(0, +) / Double(nb - 1)
            distantCorrelation = c[(c.count - (nb - 8))...].reduce(0, +) / Double(nb - 8)
        }
        let mcf = TextureStats.modulationCentresHz, nm = mcf.count
        let mp = st[.mp]
        if mp.count == nb * nm {
            for f in Self.modulationReportHz {
                let j = (0..<nm).min { abs(mcf[$0] - f) < abs(mcf[$1] - f) }!
                var s = 0.0
                for k in 0..<nb { s += pow(10, mp[k * nm + j]) }
                modulationDb.append((f, 10 * log10(s / Double(nb))))
            }
        }
        // M1 is log10 of the mean compressed envelope: ÷ 0.3 × 20 gives dB.
        let db = st[.m1].map { $0 / CochlearFilterbank.compression * 20 }
        if db.count == nb {
            let k1 = (0..<nb).min { abs(centres[$0] - 1000) < abs(centres[$1] - 1000) }!
            let lows = (0..<nb).filter { centres[$0] < 250 }, highs = (0..<nb).filter { centres[$0] > 4000 }
            lowToMidDb = lows.map { db[$0] }.reduce(0, +) / Double(lows.count) - db[k1]
            highToMidDb = highs.map { db[$0] }.reduce(0, +) / Double(highs.count) - db[k1]
        }
        let c2 = st[.c2]
        if !c2.isEmpty {
            let imag = c2[(c2.count / 2)...]
            onsetAsymmetry = imag.reduce(0, +) / Double(imag.count)
        }
    }
}
