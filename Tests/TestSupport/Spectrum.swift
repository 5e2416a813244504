import Foundation
import SpectrumPlot

/// Spectral analysis for tests: a radix-2 FFT, Welch power spectral density and fractional-octave
/// band levels, plus straight-line fits on log-frequency axes.
public enum Spectrum {
    /// In-place radix-2 complex FFT (length a power of two): the product's own (`noise spectrum
    /// --measured`), so the tests measure with what users see.
    public static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        precondition(n > 0 && n & (n - 1) == 0, "FFT length \(n) is not a power of two")
        MeasuredSpectrum.fft(&re, &im)
    }

    /// Welch PSD (Hann window, 50 % overlap), one-sided, in power per Hz. Returns (bin Hz, density).
    public static func welch(_ x: [Float], sampleRate: Double, segment: Int = 8192) -> (
        binHz: Double, density: [Double]
    ) {
        precondition(x.count >= segment, "signal shorter than one segment")
        return MeasuredSpectrum.welch(x, sampleRate: sampleRate, segment: segment)
    }

    /// Mean density in bands 1/`fraction` octave wide centred on `centresHz`, in dB.
    public static func bandLevelsDb(binHz: Double, density: [Double], centresHz: [Double], fraction: Double) -> [Double]
    {
        centresHz.map { fc in
            let lo = fc * pow(2, -0.5 / fraction), hi = fc * pow(2, 0.5 / fraction)
            var sum = 0.0, n = 0
            var first = Int((lo / binHz).rounded(.up)), last = Int((hi / binHz).rounded(.down))
            if first > last {
                first = Int((fc / binHz).rounded())
                last = first
            }  // band narrower than a bin
            for k in first...last where k < density.count {
                sum += density[k]
                n += 1
            }
            return 10 * log10(sum / Double(max(n, 1)))
        }
    }

    /// Band centres from `lowHz` to `highHz`, `perOctave` per octave.
    public static func bandCentres(from lowHz: Double, to highHz: Double, perOctave: Double) -> [Double] {
        var out: [Double] = []
        var f = lowHz
        while f <= highHz * 1.0001 {
            out.append(f)
            f *= pow(2, 1 / perOctave)
        }
        return out
    }

    /// Least-squares line of `levelsDb` against log2(frequency): slope in dB/octave and the largest
    /// absolute deviation of any point from the line.
    public static func lineFit(frequenciesHz: [Double], levelsDb: [Double]) -> (
        slopeDbPerOctave: Double, maxDeviationDb: Double
    ) {
        let xs = frequenciesHz.map { log2($0) }
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = levelsDb.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, levelsDb) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
        }
        let slope = sxy / sxx
        let dev = zip(xs, levelsDb).map { abs($1 - (my + slope * ($0 - mx))) }.max() ?? 0
        return (slope, dev)
    }

    /// Pearson correlation of two equal-length signals.
    public static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let n = Double(a.count)
        let ma = a.reduce(0.0) { $0 + Double($1) } / n, mb = b.reduce(0.0) { $0 + Double($1) } / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in 0..<a.count {
            let x = Double(a[i]) - ma, y = Double(b[i]) - mb
            sab += x * y
            saa += x * x
            sbb += y * y
        }
        return sab / (saa * sbb).squareRoot()
    }
}
