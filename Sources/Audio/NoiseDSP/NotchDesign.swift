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

/// Designs the notch as a fourth-order elliptic band-stop (four biquads).
///
/// Why this design: every section costs the render thread time (issue 38's budget), and an
/// elliptic filter is the steepest of a given order: order 4 with 0.1 dB passband ripple keeps the
/// default 40 dB across the central half-octave of a one-octave notch from 1 to 12 kHz at 48 kHz,
/// where a Chebyshev type II of order 4 fell to 32 dB at 8 kHz (it needed order 5, one section
/// more). The stopband is equiripple at exactly `depthDb`; the ripple, 0.1 dB at most and below
/// 0 dB (no boost), is far below what a listener hears next to a 40 dB notch. The low-pass
/// prototype is scaled so its −3 dB point, not its passband edge, lands on the band edges; with
/// the edges pre-warped for the bilinear transform the −3 dB edges sit at centre·2^(±width/2) at
/// any sample rate. Its poles lie inside the unit circle and its zeros on it.
///
/// The prototype follows the classical construction with Jacobi elliptic functions computed by
/// descending Landen transformations (Orfanidis, "Lecture Notes on Elliptic Filter Design", 2006):
/// the selectivity k from the degree equation k′ = k₁′ᴺ·∏ sn⁴(uᵢK₁′, k₁′), zeros j/(k·cd(uᵢK, k)),
/// poles j·cd((uᵢ − j·v₀)K, k) with v₀ = −j·sn⁻¹(j/εp, k₁)/N, uᵢ = (2i − 1)/N.
public enum NotchDesign {
    public static let order = 4
    /// Biquads the design returns: each prototype pole pair becomes two band-stop sections.
    public static let sectionCount = order
    public static let passbandRippleDb = 0.1

    public static func sections(_ notch: NotchSettings, sampleRate: Double) -> [BiquadCoefficients] {
        let f1 = notch.centreHz * pow(2, -notch.widthOctaves / 2)
        let f2 = min(notch.centreHz * pow(2, notch.widthOctaves / 2), sampleRate * 0.49)
        let o1 = tan(Double.pi * min(f1, sampleRate * 0.45) / sampleRate)
        let o2 = max(tan(Double.pi * f2 / sampleRate), o1 * 1.01)
        let w0Squared = o1 * o2, bandwidth = o2 - o1
        let prototype = EllipticPrototype(order: order, rippleDb: passbandRippleDb, depthDb: notch.depthDb)
        var result: [BiquadCoefficients] = []
        // Analog section (s² + wz²)/(s² + a1·s + a0), unity gain at DC, through s = (1 − z⁻¹)/(1 + z⁻¹).
        func add(zeroSquared wz2: Double, a1: Double, a0: Double, gain: Double) {
            let g = gain * a0 / wz2
            result.append(
                BiquadCoefficients(
                    b0: g * (1 + wz2), b1: g * 2 * (wz2 - 1), b2: g * (1 + wz2),
                    a0: 1 + a1 + a0, a1: 2 * (a0 - 1), a2: 1 - a1 + a0))
        }
        for (p, zeroHz) in zip(prototype.poles, prototype.zeros) {
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
                add(
                    zeroSquared: zero * zero, a1: -2 * pole.real, a0: pole.magnitude * pole.magnitude,
                    gain: result.isEmpty ? prototype.gain : 1)
            }
        }
        return result
    }
}

/// An even-order elliptic low-pass prototype, scaled so |H| is −3 dB at 1 rad/s: one pole of each
/// conjugate pair (upper half-plane), the matching zero frequencies, and the gain at DC (the
/// passband's lowest point, so the response never exceeds 0 dB).
struct EllipticPrototype {
    var poles: [Complex] = []
    var zeros: [Double] = []
    var gain = 1.0

