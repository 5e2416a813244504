import Foundation
import NoiseDSP

/// The steps of a hearing calibration, apart from any terminal or browser: which band comes next,
/// what each answer means, the second pass's random bands, the spread, and the profile it makes.
///
/// Loudness mode: each band alternates with the 1 kHz reference band; the listener sets the band
/// "as loud as the reference", and the gain they set is the band's correction. Threshold mode:
/// the reference band's threshold is found first, then each band's; a band's correction is its
/// threshold minus the reference's. Both play pink noise through third-octave band-passes, so
/// at equal gain every band carries the same power.
public struct HearingCalibration: Sendable {
    /// Third-octave centres (ISO 266 nominal), 63 Hz–12.5 kHz.
    public static let standardCentresHz: [Double] = [
        63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000,
        6300, 8000, 10000, 12500,
    ]
    public static let referenceHz = 1000.0
    /// What a band's gain may be set to, relative to the reference (dB): the cap keeps a band at
    /// most 12 dB above the reference, so a listener never gets a loud surprise.
    public static let gainRange = -40.0...12.0
    public static let stepDb = 1.0

    public var mode: HearingProfile.Mode
    public var centresHz: [Double]
    /// First-pass results so far (centre → gain).
    public var first: [Double: Double] = [:]
    /// The second pass's bands, drawn at the start, and its results.
    public var retestCentresHz: [Double]
    public var second: [Double: Double] = [:]
    /// Threshold mode: the reference band's threshold (dB), once measured.
    public var referenceThresholdDb: Double?
    public var tinnitusHz: Double?

    /// - Parameters:
    ///   - retestCount: bands the second pass repeats (drawn with `seed`).
    public init(
        mode: HearingProfile.Mode = .loudness, centresHz: [Double] = standardCentresHz, retestCount: Int = 6,
        seed: UInt64
    ) {
        self.mode = mode
        self.centresHz = centresHz
        var g = SplitMix64(seed: seed)
        var pool = centresHz.filter { $0 != Self.referenceHz }
        var picked: [Double] = []
        while picked.count < min(retestCount, pool.count) {
            let i = Int(g.next() % UInt64(pool.count))
            picked.append(pool.remove(at: i))
        }
        retestCentresHz = picked
    }

    /// Resumes from a stored unfinished profile: its measured bands count as the first pass.
    public init(resuming p: HearingProfile, retestCount: Int = 6, seed: UInt64) {
        self.init(
            mode: p.mode, centresHz: (p.centresHz + p.pendingCentresHz).sorted(), retestCount: retestCount,
            seed: seed)
        for (f, g) in zip(p.centresHz, p.gainsDb) { first[f] = g }
        tinnitusHz = p.tinnitusHz
        if mode == .threshold { referenceThresholdDb = 0 }
    }

    public enum Step: Equatable, Sendable {
        /// Threshold mode: find the reference band's threshold first.
        case referenceThreshold
        case band(centreHz: Double, pass: Int)
        case done

        /// What the listener is asked, as the terminal and the page say it.
        public func prompt(mode: HearingProfile.Mode) -> String {
            switch self {
            case .referenceThreshold: return "1 kHz reference: make it just audible"
            case .band(let f, let pass):
                let retest = pass == 2 ? "Retest " : ""
                return mode == .loudness
                    ? "\(retest)\(Int(f)) Hz: as loud as the 1 kHz band" : "\(retest)\(Int(f)) Hz: just audible"
            case .done: return "Done"
            }
        }
    }

    public var next: Step {
        if mode == .threshold && referenceThresholdDb == nil { return .referenceThreshold }
        if let f = centresHz.first(where: { first[$0] == nil }) { return .band(centreHz: f, pass: 1) }
        if let f = retestCentresHz.first(where: { second[$0] == nil }) { return .band(centreHz: f, pass: 2) }
        return .done
    }

    /// Where the gain starts for a step: 0 dB on the first pass; on the second, an offset drawn
    /// from the centre (±6 dB) so the listener cannot repeat a remembered position.
    public func startingGainDb(_ step: Step) -> Double {
        guard case .band(let f, 2) = step else { return 0 }
        var g = SplitMix64(seed: UInt64(f * 10))
        return Double(Int(g.next() % 13) - 6)
    }

    /// Records the listener's answer (dB, limited to `gainRange`).
    public mutating func accept(_ step: Step, gainDb: Double) {
        let g = min(max(gainDb, Self.gainRange.lowerBound), Self.gainRange.upperBound)
        switch step {
        case .referenceThreshold: referenceThresholdDb = g
        case .band(let f, 1): first[f] = g
        case .band(let f, _): second[f] = g
        case .done: break
        }
    }

    /// Root mean square of second-pass minus first-pass answers, dB; nil before any retest.
    public var retestSpreadDb: Double? {
        let d = second.compactMap { f, g in first[f].map { g - $0 } }
        guard !d.isEmpty else { return nil }
        return (d.reduce(0) { $0 + $1 * $1 } / Double(d.count)).squareRoot()
    }

    /// The profile as it stands: measured bands (retested ones averaged), the rest pending.
    /// Threshold mode stores thresholds relative to the reference's.
    public func profile(device: String?, now: Date = Date()) -> HearingProfile {
        let measured = centresHz.filter { first[$0] != nil }
        let gains = measured.map { f -> Double in
            let a = first[f]!
            let g = second[f].map { (a + $0) / 2 } ?? a
            return mode == .threshold ? g - (referenceThresholdDb ?? 0) : g
        }
        return HearingProfile(
            device: device, mode: mode, centresHz: measured, gainsDb: gains, retestSpreadDb: retestSpreadDb,
            tinnitusHz: tinnitusHz, complete: next == .done,
            pendingCentresHz: centresHz.filter { first[$0] == nil }, updated: now)
    }

    /// A third-octave band-pass around `centreHz`: two RBJ band-pass sections (0 dB at the centre),
    /// Q chosen so the pair is about −3 dB at the third-octave edges. `widthOctaves` narrows it (a
    /// pitch match uses 1/12 octave).
    public static func bandPass(centreHz: Double, widthOctaves: Double = 1.0 / 3, sampleRate: Double)
        -> [BiquadCoefficients]
    {
        // One section's Q for its own −3 dB width; two in cascade are −3 dB where each is −1.5 dB,
        // at about 0.64 of the single section's width.
        let bw = widthOctaves / 0.64
        let q = pow(2, bw / 2) / (pow(2, bw) - 1)
        let w = 2 * Double.pi * min(centreHz, sampleRate * 0.45) / sampleRate
        let alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        let s = BiquadCoefficients(b0: alpha / a0, b1: 0, b2: -alpha / a0, a1: -2 * cos(w) / a0, a2: (1 - alpha) / a0)
        return [s, s]
    }

    /// The master filter's sections for playing a band (the rest identity).
    public static func bandSections(centreHz: Double, widthOctaves: Double = 1.0 / 3, sampleRate: Double)
        -> [BiquadCoefficientsF]
    {
        var out = [BiquadCoefficientsF](repeating: .identity, count: MasterFilter.capacity)
        for (i, s) in bandPass(centreHz: centreHz, widthOctaves: widthOctaves, sampleRate: sampleRate).enumerated() {
            out[i] = BiquadCoefficientsF(s)
        }
        return out
    }
}
