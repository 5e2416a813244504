#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a hearing profile (gains at centre frequencies) into the master's smooth correction: a
/// low shelf, twelve peaking bands and a high shelf at fixed centres 2/3 octave apart (31.5 Hz to
/// 12.7 kHz), their gains fitted so the cascade's response at the profile's centres matches the
/// profile's gains.
///
/// Why this design: RBJ peaking and shelving biquads are minimum-phase for boost and cut alike
/// (their zeros, like their poles, lie inside the unit circle), so the cascade is minimum-phase;
/// broad bands (Q 0.6) overlap, so the sum is smooth between centres, and a profile's own detail
/// finer than 2/3 octave (a calibration's test–retest scatter) is smoothed rather than followed.
/// Fixed centres make any two corrections differ only in band gains, which is what lets a change
/// be ramped. A prototype of the fit (numpy, 20 random smooth profiles within ±12 dB, periods of
/// 3–6 octaves) missed the profile by at most 0.25 dB at the 24 third-octave centres 63 Hz–12.5 kHz
/// (band gains allowed to ±24 dB: the steepest profiles need overlapping bands to push against
/// each other; ±18 dB left 1 dB errors);
/// octave spacing missed by up to 6 dB and Q 1.0 by 0.5 dB.
public enum CorrectionDesign {
    /// Gains a profile may ask for, dB (larger ones are limited to this).
    public static let limitDb = 12.0
    public static let bandQ = 0.6
    public static let bandCentresHz: [Double] = (0..<14).map { 31.5 * pow(2, Double($0) * 2 / 3) }
    public static var sectionCount: Int { bandCentresHz.count }

    /// The sections for band gains `gainsDb` (one per `bandCentresHz`).
    public static func sections(bandGainsDb gainsDb: [Double], sampleRate: Double) -> [BiquadCoefficients] {
        let last = bandCentresHz.count - 1
        let halfStep = pow(2, 1.0 / 3)
        return bandCentresHz.enumerated().map { i, f in
            let g = gainsDb[i]
            if i == 0 { return BiquadDesign.lowShelf(cornerHz: f * halfStep, gainDb: g, sampleRate: sampleRate) }
            if i == last { return BiquadDesign.highShelf(cornerHz: f / halfStep, gainDb: g, sampleRate: sampleRate) }
            return BiquadDesign.peaking(centreHz: f, q: bandQ, gainDb: g, sampleRate: sampleRate)
        }
    }

    /// The cascade's response (dB) at each of `frequenciesHz`.
    public static func responseDb(_ sections: [BiquadCoefficients], atHz frequenciesHz: [Double], sampleRate: Double)
        -> [Double]
    {
        frequenciesHz.map { f in
            let c = cos(2 * .pi * min(f, sampleRate * 0.49) / sampleRate)
            return sections.reduce(0) { $0 + 10 * log10($1.powerResponse(cosOmega: c)) }
        }
    }

    /// Band gains whose cascade best matches `gainsDb` at `centresHz` (each limited to ±`limitDb`
    /// first): Gauss–Newton on the dB response, a little ridge so bands no profile point constrains
    /// stay near 0 dB.
    public static func fit(centresHz: [Double], gainsDb: [Double], sampleRate: Double) -> [Double] {
        precondition(centresHz.count == gainsDb.count && !centresHz.isEmpty)
        let usable = centresHz.indices.filter { centresHz[$0] > 0 && centresHz[$0] < sampleRate * 0.45 }
        let fs = usable.map { centresHz[$0] }
        let target = usable.map { min(max(gainsDb[$0], -limitDb), limitDb) }
        let m = bandCentresHz.count
        if fs.isEmpty { return Array(repeating: 0, count: m) }
        // Start from the profile read at the band centres (log-frequency interpolation).
        var g = bandCentresHz.map { interpolate(fs, target, at: $0) }
        for _ in 0..<8 {
            let base = responseDb(sections(bandGainsDb: g, sampleRate: sampleRate), atHz: fs, sampleRate: sampleRate)
            var jacobian = [[Double]](repeating: [Double](repeating: 0, count: m), count: fs.count)
            for j in 0..<m {
                var h = g
                h[j] += 0.5
                let r = responseDb(sections(bandGainsDb: h, sampleRate: sampleRate), atHz: fs, sampleRate: sampleRate)
                for i in fs.indices { jacobian[i][j] = (r[i] - base[i]) / 0.5 }
            }
            // Normal equations (JᵀJ + λI)·d = Jᵀr.
            var a = [[Double]](repeating: [Double](repeating: 0, count: m), count: m)
            var b = [Double](repeating: 0, count: m)
            for j in 0..<m {
                for k in 0..<m { a[j][k] = fs.indices.reduce(0) { $0 + jacobian[$1][j] * jacobian[$1][k] } }
                a[j][j] += 0.01
                b[j] = fs.indices.reduce(0) { $0 + jacobian[$1][j] * (target[$1] - base[$1]) }
            }
            let d = solve(a, b)
            for j in 0..<m { g[j] = min(max(g[j] + d[j], -2 * limitDb), 2 * limitDb) }
        }
        return g
    }

    static func interpolate(_ xs: [Double], _ ys: [Double], at x: Double) -> Double {
        let order = xs.indices.sorted { xs[$0] < xs[$1] }
        let lx = order.map { log2(xs[$0]) }, ly = order.map { ys[$0] }
        let t = log2(x)
        if t <= lx[0] { return ly[0] }
        if t >= lx[lx.count - 1] { return ly[ly.count - 1] }
        var i = 0
        while lx[i + 1] < t { i += 1 }
        let w = lx[i + 1] > lx[i] ? (t - lx[i]) / (lx[i + 1] - lx[i]) : 0
        return ly[i] + w * (ly[i + 1] - ly[i])
    }

    /// Gaussian elimination with partial pivoting (the system is small and well conditioned).
    static func solve(_ matrix: [[Double]], _ rhs: [Double]) -> [Double] {
        var a = matrix, b = rhs
        let n = b.count
        for c in 0..<n {
            let p = (c..<n).max { abs(a[$0][c]) < abs(a[$1][c]) }!
            a.swapAt(c, p)
            b.swapAt(c, p)
            guard a[c][c] != 0 else { continue }
            for r in (c + 1)..<n {
                let f = a[r][c] / a[c][c]
                for k in c..<n { a[r][k] -= f * a[c][k] }
                b[r] -= f * b[c]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            let s = ((r + 1)..<n).reduce(b[r]) { $0 - a[r][$1] * x[$1] }
            x[r] = a[r][r] != 0 ? s / a[r][r] : 0
        }
        return x
    }
}
