#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A discrete Fourier transform of one length, planned once and reused.
///
/// Any length: lengths whose prime factors are 2, 3 and 5 run as a mixed-radix Stockham
/// transform (radix 4, 2, 3, 5 passes, natural order in and out); other lengths through
/// Bluestein's chirp-z identity on a 2-3-5 length of at least 2n - 1. The texture statistics
/// need arbitrary lengths (a recording's excerpt is as long as it is), which is why this is not
/// the radix-2 transform `SpectrumPlot` uses for its Welch segments.
///
/// Data are split complex (`re`, `im`), `Double`. Forward: X[k] = Σ x[t]·e^(−2πi·kt/n);
/// inverse includes the 1/n. A plan owns its scratch buffers: one thread at a time.
public final class FourierTransform {
    public let count: Int
    private let factors: [Int]
    /// Per pass: twiddles W_len^(p·k) for p < len/radix, k in 1..<radix (re, im interleaved by k).
    private let twiddleRe: [[Double]]
    private let twiddleIm: [[Double]]
    private let bluestein: Bluestein?
    private var scratchRe: [Double]
    private var scratchIm: [Double]

    /// Plans a transform of `count` points (count ≥ 1).
    public init(count: Int) {
        precondition(count >= 1, "FourierTransform needs at least one point")
        self.count = count
        if let f = Self.smoothFactors(count) {
            factors = f
            var tre: [[Double]] = [], tim: [[Double]] = []
            var length = count
            for r in f {
                let m = length / r
                var wr = [Double](repeating: 0, count: m * (r - 1)), wi = wr
                for p in 0..<m {
                    for k in 1..<r {
                        let angle = -2 * Double.pi * Double(p * k) / Double(length)
                        wr[p * (r - 1) + k - 1] = cos(angle)
                        wi[p * (r - 1) + k - 1] = sin(angle)
                    }
                }
                tre.append(wr)
                tim.append(wi)
                length = m
            }
            twiddleRe = tre
            twiddleIm = tim
            bluestein = nil
            scratchRe = [Double](repeating: 0, count: count)
            scratchIm = scratchRe
        } else {
            factors = []
            twiddleRe = []
            twiddleIm = []
            bluestein = Bluestein(count: count)
            scratchRe = []
            scratchIm = []
        }
    }

    /// Radix 4 first, then 2, 3, 5; nil when another prime divides `n`.
    static func smoothFactors(_ n: Int) -> [Int]? {
        var rest = n, out: [Int] = []
        while rest % 4 == 0 {
            out.append(4)
            rest /= 4
        }
        for p in [2, 3, 5] {
            while rest % p == 0 {
                out.append(p)
                rest /= p
            }
        }
        return rest == 1 ? out : nil
    }

    /// The smallest length ≥ `n` with no prime factor above 5.
    public static func smoothLength(atLeast n: Int) -> Int {
        var m = max(1, n)
        while smoothFactors(m) == nil { m += 1 }
        return m
    }

    /// In place, forward (e^−).
    public func forward(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        if let bluestein {
            bluestein.transform(re, im)
        } else {
            stockham(re, im)
        }
    }

    /// In place, inverse with 1/n: the forward transform with real and imaginary parts swapped.
    public func inverse(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        forward(im, re)
        let s = 1 / Double(count)
        for i in 0..<count {
            re[i] *= s
            im[i] *= s
        }
    }

