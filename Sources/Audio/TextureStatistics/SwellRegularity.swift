/// How regular the slow swells are: the band-averaged autocorrelation of the subband envelopes
/// at lags 2…60 s, its highest local peak and that peak's lag (texstat's `period`). A clock-like
/// swell shows a high peak at its period; real surf and wind stay low (≤ 0.16 measured).
public struct SwellRegularity: Sendable, Equatable {
    /// Highest local peak of the band-averaged, unbiased autocorrelation; nil when the excerpt
    /// is too short to have one.
    public var peak: Double?
    public var lagSeconds: Double?

    public static let shortestLagSeconds = 2.0
    public static let longestLagSeconds = 60.0

    public init(envelopes e: [[Double]]) {
        let nb = e.count, nt = e.first?.count ?? 0
        let rate = Double(CochlearFilterbank.envelopeRate)
        let lo = Int(Self.shortestLagSeconds * rate), hi = min(Int(Self.longestLagSeconds * rate), nt / 2)
        guard nb > 0, nt > 2, hi - lo >= 3 else { return }
        let n = 2 * nt
        let transform = FourierTransform(count: n)
        var mean = [Double](repeating: 0, count: nt)
        for k in 0..<nb {
            let m = e[k].reduce(0, +) / Double(nt)
            var re = [Double](repeating: 0, count: n), im = re
            for t in 0..<nt { re[t] = e[k][t] - m }
            transform.forward(&re, &im)
            for i in 0..<n {
                re[i] = re[i] * re[i] + im[i] * im[i]
                im[i] = 0
            }
            transform.inverse(&re, &im)
            let zero = re[0]
            for lag in 0..<nt {
                mean[lag] += re[lag] / zero * Double(nt) / Double(nt - lag) / Double(nb)
            }
        }
        var best: Int?
        for i in (lo + 1)..<(hi - 1) where mean[i] > mean[i - 1] && mean[i] >= mean[i + 1] {
            if best == nil || mean[i] > mean[best!] { best = i }
        }
        if let best {
            peak = mean[best]
            lagSeconds = Double(best) / rate
        }
    }
}
