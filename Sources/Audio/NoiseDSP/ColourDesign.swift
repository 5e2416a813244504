#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The colour filter: turns white noise into 1/f^β noise for any β in [0, 2].
///
/// Method (after J.O. Smith & H.F. Smith, "Closed Form Fractional Integration and Differentiation
/// via Real Exponentially Spaced Pole-Zero Pairs", 2016): a cascade of first-order sections with
/// poles spaced by a ratio `r`; each zero sits at its pole × r^α. A section steps the log-gain by
/// α·ln r over one spacing, so the cascade's average amplitude slope is −α (log-log), i.e. a power
/// slope of −3.01·2α dB/octave; α = β/2 gives 1/f^β. β = 0 puts each zero on its pole (white) and
/// β = 2 on the next pole (one integrator: brown).
///
/// Digital mapping: the bilinear transform squeezes the whole analog axis into 0…Nyquist
/// (f_analog = fs/π·tan(πf/fs)), so a plain cascade bends steeply near Nyquist. Here the poles are
/// spaced in the *warped* (analog) axis and each section's α is scaled by the local derivative of
/// the inverse warp, s(F) = d ln f / d ln F. The digital response is then a straight
/// 1/f^(β/2) in amplitude right up to the top of the band, with no oversampling. Poles continue
/// past Nyquist's warped image until s falls below 2 %, where their effect is a constant.
public struct ColourDesign: Sendable {
    /// Number of sections (r ≈ 3.3 at 48 kHz; straightness measured in ColourDesignTests).
    public static let sectionCount = 9
    /// Lowest pole: the 1/f^β line holds from about two octaves above it.
    public static let lowestPoleHz = 3.0
    /// DC blocker corner after the cascade: keeps brown noise free of sub-audio drift.
    public static let dcBlockerHz = 3.0
    /// β grid of the fitted zero table.
    static let betaSteps = 20

    public let sampleRate: Double
    /// Analog pole frequencies in rad/s on the warped axis.
    let poleOmega: [Double]
    let logRatio: Double
    let bilinearK: Double
    /// Fitted α per section for β = 0, 0.1, …, 2 (row-major, `sectionCount` per row).
    let alphaTable: [Double]

