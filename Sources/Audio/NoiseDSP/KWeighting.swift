#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ITU-R BS.1770 K-weighting at any sample rate: a high shelf (+4 dB above ~1.7 kHz) and the
/// RLB high-pass (~38 Hz). The analog parameters below are the published ones that reproduce the
/// standard's 48 kHz coefficient table; they are used here to compute loudness off the render
/// thread (see `LoudnessCalibration`), never to meter audio on it.
public enum KWeighting {
    public static let shelfHz = 1681.974450955533
    public static let shelfGainDb = 3.999843853973347
    public static let shelfQ = 0.7071752369554196
    public static let highPassHz = 38.13547087602444
    public static let highPassQ = 0.5003270373238773

    public static func stages(sampleRate: Double) -> (shelf: BiquadCoefficients, highPass: BiquadCoefficients) {
        var k = tan(Double.pi * shelfHz / sampleRate)
        let vh = pow(10, shelfGainDb / 20)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / shelfQ + k * k
        let shelf = BiquadCoefficients(
            b0: (vh + vb * k / shelfQ + k * k) / a0,
            b1: 2 * (k * k - vh) / a0,
            b2: (vh - vb * k / shelfQ + k * k) / a0,
            a1: 2 * (k * k - 1) / a0,
            a2: (1 - k / shelfQ + k * k) / a0)
        k = tan(Double.pi * highPassHz / sampleRate)
        a0 = 1 + k / highPassQ + k * k
        let hp = BiquadCoefficients(
            b0: 1, b1: -2, b2: 1,
            a1: 2 * (k * k - 1) / a0,
            a2: (1 - k / highPassQ + k * k) / a0)
        return (shelf, hp)
    }
}
