#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gaussian noise with a signal's long-term power spectrum: the baseline a texture has to beat.
/// A sound whose statistics are no closer to a recording than this noise's are carries no
/// texture beyond the spectrum (texstat's `ratio` divides by this distance).
public enum SpectrumMatchedNoise {
    /// Welch segment length: 1.2 Hz resolution at 20 kHz.
    public static let segmentLength = 16384

    /// Noise as long as `signal` (or `count` samples), shaped by its Welch spectrum (Hann
    /// segments, half overlap, each segment's mean removed), scaled to its RMS. Deterministic per seed.
    public static func make(like signal: [Double], seed: UInt64, count: Int? = nil) -> [Double] {
        let n = count ?? signal.count
        guard n >= 2, signal.count >= 2 else { return [Double](repeating: 0, count: max(n, 0)) }
        let density = welch(signal)
        let segment = min(segmentLength, signal.count)
        var re = GaussianSamples.make(count: n, seed: seed), im = [Double](repeating: 0, count: n)
        let transform = FourierTransform(count: n)
        transform.forward(&re, &im)
        // Shape each bin by the density interpolated at its frequency (mirrored for negatives).
        for k in 0..<n {
            let f = Double(min(k, n - k)) / Double(n)  // cycles per sample
            let pos = f * Double(segment)
            let j = min(Int(pos), density.count - 1), frac = pos - Double(j)
            let p = j + 1 < density.count ? density[j] * (1 - frac) + density[j + 1] * frac : density[j]
            let g = max(p, 0).squareRoot()
            re[k] *= g
            im[k] *= g
        }
        transform.inverse(&re, &im)
        func rms(_ x: [Double]) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(x.count)).squareRoot() }
        let g = rms(signal) / (rms(re) + 1e-30)
        return re.map { $0 * g }
    }

    /// One-sided power per bin (arbitrary scale: only its shape is used), bins 0…segment/2.
    static func welch(_ x: [Double]) -> [Double] {
        let segment = min(segmentLength, x.count), step = segment - segment / 2
        let window = (0..<segment).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(segment)) }
        let transform = FourierTransform(count: segment)
        var acc = [Double](repeating: 0, count: segment / 2 + 1)
        var start = 0, count = 0
        while start + segment <= x.count {
            let mean = x[start..<(start + segment)].reduce(0, +) / Double(segment)
            var re = (0..<segment).map { (x[start + $0] - mean) * window[$0] }
            var im = [Double](repeating: 0, count: segment)
            transform.forward(&re, &im)
            for k in 0...(segment / 2) { acc[k] += re[k] * re[k] + im[k] * im[k] }
            count += 1
            start += step
        }
        // One-sided: every bin but DC and an even length's Nyquist carries its negative twin.
        return acc.indices.map { k in
            let twin = k == 0 || (segment % 2 == 0 && k == segment / 2) ? 1.0 : 2.0
            return acc[k] * twin / Double(max(count, 1))
        }
    }
}
