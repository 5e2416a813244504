#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LoudnessModel {
    /// How much the master filter (hearing correction, notch) changes the loudness of `layers`
    /// (BS.1770 K-weighted power with and without the filter's |H|², in dB; negative is quieter).
    /// Layers are taken still (movement's long-run average barely changes a ratio).
    public func loudnessChangeDb(layers: [LayerSettings], filter: MasterFilterDesign) -> Double {
        guard !filter.isOff else { return 0 }
        let sections = filter.sections(sampleRate: sampleRate).map {
            BiquadCoefficients(
                b0: Double($0.b0), b1: Double($0.b1), b2: Double($0.b2), a1: Double($0.a1), a2: Double($0.a2))
        }
        var plain = 0.0, filtered = 0.0
        for l in layers where l.isEnabled && l.volume > 0 {
            let r = layerResponses(l, highCutOffsetOctaves: 0)
            for i in 0..<Self.pointCount {
                let p = r[i] * kWeight[i]
                plain += p
                filtered += p * sections.reduce(1.0) { $0 * $1.powerResponse(cosOmega: cosines[i]) }
            }
        }
        return plain > 0 ? 10 * log10(filtered / plain) : 0
    }
}
