#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The auditory periphery of McDermott & Simoncelli (2011): 30 half-cosine band-pass filters
/// evenly spaced on the ERB-number scale between 20 Hz and 8 kHz at 20 kHz, the Hilbert envelope
/// of each band, compressed by a power of 0.3 and brought down to 400 Hz.
public enum CochlearFilterbank {
    /// The sample rate every statistic is measured at.
    public static let sampleRate = 20_000
    public static let envelopeRate = 400
    public static let bandCount = 30
    public static let lowEdgeHz = 20.0
    /// Below the roll-off of lossy codecs and of resamplers.
    public static let highEdgeHz = 8000.0
    public static let compression = 0.3

    /// Glasberg & Moore's ERB-number scale (ERB_N = 21.4·log10(1 + 0.00437 f), written with
    /// their constants 9.265 and 24.7).
    public static func erbNumber(hz: Double) -> Double { 9.265 * log(1 + hz / (24.7 * 9.265)) }
    public static func hz(erbNumber e: Double) -> Double { 24.7 * 9.265 * (exp(e / 9.265) - 1) }

    /// The 32 edges on the ERB-number axis: band k spans edges k…k+2 and peaks at edge k+1.
    static var edges: [Double] {
        let lo = erbNumber(hz: lowEdgeHz), hi = erbNumber(hz: highEdgeHz)
        return (0..<(bandCount + 2)).map { lo + (hi - lo) * Double($0) / Double(bandCount + 1) }
    }

    /// Each band's centre frequency in hertz (≈ 52 Hz … 7.1 kHz).
    public static var centresHz: [Double] { edges[1...bandCount].map { hz(erbNumber: $0) } }

    /// Band k's gain at `hz`: cos(π·(e − centre)/(width)) inside the band, 0 outside (squared
    /// responses of neighbours sum to one).
    static func gain(band k: Int, erb e: Double, edges: [Double]) -> Double {
        let lo = edges[k], c = edges[k + 1], hi = edges[k + 2]
        guard e > lo && e < hi else { return 0 }
        return cos((e - c) / (hi - lo) * Double.pi)
    }

    /// How each band's envelope is computed before it is brought down to 400 Hz.
    public enum Resolution: Sendable {
        /// At the full 20 kHz, as texstat does: its statistics agree to rounding.
        case exact
        /// Each band shifted down to 0 Hz (its envelope is unchanged by the shift) and computed at
        /// the lowest rate of 20 kHz / {1, 2, 5, 10, 25} that is at least four times its width:
        /// 4–6× less work, for the many renders of `noise match`'s search. Needs a signal length
        /// divisible by the rate step; otherwise exact.
        case reduced
    }

    /// Compressed subband envelopes [band][frame] at 400 Hz of `signal` (mono, 20 kHz).
    ///
    /// The signal's mean is removed and its RMS set to 0.1 first, so the level of a recording does
    /// not matter. Each band is filtered in the frequency domain over the whole signal (the
    /// transform is as long as the signal), its analytic signal's magnitude raised to 0.3, then
    /// decimated to 400 Hz with the anti-aliasing filter of `PolyphaseResampler`.
    public static func envelopes(_ signal: [Double], resolution: Resolution = .exact) -> [[Double]] {
        let n = signal.count
        guard n >= 2 else { return [[Double]](repeating: [0], count: bandCount) }
        var re = signal
        let mean = re.reduce(0, +) / Double(n)
        var power = 0.0
        for i in 0..<n {
            re[i] -= mean
            power += re[i] * re[i]
        }
        let rms = (power / Double(n)).squareRoot()
        if rms > 0 {
            let g = 0.1 / rms
            for i in 0..<n { re[i] *= g }
        }
        var im = [Double](repeating: 0, count: n)
        FourierTransform(count: n).forward(&re, &im)
        let half = n / 2
        let e = edges
        let binHz = Double(sampleRate) / Double(n)
        let erbOfBin = (0...half).map { erbNumber(hz: Double($0) * binHz) }
        let fullDecimation = sampleRate / envelopeRate
        var transforms: [Int: FourierTransform] = [:]
        var decimators: [Int: PolyphaseResampler] = [:]
        var out: [[Double]] = []
        out.reserveCapacity(bandCount)
        for k in 0..<bandCount {
            // The band's bins and gains (its ERB span).
            var first = -1, last = -1
            for i in 0...half where gain(band: k, erb: erbOfBin[i], edges: e) != 0 {
                if first < 0 { first = i }
                last = i
            }
            var step = 1
            if resolution == .reduced, first >= 0 {
                let widthHz = Double(last - first + 1) * binHz
                for d in [25, 10, 5, 2]
                where n % d == 0 && Double(sampleRate) / Double(d) >= 4 * widthHz + 2 * Double(envelopeRate) {
                    step = d
                    break
                }
            }
            let m = n / step
            let transform = transforms[m] ?? FourierTransform(count: m)
            transforms[m] = transform
            var ar = [Double](repeating: 0, count: m), ai = ar
            if first >= 0 {
                // Analytic signal: positive frequencies doubled (DC and Nyquist once), negatives zero;
                // at a reduced rate, shifted down so the band starts at bin 0.
                let shift = step == 1 ? 0 : first
                for i in first...last {
                    let g = gain(band: k, erb: erbOfBin[i], edges: e)
                    let scale = (i == 0 || (n % 2 == 0 && i == half)) ? g : 2 * g
                    ar[i - shift] = re[i] * scale
                    ai[i - shift] = im[i] * scale
                }
                transform.inverse(&ar, &ai)
            }
            // The shorter inverse transform carries 1/m where the full one has 1/n.
            let norm = 1 / Double(step * step)
            let exponent = compression / 2
            for i in 0..<m { ar[i] = pow((ar[i] * ar[i] + ai[i] * ai[i]) * norm, exponent) }
            let down = fullDecimation / step
            let decimator = decimators[down] ?? PolyphaseResampler(up: 1, down: down)
            decimators[down] = decimator
            out.append(decimator.process(ar).map { max($0, 0) })
        }
        return out
    }
}
