/// Gains (dB) to apply at centre frequencies (Hz): a hearing profile's correction, or an ISO 226
/// loudness compensation, before it is fitted to the master's bands.
public struct CorrectionCurve: Sendable, Equatable {
    public var centresHz: [Double]
    public var gainsDb: [Double]

    public init(centresHz: [Double], gainsDb: [Double]) {
        self.centresHz = centresHz
        self.gainsDb = gainsDb
    }

    /// `iso226:PHON`: the difference between the contours at `phon` and at 80 phon, normalised at
    /// 1 kHz, within ±12 dB (`EqualLoudness.compensationDb`).
    public static func equalLoudness(phon: Double) -> CorrectionCurve {
        CorrectionCurve(
            centresHz: EqualLoudness.frequenciesHz,
            gainsDb: EqualLoudness.compensationDb(phon: phon, limitDb: CorrectionDesign.limitDb))
    }
}

/// What the master filter does: a correction, a notch, both or neither, and the sections that
/// make it (computed off the render thread).
public struct MasterFilterDesign: Sendable, Equatable {
    public var correction: CorrectionCurve?
    public var notch: NotchSettings?

    public init(correction: CorrectionCurve? = nil, notch: NotchSettings? = nil) {
        self.correction = correction
        self.notch = notch
    }

    public static let off = MasterFilterDesign()
    public var isOff: Bool { correction == nil && notch == nil }

    /// The sections that make it, in double precision: the notch's, then the correction's (low
    /// shelves, peaking, high shelves, each by frequency), and the overall gain.
    public func biquads(sampleRate: Double) -> (sections: [BiquadCoefficients], gain: Double) {
        var sections: [BiquadCoefficients] = []
        var gain = 1.0
        if let notch { sections += NotchDesign.sections(notch, sampleRate: sampleRate) }
        if let correction {
            let fit = CorrectionDesign.fit(
                centresHz: correction.centresHz, gainsDb: correction.gainsDb, sampleRate: sampleRate)
            let c = CorrectionDesign.biquads(fit, sampleRate: sampleRate)
            sections += c.sections
            gain = c.gain
        }
        return (sections, gain)
    }

    /// The sections as `MasterFilter` takes them (at most `MasterFilter.capacity`): first one that
    /// only scales (the overall gain times every section's b0), then each section with its b0
    /// divided out, so b0 = 1. Normalised in double precision before rounding to single: rounding
    /// first and dividing in single moves a low section's response measurably.
    public func sections(sampleRate: Double) -> [BiquadCoefficientsF] {
        if isOff { return [] }
        let (sections, gain) = biquads(sampleRate: sampleRate)
        let total = sections.reduce(gain) { $0 * $1.b0 }
        return [BiquadCoefficientsF(b0: Float(total), b1: 0, b2: 0, a1: 0, a2: 0)]
            + sections.map {
                BiquadCoefficientsF(
                    b0: 1, b1: Float($0.b1 / $0.b0), b2: Float($0.b2 / $0.b0), a1: Float($0.a1), a2: Float($0.a2))
            }
    }

    /// The design's response (dB) at `frequenciesHz` (for `noise spectrum` and tests).
    public func responseDb(atHz frequenciesHz: [Double], sampleRate: Double) -> [Double] {
        let s = sections(sampleRate: sampleRate).map {
            BiquadCoefficients(
                b0: Double($0.b0), b1: Double($0.b1), b2: Double($0.b2), a1: Double($0.a1), a2: Double($0.a2))
        }
        return CorrectionDesign.responseDb(s, atHz: frequenciesHz, sampleRate: sampleRate)
    }
}