    init(order n: Int, rippleDb: Double, depthDb: Double) {
        precondition(n % 2 == 0 && n >= 2)
        let epsilonPass = (pow(10, rippleDb / 10) - 1).squareRoot()
        let epsilonStop = (pow(10, depthDb / 10) - 1).squareRoot()
        let k1 = epsilonPass / epsilonStop
        let k1Complement = (1 - k1 * k1).squareRoot()
        let u = (1...(n / 2)).map { Double(2 * $0 - 1) / Double(n) }
        // The degree equation, in complements: k′ = k₁′ᴺ·∏ sn⁴(uᵢ, k₁′).
        let product = u.reduce(1.0) { $0 * Self.sn(Complex($1, 0), k1Complement).real }
        let kComplement = pow(k1Complement, Double(n)) * pow(product, 4)
        let k = (1 - kComplement * kComplement).squareRoot()
        let v0 = Self.arcsnOfImaginary(1 / epsilonPass, k1) / Double(n)
        var zeros = u.map { 1 / (k * Self.cd(Complex($0, 0), k).real) }
        var poles = u.map { Complex(0, 1) * Self.cd(Complex($0, -v0), k) }
        gain = pow(10, -rippleDb / 20)
        // Where |H| crosses −3 dB, between the passband edge (1) and the stopband edge (1/k).
        func power(_ w: Double) -> Double {
            zip(poles, zeros).reduce(gain * gain) { acc, pz in
                let (p, z) = pz
                let m2 = p.real * p.real + p.imaginary * p.imaginary
                let num = (z * z - w * w) * (z * z - w * w)
                let den = (m2 - w * w) * (m2 - w * w) + 4 * p.real * p.real * w * w
                return acc * num / den * (m2 / (z * z)) * (m2 / (z * z))
            }
        }
        var lo = 1.0, hi = 1 / k
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if power(mid) > 0.5 { lo = mid } else { hi = mid }
        }
        let scale = (lo + hi) / 2
        zeros = zeros.map { $0 / scale }
        poles = poles.map { Complex($0.real / scale, $0.imaginary / scale) }
        (self.zeros, self.poles) = (zeros, poles)
    }

    /// The descending Landen sequence of moduli k₁, k₂, … from `k`.
    static func landen(_ k: Double) -> [Double] {
        var v: [Double] = []
        var k = k
        for _ in 0..<10 {
            k = k / (1 + (1 - k * k).squareRoot())
            k *= k
            v.append(k)
            if k < 1e-300 { break }
        }
        return v
    }

    /// w ← (1 + kₙ)·w / (1 + kₙ·w²), from the last modulus back to the first.
    static func ascend(_ start: Complex, _ k: Double) -> Complex {
        var w = start
        for kn in landen(k).reversed() {
            w = Complex(1 + kn, 0) * w / (Complex(1, 0) + Complex(kn, 0) * w * w)
        }
        return w
    }

    /// cd(u·K, k) and sn(u·K, k) for complex u (K the complete elliptic integral).
    static func cd(_ u: Complex, _ k: Double) -> Complex { ascend(cosine(u), k) }
    static func sn(_ u: Complex, _ k: Double) -> Complex { ascend(sine(u), k) }

    /// cos and sin of u·π/2.
    static func cosine(_ u: Complex) -> Complex {
        let x = u.real * .pi / 2, y = u.imaginary * .pi / 2
        return Complex(cos(x) * cosh(y), -sin(x) * sinh(y))
    }
    static func sine(_ u: Complex) -> Complex {
        let x = u.real * .pi / 2, y = u.imaginary * .pi / 2
        return Complex(sin(x) * cosh(y), cos(x) * sinh(y))
    }

    /// v where sn(j·v·K, k) = j·y: the inverse along the imaginary axis stays imaginary.
    static func arcsnOfImaginary(_ y: Double, _ k: Double) -> Double {
        let v = landen(k)
        var w = y
        var previous = k
        for kn in v {
            w = w / (1 + (1 + w * w * previous * previous).squareRoot()) * 2 / (1 + kn)
            previous = kn
        }
        return 2 * asinh(w) / .pi
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
