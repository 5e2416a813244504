#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The gain that makes one layer of colour β measure `targetLufs` (BS.1770, stereo, both channels
/// alike) at volume 1 with cuts off and flat EQ.
///
/// Equal RMS is far from equal loudness (white, pink and brown at one RMS differ by ~8 LU), so the
/// expected K-weighted power of the colour stage is integrated analytically over frequency for a
/// grid of β values once per sample rate; the render thread only interpolates the table.
public struct LoudnessCalibration: Sendable {
    public static let targetLufs = -20.0
    /// Table resolution in β.
    static let stepCount = 80

    public let sampleRate: Double
    let gainDbTable: [Float]

    public init(design: ColourDesign, targetLufs: Double = LoudnessCalibration.targetLufs) {
        sampleRate = design.sampleRate
        let k = KWeighting.stages(sampleRate: design.sampleRate)
        // Midpoint rule over 0…Nyquist; white noise has a flat density, so power = σ² · mean |H|².
        let pointCount = 8192
        var cosines = [Double](repeating: 0, count: pointCount)
        var kWeight = [Double](repeating: 0, count: pointCount)
        for i in 0..<pointCount {
            let c = cos(Double.pi * (Double(i) + 0.5) / Double(pointCount))
            cosines[i] = c
            kWeight[i] = k.shelf.powerResponse(cosOmega: c) * k.highPass.powerResponse(cosOmega: c)
        }
        // Per channel mean square that gives targetLufs over two equal channels.
        let targetPower = pow(10, (targetLufs + 0.691) / 10) / 2
        var table: [Float] = []
        for step in 0...Self.stepCount {
            let beta = 2 * Double(step) / Double(Self.stepCount)
            let sections = design.sections(beta: beta)
            var sum = 0.0
            for i in 0..<pointCount {
                var p = kWeight[i]
                for s in sections { p *= s.powerResponse(cosOmega: cosines[i]) }
                sum += p
            }
            let power = NoiseSource.variance * sum / Double(pointCount)
            table.append(Float(10 * log10(targetPower / power)))
        }
        gainDbTable = table
    }

    /// Linear gain for colour β (clamped to [0, 2]).
    ///
    /// Real-time safety: a table look-up and one `pow`; no allocation.
    public func gain(beta: Float) -> Float {
        let x = min(max(beta, 0), 2) * Float(Self.stepCount) / 2
        let i = min(Int(x), Self.stepCount - 1)
        let f = x - Float(i)
        let db = gainDbTable[i] + (gainDbTable[i + 1] - gainDbTable[i]) * f
        return powf(10, db / 20)
    }
}