    /// Array conveniences (tests, small transforms).
    public func forward(_ re: inout [Double], _ im: inout [Double]) {
        precondition(re.count == count && im.count == count)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { forward(r.baseAddress!, $0.baseAddress!) }
        }
    }

    public func inverse(_ re: inout [Double], _ im: inout [Double]) {
        precondition(re.count == count && im.count == count)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { inverse(r.baseAddress!, $0.baseAddress!) }
        }
    }

    /// Stockham decimation in frequency: each pass reads x and writes y in an order that leaves
    /// the result in natural order, so no bit reversal is needed.
    private func stockham(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        guard count > 1 else { return }
        scratchRe.withUnsafeMutableBufferPointer { sr in
            scratchIm.withUnsafeMutableBufferPointer { si in
                var xr = re, xi = im, yr = sr.baseAddress!, yi = si.baseAddress!
                var length = count, stride = 1
                for (pass, r) in factors.enumerated() {
                    let m = length / r
                    twiddleRe[pass].withUnsafeBufferPointer { wrb in
                        twiddleIm[pass].withUnsafeBufferPointer { wib in
                            let wr = wrb.baseAddress!, wi = wib.baseAddress!
                            switch r {
                            case 4: Self.radix4(xr, xi, yr, yi, m, stride, wr, wi)
                            case 2: Self.radix2(xr, xi, yr, yi, m, stride, wr, wi)
                            case 3: Self.radix3(xr, xi, yr, yi, m, stride, wr, wi)
                            default: Self.radix5(xr, xi, yr, yi, m, stride, wr, wi)
                            }
                        }
                    }
                    swap(&xr, &yr)
                    swap(&xi, &yi)
                    length = m
                    stride *= r
                }
                if xr != re {
                    re.update(from: xr, count: count)
                    im.update(from: xi, count: count)
                }
            }
        }
    }

    private typealias Ptr = UnsafeMutablePointer<Double>
    private typealias Twiddle = UnsafePointer<Double>

    private static func radix2(
        _ xr: Ptr, _ xi: Ptr, _ yr: Ptr, _ yi: Ptr, _ m: Int, _ s: Int, _ wr: Twiddle, _ wi: Twiddle
    ) {
        for p in 0..<m {
            let cr = wr[p], ci = wi[p]
            for q in 0..<s {
                let a = q + s * p, b = a + s * m
                let ar = xr[a], ai = xi[a], br = xr[b], bi = xi[b]
                let o = q + s * 2 * p
                yr[o] = ar + br
                yi[o] = ai + bi
                let dr = ar - br, di = ai - bi
                yr[o + s] = dr * cr - di * ci
                yi[o + s] = dr * ci + di * cr
            }
        }
    }

    private static func radix4(
        _ xr: Ptr, _ xi: Ptr, _ yr: Ptr, _ yi: Ptr, _ m: Int, _ s: Int, _ wr: Twiddle, _ wi: Twiddle
    ) {
        for p in 0..<m {
            let w1r = wr[3 * p], w1i = wi[3 * p], w2r = wr[3 * p + 1], w2i = wi[3 * p + 1]
            let w3r = wr[3 * p + 2], w3i = wi[3 * p + 2]
            for q in 0..<s {
                let i0 = q + s * p, i1 = i0 + s * m, i2 = i1 + s * m, i3 = i2 + s * m
                let a0r = xr[i0], a0i = xi[i0], a1r = xr[i1], a1i = xi[i1]
                let a2r = xr[i2], a2i = xi[i2], a3r = xr[i3], a3i = xi[i3]
                let t0r = a0r + a2r, t0i = a0i + a2i, t1r = a0r - a2r, t1i = a0i - a2i
                let t2r = a1r + a3r, t2i = a1i + a3i, t3r = a1r - a3r, t3i = a1i - a3i
                let o = q + s * 4 * p
                yr[o] = t0r + t2r
                yi[o] = t0i + t2i
                // k = 1: t1 − i·t3; k = 2: t0 − t2; k = 3: t1 + i·t3 (forward, W4 = −i)
                let b1r = t1r + t3i, b1i = t1i - t3r
                let b2r = t0r - t2r, b2i = t0i - t2i
                let b3r = t1r - t3i, b3i = t1i + t3r
                yr[o + s] = b1r * w1r - b1i * w1i
                yi[o + s] = b1r * w1i + b1i * w1r
                yr[o + 2 * s] = b2r * w2r - b2i * w2i
                yi[o + 2 * s] = b2r * w2i + b2i * w2r
                yr[o + 3 * s] = b3r * w3r - b3i * w3i
                yi[o + 3 * s] = b3r * w3i + b3i * w3r
            }
        }
    }

    private static let c3 = -0.5, s3 = -(3.0).squareRoot() / 2

    private static func radix3(
        _ xr: Ptr, _ xi: Ptr, _ yr: Ptr, _ yi: Ptr, _ m: Int, _ s: Int, _ wr: Twiddle, _ wi: Twiddle
    ) {
        for p in 0..<m {
            let w1r = wr[2 * p], w1i = wi[2 * p], w2r = wr[2 * p + 1], w2i = wi[2 * p + 1]
            for q in 0..<s {
                let i0 = q + s * p, i1 = i0 + s * m, i2 = i1 + s * m
                let a0r = xr[i0], a0i = xi[i0], a1r = xr[i1], a1i = xi[i1], a2r = xr[i2], a2i = xi[i2]
                let sr = a1r + a2r, si = a1i + a2i, dr = a1r - a2r, di = a1i - a2i
                let mr = a0r + c3 * sr, mi = a0i + c3 * si
                // ±i·sin(2π/3)·(a1 − a2), forward sign
                let rr = -s3 * di, ri = s3 * dr
                let o = q + s * 3 * p
                yr[o] = a0r + sr
                yi[o] = a0i + si
                let b1r = mr + rr, b1i = mi + ri, b2r = mr - rr, b2i = mi - ri
                yr[o + s] = b1r * w1r - b1i * w1i
                yi[o + s] = b1r * w1i + b1i * w1r
                yr[o + 2 * s] = b2r * w2r - b2i * w2i
                yi[o + 2 * s] = b2r * w2i + b2i * w2r
            }
        }
    }

    @inline(__always)
    private static func twiddled(_ br: Double, _ bi: Double, _ tr: Double, _ ti: Double, _ yr: Ptr, _ yi: Ptr, _ o: Int)
    {
        yr[o] = br * tr - bi * ti
        yi[o] = br * ti + bi * tr
    }

    private static let c51 = cos(2 * Double.pi / 5), c52 = cos(4 * Double.pi / 5)
    private static let s51 = -sin(2 * Double.pi / 5), s52 = -sin(4 * Double.pi / 5)

    private static func radix5(
        _ xr: Ptr, _ xi: Ptr, _ yr: Ptr, _ yi: Ptr, _ m: Int, _ s: Int, _ wr: Twiddle, _ wi: Twiddle
    ) {
        for p in 0..<m {
            for q in 0..<s {
                let i0 = q + s * p
                let a0r = xr[i0], a0i = xi[i0]
                let a1r = xr[i0 + s * m], a1i = xi[i0 + s * m], a2r = xr[i0 + 2 * s * m], a2i = xi[i0 + 2 * s * m]
                let a3r = xr[i0 + 3 * s * m], a3i = xi[i0 + 3 * s * m]
                let a4r = xr[i0 + 4 * s * m], a4i = xi[i0 + 4 * s * m]
                let s14r = a1r + a4r, s14i = a1i + a4i, d14r = a1r - a4r, d14i = a1i - a4i
                let s23r = a2r + a3r, s23i = a2i + a3i, d23r = a2r - a3r, d23i = a2i - a3i
                let m1r = a0r + c51 * s14r + c52 * s23r, m1i = a0i + c51 * s14i + c52 * s23i
                let m2r = a0r + c52 * s14r + c51 * s23r, m2i = a0i + c52 * s14i + c51 * s23i
                // i·(s·d): (re, im) → (−s·d_im, s·d_re)
                let n1r = -(s51 * d14i + s52 * d23i), n1i = s51 * d14r + s52 * d23r
                let n2r = -(s52 * d14i - s51 * d23i), n2i = s52 * d14r - s51 * d23r
                let o = q + s * 5 * p
                yr[o] = a0r + s14r + s23r
                yi[o] = a0i + s14i + s23i
                Self.twiddled(m1r + n1r, m1i + n1i, wr[4 * p], wi[4 * p], yr, yi, o + s)
                Self.twiddled(m2r + n2r, m2i + n2i, wr[4 * p + 1], wi[4 * p + 1], yr, yi, o + 2 * s)
                Self.twiddled(m2r - n2r, m2i - n2i, wr[4 * p + 2], wi[4 * p + 2], yr, yi, o + 3 * s)
                Self.twiddled(m1r - n1r, m1i - n1i, wr[4 * p + 3], wi[4 * p + 3], yr, yi, o + 4 * s)
            }
        }
    }
}

