/// A first-order section y = b0·x + b1·x[-1] − a1·y[-1].
public struct FirstOrderCoefficients: Sendable, Equatable {
    public var b0: Double, b1: Double, a1: Double

    public init(b0: Double, b1: Double, a1: Double) { (self.b0, self.b1, self.a1) = (b0, b1, a1) }

    /// |H|² given cos(ω).
    @inlinable
    public func powerResponse(cosOmega c: Double) -> Double {
        (b0 * b0 + b1 * b1 + 2 * b0 * b1 * c) / (1 + a1 * a1 + 2 * a1 * c)
    }

    /// A DC blocker: first-order high-pass whose corner is `cornerHz`, unity gain at Nyquist.
    public static func dcBlocker(cornerHz: Double, sampleRate: Double) -> FirstOrderCoefficients {
        let r = 1 - 2 * Double.pi * cornerHz / sampleRate
        let g = (1 + r) / 2
        return FirstOrderCoefficients(b0: g, b1: -g, a1: -r)
    }
}
