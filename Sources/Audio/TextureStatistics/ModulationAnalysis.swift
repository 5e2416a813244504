#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The modulation statistics of centred envelopes: MP, C1 and C2.
///
/// Filters are half-cosines on a log-frequency axis, applied in the frequency domain of each
/// band's whole envelope; powers and correlations of the real band signals are taken by
/// Parseval's identity straight from the spectra, and only C2, which squares the phase of the
/// analytic signal, goes back to the time domain.
struct ModulationAnalysis {
    var power: [Double] = []
    var bandCorrelations: [Double] = []
    var phaseCorrelations: [Double] = []

    /// Gain of a half-cosine filter `widthOctaves` wide either side of `centreHz` at `hz`.
    static func gain(hz: Double, centreHz: Double, widthOctaves: Double) -> Double {
        guard hz > 0 else { return 0 }
        let d = log2(hz / centreHz)
        return abs(d) < widthOctaves ? cos(Double.pi / 2 * d / widthOctaves) : 0
    }

    init(centred: [[Double]], variance: [Double]) {
        let nb = centred.count, nt = centred.first?.count ?? 0
        guard nt >= 2 else { return }
        let half = nt / 2
        let rate = Double(CochlearFilterbank.envelopeRate)
        let binHz = rate / Double(nt)
        let transform = FourierTransform(count: nt)
        // Spectra of every band's envelope, positive bins 0…half.
        var specRe = [[Double]](), specIm = [[Double]]()
        for k in 0..<nb {
            var re = centred[k], im = [Double](repeating: 0, count: nt)
            transform.forward(&re, &im)
            specRe.append(Array(re[0...half]))
            specIm.append(Array(im[0...half]))
        }
        // Weight of bin i in Σ|x|² over the full spectrum: 1 for DC and an even length's Nyquist.
        let weight = (0...half).map { i in (i == 0 || (nt % 2 == 0 && i == half)) ? 1.0 : 2.0 }
        let norm = 1 / (Double(nt) * Double(nt))

        // MP: Q = 2, half-power width log2((1 + 1/4)/(1 − 1/4)) octaves.
        let q = 2.0, width = log2((1 + 0.5 / q) / (1 - 0.5 / q))
        let mpGains = TextureStats.modulationCentresHz.map { cf in
            (0...half).map { Self.gain(hz: Double($0) * binHz, centreHz: cf, widthOctaves: width) }
        }
        for k in 0..<nb {
            for g in mpGains {
                var s = 0.0
                for i in 0...half where g[i] != 0 {
                    s += weight[i] * g[i] * g[i] * (specRe[k][i] * specRe[k][i] + specIm[k][i] * specIm[k][i])
                }
                power.append(log10(s * norm / (variance[k] + 1e-30) + 1e-3))
            }
        }

        // Octave bands (one octave either side) for C1 and C2.
        let octaves = TextureStats.octaveCentresHz
        let octGains = octaves.map { cf in
            (0...half).map { Self.gain(hz: Double($0) * binHz, centreHz: cf, widthOctaves: 1) }
        }
        // Band power of the real octave-band signal (the analytic signal's real part).
        var octPower = [[Double]](repeating: [Double](repeating: 0, count: octaves.count), count: nb)
        for k in 0..<nb {
            for (n, g) in octGains.enumerated() {
                var s = 0.0
                for i in 1...half where g[i] != 0 {
                    s += g[i] * g[i] * (specRe[k][i] * specRe[k][i] + specIm[k][i] * specIm[k][i])
                }
                octPower[k][n] = 2 * s * norm
            }
        }
        for o in TextureStats.modulationCorrelationOffsets {
            for (n, g) in octGains.enumerated() {
                for j in 0..<max(0, nb - o) {
                    var s = 0.0
                    for i in 1...half where g[i] != 0 {
                        s += g[i] * g[i] * (specRe[j][i] * specRe[j + o][i] + specIm[j][i] * specIm[j + o][i])
                    }
                    bandCorrelations.append(2 * s * norm / (octPower[j][n] * octPower[j + o][n] + 1e-30).squareRoot())
                }
            }
        }

        // C2: each octave band's analytic signal in time; the lower band's phase doubled.
        var real: [Double] = [], imag: [Double] = []
        var ar = [Double](repeating: 0, count: nt), ai = ar, br = ar, bi = ar
        func analytic(_ k: Int, _ n: Int, _ re: inout [Double], _ im: inout [Double]) {
            for i in 0..<nt {
                re[i] = 0
                im[i] = 0
            }
            let g = octGains[n]
            for i in 1...half where g[i] != 0 {
                re[i] = 2 * specRe[k][i] * g[i]
                im[i] = 2 * specIm[k][i] * g[i]
            }
            transform.inverse(&re, &im)
        }
        for k in 0..<nb {
            analytic(k, 0, &ar, &ai)
            for n in 0..<(octaves.count - 1) {
                analytic(k, n + 1, &br, &bi)
                var sr = 0.0, si = 0.0, pa = 0.0, pb = 0.0
                for t in 0..<nt {
                    let a2 = ar[t] * ar[t] + ai[t] * ai[t]
                    let mag = a2.squareRoot() + 1e-30
                    // a²/|a|, conjugated, times b
                    let dr = (ar[t] * ar[t] - ai[t] * ai[t]) / mag, di = 2 * ar[t] * ai[t] / mag
                    sr += dr * br[t] + di * bi[t]
                    si += dr * bi[t] - di * br[t]
                    pa += a2
                    pb += br[t] * br[t] + bi[t] * bi[t]
                }
                let d = ((pa / Double(nt)) * (pb / Double(nt)) + 1e-30).squareRoot()
                real.append(sr / Double(nt) / d)
                imag.append(si / Double(nt) / d)
                swap(&ar, &br)
                swap(&ai, &bi)
            }
        }
        phaseCorrelations = real + imag
    }
}
