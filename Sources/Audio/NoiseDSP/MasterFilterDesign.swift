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

    /// `MasterFilter.capacity` sections: the notch's slots first, then the correction's bands;
    /// slots not in use are the identity.
    public func sections(sampleRate: Double) -> [BiquadCoefficientsF] {
        var result = [BiquadCoefficientsF](repeating: .identity, count: MasterFilter.capacity)
        if let notch {
            for (i, c) in NotchDesign.sections(notch, sampleRate: sampleRate).enumerated() {
                result[i] = BiquadCoefficientsF(c)
            }
        }
        if let correction {
            let gains = CorrectionDesign.fit(
                centresHz: correction.centresHz, gainsDb: correction.gainsDb, sampleRate: sampleRate)
            for (i, c) in CorrectionDesign.sections(bandGainsDb: gains, sampleRate: sampleRate).enumerated() {
                result[NotchDesign.sectionCount + i] = BiquadCoefficientsF(c)
            }
        }
        return result
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
