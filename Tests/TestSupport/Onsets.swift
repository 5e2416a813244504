import Foundation

/// An onset detector written for the tests, independent of the engine: positive spectral flux
/// (J. P. Bello et al., "A tutorial on onset detection in music signals", 2005) on short Hann
/// frames, with peak picking against a local median. A new drop shows as new energy in its own
/// bins even while an earlier, louder one still rings at another pitch.
public enum Onsets {
    /// Onset times in frames of `x` (a mono mix of the channels).
    /// - Parameters:
    ///   - frameLength: FFT length (256: 5.3 ms at 48 kHz).
    ///   - hop: frames between analyses (64: 1.3 ms).
    ///   - threshold: how far above the local median (× the median, plus `floor`) a flux peak must be.
    ///   - refractoryFrames: a peak this soon after the last onset is the same event (a long drop's
    ///     glide moving into new bins), not a new one.
    public static func detect(
        _ x: [Float], frameLength: Int = 256, hop: Int = 64, threshold: Double = 1.5,
        floorShare: Double = 0.02, refractoryFrames: Int = 0
    ) -> [Int] {
        let window = (0..<frameLength).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(frameLength)) }
        var previous = [Double](repeating: 0, count: frameLength / 2)
        var flux: [Double] = []
        var start = 0
        while start + frameLength <= x.count {
            var re = (0..<frameLength).map { Double(x[start + $0]) * window[$0] }
            var im = [Double](repeating: 0, count: frameLength)
            Spectrum.fft(&re, &im)
            var f = 0.0
            for k in 1..<(frameLength / 2) {
                let m = (re[k] * re[k] + im[k] * im[k]).squareRoot()
                f += max(0, m - previous[k])
                previous[k] = m
            }
            flux.append(f)
            start += hop
        }
        guard !flux.isEmpty else { return [] }
        // A floor relative to the flux's typical peaks, so silence between events never triggers.
        let floor = floorShare * (flux.max() ?? 0)
        var onsets: [Int] = []
        let half = 8
        for i in 1..<(flux.count - 1) where flux[i] > flux[i - 1] && flux[i] >= flux[i + 1] {
            let lo = max(0, i - half), hi = min(flux.count - 1, i + half)
            let local = flux[lo...hi].sorted()
            let median = local[local.count / 2]
            let at = i * hop + frameLength / 2
            if flux[i] > threshold * median + floor, onsets.last.map({ at - $0 >= refractoryFrames }) ?? true {
                onsets.append(at)
            }
        }
        return onsets
    }

    /// Spectral centroid (Hz) of `x` between `lowHz` and `highHz`, power-weighted, zero-padded FFT.
    public static func centroidHz(
        _ x: ArraySlice<Float>, sampleRate: Double, lowHz: Double = 100, highHz: Double = 20000
    ) -> Double {
        var n = 1
        while n < max(x.count, 4096) { n <<= 1 }
        var re = [Double](repeating: 0, count: n), im = [Double](repeating: 0, count: n)
        for (i, v) in x.enumerated() { re[i] = Double(v) }
        Spectrum.fft(&re, &im)
        var sum = 0.0, weighted = 0.0
        for k in 0..<(n / 2) {
            let f = Double(k) * sampleRate / Double(n)
            guard f >= lowHz && f <= highHz else { continue }
            let p = re[k] * re[k] + im[k] * im[k]
            sum += p
            weighted += p * f
        }
        return sum > 0 ? weighted / sum : 0
    }

    /// Peak over RMS, dB.
    public static func crestFactorDb(_ x: [Float]) -> Double {
        var peak: Float = 0, sum = 0.0
        for v in x {
            peak = max(peak, abs(v))
            sum += Double(v) * Double(v)
        }
        return 20 * log10(Double(peak) / (sum / Double(max(1, x.count))).squareRoot())
    }
}
