/// The eight classes of texture statistics (McDermott & Simoncelli 2011), each one vector.
public enum StatisticClass: String, CaseIterable, Sendable, Codable {
    /// Envelope mean per band (log10, mean over bands removed): the spectrum.
    case m1 = "M1"
    /// Coefficient of variation per band: how much each band fluctuates.
    case m2 = "M2"
    /// Skewness per band: sparse peaks against steady.
    case m3 = "M3"
    /// Kurtosis per band (log10): sparsity, impulsiveness.
    case m4 = "M4"
    /// Envelope correlation of bands 1…8 apart: broadband (co-modulated) events.
    case c = "C"
    /// Modulation power in 20 bands 0.5–200 Hz over the envelope variance (log10): rhythm, flutter.
    case mp = "MP"
    /// Modulation-band correlation of cochlear bands 1 and 2 apart: co-modulation.
    case c1 = "C1"
    /// Phase-doubled correlation of adjacent modulation octaves (real, imaginary): onset/decay shape.
    case c2 = "C2"

    /// What a listener hears in it, for the readable report.
    public var meaning: String {
        switch self {
        case .m1: "spectrum (band levels)"
        case .m2: "how much each band fluctuates"
        case .m3: "skewness (sparse peaks vs steady)"
        case .m4: "kurtosis (sparsity, impulsiveness)"
        case .c: "band correlation (broadband events)"
        case .mp: "modulation spectrum (rhythm, flutter, crashes)"
        case .c1: "co-modulation across bands"
        case .c2: "onset/decay shape"
        }
    }

    /// The spread of each class across a fixed pool of real recordings (RMS over components of
    /// the across-pool standard deviation): texstat's scale.json, so distances are in the same
    /// units as the team's measurements.
    public var poolSpread: Double {
        switch self {
        case .m1: 0.110794
        case .m2: 0.05469
        case .m3: 0.725341
        case .m4: 0.209823
        case .c: 0.20591
        case .mp: 0.262601
        case .c1: 0.22577
        case .c2: 0.098968
        }
    }
}
