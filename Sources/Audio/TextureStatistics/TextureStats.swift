#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sound's texture statistics: one vector per `StatisticClass`, measured on the compressed
/// subband envelopes of `CochlearFilterbank`.
public struct TextureStats: Sendable, Equatable {
    public var values: [StatisticClass: [Double]]

    public init(values: [StatisticClass: [Double]]) { self.values = values }

    public subscript(_ c: StatisticClass) -> [Double] { values[c] ?? [] }

    /// Band offsets of the envelope correlations (C).
    public static let correlationOffsets = Array(1...8)
    /// Modulation bands of MP: 20 centres log-spaced 0.5…200 Hz, Q = 2.
    public static let modulationCentresHz: [Double] = (0..<20).map { 0.5 * pow(400, Double($0) / 19) }
    /// Octave modulation bands of C1 and C2: 1.5625 … 100 Hz.
    public static let octaveCentresHz: [Double] = (0..<7).map { 1.5625 * pow(2, Double($0)) }
    public static let modulationCorrelationOffsets = [1, 2]

    /// The statistics of a mono 20 kHz signal.
    public init(signal: [Double], resolution: CochlearFilterbank.Resolution = .exact) {
        self.init(envelopes: CochlearFilterbank.envelopes(signal, resolution: resolution))
    }

    /// The statistics of envelopes [band][frame] at 400 Hz.
    public init(envelopes e: [[Double]]) {
        let nb = e.count, nt = e.first?.count ?? 0
        var mu = [Double](repeating: 0, count: nb), variance = mu, sd = mu
        var m1 = mu, m2 = mu, m3 = mu, m4 = mu
        var centred = e
        for k in 0..<nb {
            let m = e[k].reduce(0, +) / Double(nt)
            var s2 = 0.0, s3 = 0.0, s4 = 0.0
            for t in 0..<nt {
                let d = e[k][t] - m
                centred[k][t] = d
                let d2 = d * d
                s2 += d2
                s3 += d2 * d
                s4 += d2 * d2
            }
            let v = s2 / Double(nt)
            mu[k] = m
            variance[k] = v
            sd[k] = v.squareRoot()
            m1[k] = log10(m + 1e-12)
            m2[k] = sd[k] / (m + 1e-12)
            m3[k] = (s3 / Double(nt)) / (sd[k] * sd[k] * sd[k] + 1e-30)
            m4[k] = log10((s4 / Double(nt)) / (v * v + 1e-30))
        }
        let m1Mean = m1.reduce(0, +) / Double(max(nb, 1))
        m1 = m1.map { $0 - m1Mean }
        var c: [Double] = []
        for o in Self.correlationOffsets {
            for j in 0..<max(0, nb - o) {
                var s = 0.0
                for t in 0..<nt { s += centred[j][t] * centred[j + o][t] }
                c.append(s / Double(nt) / ((sd[j] + 1e-30) * (sd[j + o] + 1e-30)))
            }
        }
        let modulation = ModulationAnalysis(centred: centred, variance: variance)
        values = [
            .m1: m1, .m2: m2, .m3: m3, .m4: m4, .c: c, .mp: modulation.power, .c1: modulation.bandCorrelations,
            .c2: modulation.phaseCorrelations,
        ]
    }
}