    /// Computes the fitted table (a few milliseconds): call off the render thread.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        bilinearK = 2 * sampleRate
        // Warped frequency where s(F) ≈ 0.02: u = πF/fs = 30.
        let topHz = 30 * sampleRate / Double.pi
        let n = Self.sectionCount
        logRatio = log(topHz / Self.lowestPoleHz) / Double(n - 1)
        var poles: [Double] = []
        var slopes: [Double] = []
        for k in 0..<n {
            let poleHz = Self.lowestPoleHz * exp(Double(k) * logRatio)
            poles.append(2 * Double.pi * poleHz)
            // The warp's local slope at the middle of the section's span: the first guess.
            let u = Double.pi * poleHz * exp(0.5 * logRatio) / sampleRate
            slopes.append(u / ((1 + u * u) * atan(u)))
        }
        poleOmega = poles
        var table: [Double] = []
        let fitter = Fitter(poleOmega: poles, logRatio: logRatio, bilinearK: bilinearK, sampleRate: sampleRate)
        for step in 0...Self.betaSteps {
            let beta = 2 * Double(step) / Double(Self.betaSteps)
            let guess = slopes.map { 0.5 * beta * $0 }
            table += step == 0 ? guess : fitter.fit(beta: beta, initial: guess)
        }
        alphaTable = table
    }

    /// Coefficients of section `k` for colour β. Each section has unity gain at the geometric
    /// middle of its pole and zero, so no state grows large even for brown noise.
    ///
    /// Real-time safety: a table interpolation and two `exp` calls; no allocation.
    public func section(_ k: Int, beta: Double) -> FirstOrderCoefficients {
        let x = min(max(beta, 0), 2) * Double(Self.betaSteps) / 2
        let i = min(Int(x), Self.betaSteps - 1)
        let f = x - Double(i)
        let n = Self.sectionCount
        let alpha = alphaTable[i * n + k] * (1 - f) + alphaTable[(i + 1) * n + k] * f
        return Self.section(alpha: alpha, poleOmega: poleOmega[k], logRatio: logRatio, bilinearK: bilinearK)
    }

    static func section(alpha: Double, poleOmega wp: Double, logRatio: Double, bilinearK kk: Double)
        -> FirstOrderCoefficients
    {
        let ratio = exp(alpha * logRatio)
        let wz = wp * ratio
        let g = 1 / ratio.squareRoot()
        let den = kk + wp
        return FirstOrderCoefficients(b0: g * (kk + wz) / den, b1: g * (wz - kk) / den, a1: (wp - kk) / den)
    }

    /// Every section plus the DC blocker, for analysis and calibration.
    public func sections(beta: Double) -> [FirstOrderCoefficients] {
        (0..<Self.sectionCount).map { section($0, beta: beta) }
            + [FirstOrderCoefficients.dcBlocker(cornerHz: Self.dcBlockerHz, sampleRate: sampleRate)]
    }

    /// |H|² of the whole colour stage at `frequencyHz`.
    public func powerResponse(atHz frequencyHz: Double, beta: Double) -> Double {
        let c = cos(2 * Double.pi * frequencyHz / sampleRate)
        return sections(beta: beta).reduce(1.0) { $0 * $1.powerResponse(cosOmega: c) }
    }

    /// Least-squares refinement of the zeros: Gauss–Newton on the sections' α (plus a free level
    /// offset) so the digital log-magnitude matches −10·β·log10(f) on a 1/12-octave grid over
    /// 25 Hz…18 kHz. A weak pull towards the first guess keeps sections above the grid sensible.
    struct Fitter {
        let poleOmega: [Double]
        let logRatio: Double
        let bilinearK: Double
        let cosines: [Double]
        let logFrequencies: [Double]

        init(poleOmega: [Double], logRatio: Double, bilinearK: Double, sampleRate: Double) {
            self.poleOmega = poleOmega
            self.logRatio = logRatio
            self.bilinearK = bilinearK
            var c: [Double] = [], l: [Double] = []
            var f = 25.0
            while f <= min(18_000, 0.45 * sampleRate) {
                c.append(cos(2 * Double.pi * f / sampleRate))
                l.append(log10(f))
                f *= pow(2, 1.0 / 12)
            }
            cosines = c
            logFrequencies = l
        }

        func sectionDb(_ k: Int, alpha: Double, _ j: Int) -> Double {
            10
                * log10(
                    ColourDesign.section(
                        alpha: alpha, poleOmega: poleOmega[k], logRatio: logRatio,
                        bilinearK: bilinearK
                    ).powerResponse(cosOmega: cosines[j]))
        }

        func fit(beta: Double, initial: [Double]) -> [Double] {
            let n = poleOmega.count, m = cosines.count, p = n + 1
            var alpha = initial
            var offset = 0.0
            let pull = 1e-3
            for _ in 0..<12 {
                // Residuals and Jacobian (analytic in the offset, central differences in α).
                var jt = [Double](repeating: 0, count: p * m)
                var r = [Double](repeating: 0, count: m)
                for j in 0..<m {
                    var level = 0.0
                    for k in 0..<n { level += sectionDb(k, alpha: alpha[k], j) }
                    r[j] = level + 10 * beta * logFrequencies[j] - offset
                    for k in 0..<n {
                        let h = 1e-5
                        jt[k * m + j] =
                            (sectionDb(k, alpha: alpha[k] + h, j) - sectionDb(k, alpha: alpha[k] - h, j)) / (2 * h)
                    }
                    jt[n * m + j] = -1
                }
                // Normal equations (JᵀJ + λI)δ = −(Jᵀr + λ(α − α₀)).
                var a = [Double](repeating: 0, count: p * p)
                var b = [Double](repeating: 0, count: p)
                for u in 0..<p {
                    for v in u..<p {
                        var s = 0.0
                        for j in 0..<m { s += jt[u * m + j] * jt[v * m + j] }
                        a[u * p + v] = s
                        a[v * p + u] = s
                    }
                    var s = 0.0
                    for j in 0..<m { s += jt[u * m + j] * r[j] }
                    b[u] = -s
                }
                for k in 0..<n {
                    a[k * p + k] += pull * Double(m)
                    b[k] -= pull * Double(m) * (alpha[k] - initial[k])
                }
                guard let delta = solve(a, b, size: p) else { break }
                for k in 0..<n { alpha[k] = min(max(alpha[k] + delta[k], 0), 1.5) }
                offset += delta[n]
            }
            return alpha
        }

        /// Gaussian elimination with partial pivoting; nil if singular.
        func solve(_ a: [Double], _ b: [Double], size n: Int) -> [Double]? {
            var a = a, b = b
            for col in 0..<n {
                var pivot = col
                for row in (col + 1)..<n where abs(a[row * n + col]) > abs(a[pivot * n + col]) { pivot = row }
                if abs(a[pivot * n + col]) < 1e-12 { return nil }
                if pivot != col {
                    for c in 0..<n { a.swapAt(col * n + c, pivot * n + c) }
                    b.swapAt(col, pivot)
                }
                for row in (col + 1)..<n {
                    let f = a[row * n + col] / a[col * n + col]
                    if f == 0 { continue }
                    for c in col..<n { a[row * n + c] -= f * a[col * n + c] }
                    b[row] -= f * b[col]
                }
            }
            var x = [Double](repeating: 0, count: n)
            for row in stride(from: n - 1, through: 0, by: -1) {
                var s = b[row]
                for c in (row + 1)..<n { s -= a[row * n + c] * x[c] }
                x[row] = s / a[row * n + row]
            }
            return x
        }
    }
}