/// Bluestein's algorithm: a length-n DFT as a circular convolution with a chirp, done by a
/// 2-3-5 transform of length ≥ 2n − 1.
private final class Bluestein {
    let count: Int
    let inner: FourierTransform
    let chirpRe: [Double], chirpIm: [Double]
    /// The transformed conjugate chirp, wrapped circularly.
    let kernelRe: [Double], kernelIm: [Double]
    var workRe: [Double], workIm: [Double]

    init(count n: Int) {
        count = n
        let m = FourierTransform.smoothLength(atLeast: 2 * n - 1)
        inner = FourierTransform(count: m)
        var cr = [Double](repeating: 0, count: n), ci = cr
        for k in 0..<n {
            // k² mod 2n keeps the angle small and exact for long transforms.
            let k2 = (k * k) % (2 * n)
            let angle = -Double.pi * Double(k2) / Double(n)
            cr[k] = cos(angle)
            ci[k] = sin(angle)
        }
        chirpRe = cr
        chirpIm = ci
        var br = [Double](repeating: 0, count: m), bi = br
        for k in 0..<n {
            br[k] = cr[k]
            bi[k] = -ci[k]
            if k > 0 {
                br[m - k] = cr[k]
                bi[m - k] = -ci[k]
            }
        }
        inner.forward(&br, &bi)
        kernelRe = br
        kernelIm = bi
        workRe = [Double](repeating: 0, count: m)
        workIm = workRe
    }

    func transform(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        let n = count, m = inner.count
        workRe.withUnsafeMutableBufferPointer { wrb in
            workIm.withUnsafeMutableBufferPointer { wib in
                let wr = wrb.baseAddress!, wi = wib.baseAddress!
                for k in 0..<n {
                    wr[k] = re[k] * chirpRe[k] - im[k] * chirpIm[k]
                    wi[k] = re[k] * chirpIm[k] + im[k] * chirpRe[k]
                }
                for k in n..<m {
                    wr[k] = 0
                    wi[k] = 0
                }
                inner.forward(wr, wi)
                for k in 0..<m {
                    let a = wr[k], b = wi[k], c = kernelRe[k], d = kernelIm[k]
                    wr[k] = a * c - b * d
                    wi[k] = a * d + b * c
                }
                inner.inverse(wr, wi)
                for k in 0..<n {
                    re[k] = wr[k] * chirpRe[k] - wi[k] * chirpIm[k]
                    im[k] = wr[k] * chirpIm[k] + wi[k] * chirpRe[k]
                }
            }
        }
    }
}
