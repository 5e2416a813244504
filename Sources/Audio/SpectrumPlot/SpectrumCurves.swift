import NoiseDSP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mix's spectrum as curves: each layer's and the total, in dBFS per third-octave band (the power
/// of one channel in a band 1/3 octave wide centred on each frequency), so pink noise is flat,
/// white rises 3 dB per octave and brown falls 3 dB per octave.
public struct SpectrumCurves: Sendable, Equatable {
    public struct Layer: Sendable, Equatable {
        /// 0-based layer index in the mix.
        public var index: Int
        public var label: String
        public var db: [Double]
    }

    public var title: String
    public var frequenciesHz: [Double]
    public var totalDb: [Double]
    public var layers: [Layer]
    /// A rendered measurement of the total on the same frequencies (`--measured`), if any.
    public var measuredDb: [Double]?
    public var measuredSeconds: Double?

    public static let lowHz = 20.0
    public static let highHz = 20_000.0
    /// Width of a third-octave band relative to its centre: 2^(1/6) − 2^(−1/6).
    public static let thirdOctaveWidth = pow(2, 1.0 / 6) - pow(2, -1.0 / 6)
    /// Levels below this are drawn and written as this (silence has no dB).
    public static let floorDb = -150.0

    /// Log-spaced points from exactly 20 Hz to exactly 20 kHz, about `perOctave` per octave (24: a
    /// smooth curve).
    public static func frequencies(perOctave: Int = 24) -> [Double] {
        let octaves = log2(highHz / lowHz)
        let n = Int((octaves * Double(perOctave)).rounded(.up))
        return (0...n).map { $0 == n ? highHz : lowHz * pow(highHz / lowHz, Double($0) / Double(n)) }
    }

    static func db(_ power: Double) -> Double { power > 0 ? max(floorDb, 10 * log10(power)) : floorDb }

    /// Predicted curves of `layers` at `masterVolume` (from `LoudnessModel`, the engine's own filters).
    public init(
        title: String, layers settings: [LayerSettings], labels: [String], masterVolume: Float,
        model: LoudnessModel, frequenciesHz: [Double] = SpectrumCurves.frequencies()
    ) {
        self.title = title
        self.frequenciesHz = frequenciesHz
        var total = [Double](repeating: 0, count: frequenciesHz.count)
        var out: [Layer] = []
        for (i, s) in settings.enumerated() where s.isEnabled && s.volume > 0 {
            let powers = frequenciesHz.map { f in
                model.layerDensity(s, masterVolume: masterVolume, atHz: min(f, 0.499 * model.sampleRate)) * f
                    * Self.thirdOctaveWidth
            }
            for j in powers.indices { total[j] += powers[j] }
            out.append(Layer(index: i, label: i < labels.count ? labels[i] : "layer \(i + 1)", db: powers.map(Self.db)))
        }
        layers = out
        totalDb = total.map(Self.db)
    }

    /// Adds a measured total from rendered channels (Welch power spectrum, summed over third-octave
    /// bands around each frequency; channels averaged).
    public mutating func addMeasurement(_ channels: [[Float]], sampleRate: Double) {
        let welch = channels.map { MeasuredSpectrum.welch($0, sampleRate: sampleRate) }
        let binHz = welch[0].binHz
        var density = [Double](repeating: 0, count: welch[0].density.count)
        for w in welch { for k in density.indices { density[k] += w.density[k] / Double(welch.count) } }
        measuredDb = frequenciesHz.map { f in
            Self.db(MeasuredSpectrum.bandPower(density: density, binHz: binHz, centreHz: f, fraction: 3))
        }
        measuredSeconds = Double(channels[0].count) / sampleRate
    }
}

/// Spectral estimation of rendered audio (for `--measured`): radix-2 FFT, Welch averaging.
public enum MeasuredSpectrum {
    /// In-place radix-2 complex FFT (length a power of two).
    public static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var len = 2
        while len <= n {
            let angle = -2 * Double.pi / Double(len)
            let half = len / 2
            // Twiddles for this stage, computed directly (no drift from repeated multiplication).
            let wr = (0..<half).map { cos(angle * Double($0)) }, wi = (0..<half).map { sin(angle * Double($0)) }
            var i = 0
            while i < n {
                for k in 0..<half {
                    let a = i + k, b = a + half
                    let tr = re[b] * wr[k] - im[b] * wi[k]
                    let ti = re[b] * wi[k] + im[b] * wr[k]
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                i += len
            }
            len <<= 1
        }
    }

    /// One-sided power spectral density (power per Hz), Hann window, 50 % overlap.
    public static func welch(_ x: [Float], sampleRate: Double, segment: Int = 16384) -> (
        binHz: Double, density: [Double]
    ) {
        let window = (0..<segment).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(segment)) }
        let windowPower = window.reduce(0) { $0 + $1 * $1 }
        var acc = [Double](repeating: 0, count: segment / 2 + 1)
        var count = 0
        var start = 0
        while start + segment <= x.count {
            var re = (0..<segment).map { Double(x[start + $0]) * window[$0] }
            var im = [Double](repeating: 0, count: segment)
            fft(&re, &im)
            for k in 0...(segment / 2) { acc[k] += re[k] * re[k] + im[k] * im[k] }
            count += 1
            start += segment / 2
        }
        guard count > 0 else { return (sampleRate / Double(segment), acc) }
        let scale = 2 / (sampleRate * windowPower * Double(count))
        return (sampleRate / Double(segment), acc.map { $0 * scale })
    }

    /// Power in the band 1/`fraction` octave wide around `centreHz` (mean density × width).
    public static func bandPower(density: [Double], binHz: Double, centreHz: Double, fraction: Double) -> Double {
        let lo = centreHz * pow(2, -0.5 / fraction), hi = centreHz * pow(2, 0.5 / fraction)
        var first = Int((lo / binHz).rounded(.up)), last = Int((hi / binHz).rounded(.down))
        if first > last {
            first = Int((centreHz / binHz).rounded())
            last = first
        }
        var sum = 0.0, n = 0
        for k in first...last where k >= 0 && k < density.count {
            sum += density[k]
            n += 1
        }
        return n > 0 ? sum / Double(n) * (hi - lo) : 0
    }
}
