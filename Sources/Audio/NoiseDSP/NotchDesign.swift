#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A notch on the master: a band removed around `centreHz`, `widthOctaves` wide between its −3 dB
/// edges, at least `depthDb` down across its stopband.
public struct NotchSettings: Sendable, Equatable, BitwiseCopyable {
    public var centreHz: Double
    public var widthOctaves: Double
    public var depthDb: Double

    public static let centreRange = 200.0...16000.0
    public static let widthRange = 0.25...2.0
    public static let depthRange = 10.0...60.0
    public static let defaultWidthOctaves = 1.0
    public static let defaultDepthDb = 40.0

    public init(
        centreHz: Double, widthOctaves: Double = NotchSettings.defaultWidthOctaves,
        depthDb: Double = NotchSettings.defaultDepthDb
    ) {
        self.centreHz = centreHz
        self.widthOctaves = widthOctaves
        self.depthDb = depthDb
    }
}

/// Designs the notch as a fifth-order Chebyshev type II band-stop (five biquads).
///
/// Why this design: the passband is flat (no ripple next to the notch, where a listener would hear
/// it), the stopband is equiripple at exactly `depthDb`, and the low-pass prototype is scaled so
/// its −3 dB point, not its stopband edge, lands on the band edges. With the edges pre-warped for
/// the bilinear transform, the −3 dB edges sit at centre·2^(±width/2) at any sample rate. Order 5
/// keeps the default 40 dB across the central half-octave of a one-octave notch from 1 to 8 kHz at
/// 48 kHz (order 4 fell to 32 dB at 8 kHz: the bilinear transform squeezes the band near Nyquist).
/// Its poles lie inside the unit circle and its zeros on it, so it adds no more phase than it must.
public enum NotchDesign {
    public static let order = 5
    /// Biquads the design returns: each prototype pole becomes one band-stop section (a conjugate
    /// pair of prototype poles gives two).
    public static let sectionCount = order

    public static func sections(_ notch: NotchSettings, sampleRate: Double) -> [BiquadCoefficients] {
        let n = order
        let f1 = notch.centreHz * pow(2, -notch.widthOctaves / 2)
        let f2 = min(notch.centreHz * pow(2, notch.widthOctaves / 2), sampleRate * 0.49)
        let o1 = tan(Double.pi * min(f1, sampleRate * 0.45) / sampleRate)
        let o2 = max(tan(Double.pi * f2 / sampleRate), o1 * 1.01)
        let w0Squared = o1 * o2, bandwidth = o2 - o1
        let inverseEpsilon = (pow(10, notch.depthDb / 10) - 1).squareRoot()
        let stopEdge = cosh(acosh(inverseEpsilon) / Double(n))
        let mu = asinh(inverseEpsilon) / Double(n)
        var result: [BiquadCoefficients] = []
        // Analog section (s² + wz²)/(s² + a1·s + a0), unity gain at DC, through s = (1 − z⁻¹)/(1 + z⁻¹).
        func add(zeroSquared wz2: Double, a1: Double, a0: Double) {
            let g = a0 / wz2
            result.append(
                BiquadCoefficients(
                    b0: g * (1 + wz2), b1: g * 2 * (wz2 - 1), b2: g * (1 + wz2),
                    a0: 1 + a1 + a0, a1: 2 * (a0 - 1), a2: 1 - a1 + a0))
        }
        for k in 1...(n / 2) {
            let theta = Double(2 * k - 1) * .pi / Double(2 * n)
            // Chebyshev I pole for the same ε; type II's is its reciprocal, scaled to the stopband edge.
            let pI = Complex(-sinh(mu) * sin(theta), cosh(mu) * cos(theta))
            let p = Complex(stopEdge, 0) / pI
            let zeroHz = stopEdge / cos(theta)
            // Low-pass to band-stop: each prototype root r gives the roots of r·s² − B·s + r·w0².
            let disc = (Complex(bandwidth * bandwidth, 0) - p * p * Complex(4 * w0Squared, 0)).squareRoot()
            let poles = [
                (Complex(bandwidth, 0) + disc) / (p * Complex(2, 0)),
                (Complex(bandwidth, 0) - disc) / (p * Complex(2, 0)),
            ]
            // The prototype zero j·zq maps to two points on the jω axis: ω² solves ω² ∓ (B/zq)·ω − w0² = 0.
            let h = bandwidth / zeroHz
            let zeroA = (h + (h * h + 4 * w0Squared).squareRoot()) / 2
            let zeroB = w0Squared / zeroA
            // Pair each pole with the zero on its side of the centre, so each section stays tame.
            let sorted = poles.sorted { $0.magnitude < $1.magnitude }
            for (pole, zero) in zip(sorted, [zeroB, zeroA]) {
                add(zeroSquared: zero * zero, a1: -2 * pole.real, a0: pole.magnitude * pole.magnitude)
            }
        }
        if n % 2 == 1 {
            // The real prototype pole (its zero at infinity maps onto the centre).
            let p = stopEdge / sinh(mu)
            add(zeroSquared: w0Squared, a1: bandwidth / p, a0: w0Squared)
        }
        return result
    }
}

/// Just enough complex arithmetic for filter design (off the render thread).
struct Complex {
    var real: Double, imaginary: Double
    init(_ real: Double, _ imaginary: Double) { (self.real, self.imaginary) = (real, imaginary) }
    var magnitude: Double { (real * real + imaginary * imaginary).squareRoot() }
    static func + (a: Complex, b: Complex) -> Complex { Complex(a.real + b.real, a.imaginary + b.imaginary) }
    static func - (a: Complex, b: Complex) -> Complex { Complex(a.real - b.real, a.imaginary - b.imaginary) }
    static func * (a: Complex, b: Complex) -> Complex {
        Complex(a.real * b.real - a.imaginary * b.imaginary, a.real * b.imaginary + a.imaginary * b.real)
    }
    static func / (a: Complex, b: Complex) -> Complex {
        let d = b.real * b.real + b.imaginary * b.imaginary
        return Complex(
            (a.real * b.real + a.imaginary * b.imaginary) / d, (a.imaginary * b.real - a.real * b.imaginary) / d)
    }
    func squareRoot() -> Complex {
        let m = magnitude
        let r = ((m + real) / 2).squareRoot()
        let i = ((m - real) / 2).squareRoot()
        return Complex(r, imaginary < 0 ? -i : i)
    }
}
