import Foundation
import TestSupport
import Testing

@testable import NoiseDSP

/// The master's hearing correction and notch, measured on rendered noise from outside.
@Suite struct MasterFilterTests {
    @Test(arguments: [20.0, 40.0, 60.0, 80.0])
    func contourMatchesISO226(phon: Double) throws {
        let mine = EqualLoudness.contourDb(phon: phon)
        let table = try #require(ISO226Reference.contoursDb[phon])
        let worst = zip(mine, table).map { abs($0 - $1) }.max()!
        print("ISO 226 at \(phon) phon: largest difference \(worst) dB over 29 frequencies")
        #expect(mine.count == 29)
        #expect(worst <= 0.1)
    }

    /// Same seed with and without the filter: the noise is identical, so the ratio of the two
    /// spectra is the filter's response, read in 1/24-octave bands.
    static func measuredResponseDb(_ design: MasterFilterDesign, at hz: [Double], seconds: Double = 8) -> [Double] {
        let pink = [LayerSettings(volume: 0.5, colour: 1)]
        let dry = TestRender.render(layers: pink, master: 0.7, seconds: seconds, channels: 1, seed: 5)[0]
        let wet = TestRender.render(
            layers: pink, master: 0.7, seconds: seconds, channels: 1, seed: 5,
            changes: [(0, { $0.setMasterFilter(design.sections(sampleRate: 48000), rampSeconds: 0) })])[0]
        // The first second lets the filter settle from rest.
        let a = Array(wet.dropFirst(48000)), b = Array(dry.dropFirst(48000))
        let wa = Spectrum.welch(a, sampleRate: 48000, segment: 65536)
        let wb = Spectrum.welch(b, sampleRate: 48000, segment: 65536)
        let la = Spectrum.bandLevelsDb(binHz: wa.binHz, density: wa.density, centresHz: hz, fraction: 24)
        let lb = Spectrum.bandLevelsDb(binHz: wb.binHz, density: wb.density, centresHz: hz, fraction: 24)
        return zip(la, lb).map { $0 - $1 }
    }

    static let profileCentres = Spectrum.bandCentres(from: 63, to: 12500, perOctave: 3)

    /// A smooth profile within ±12 dB: a slow wave over log frequency plus a tilt.
    static func smoothGains(_ centres: [Double]) -> [Double] {
        centres.map { f in
            let o = log2(f / 63)
            return min(max(7 * sin(2 * .pi * o / 5 + 0.7) + 0.6 * (o - 3.8), -12), 12)
        }
    }

    @Test func profileIsAppliedAtEveryCentre() {
        let gains = Self.smoothGains(Self.profileCentres)
        let design = MasterFilterDesign(correction: CorrectionCurve(centresHz: Self.profileCentres, gainsDb: gains))
        let measured = Self.measuredResponseDb(design, at: Self.profileCentres)
        // An overall gain aside: the mean difference is taken out.
        let offsets = zip(measured, gains).map { $0 - $1 }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        let worst = offsets.map { abs($0 - mean) }.max()!
        print("profile applied: largest error \(worst) dB at \(offsets.count) centres (overall gain \(mean) dB)")
        #expect(worst <= 0.5)
    }

    @Test(arguments: [4000.0, 6000.0, 8000.0])
    func notchIsDeepWithEdgesAtHalfAnOctave(centreHz: Double) {
        let design = MasterFilterDesign(notch: NotchSettings(centreHz: centreHz))
        let central = (0...12).map { centreHz * pow(2, -0.25 + Double($0) / 24) }
        let depth = -(Self.measuredResponseDb(design, at: central).max()!)
        // −3 dB edges: the response on a 1/48-octave grid from 1 octave below to 1 octave above.
        let grid = (0...96).map { -1.0 + Double($0) / 48 }
        let r = Self.measuredResponseDb(design, at: grid.map { centreHz * pow(2, $0) })
        let lower = grid[r.firstIndex { $0 < -3 }!], upper = grid[r.lastIndex { $0 < -3 }!]
        print(
            "notch \(centreHz) Hz: depth \(depth) dB across the central half-octave, "
                + "−3 dB at \(lower), \(upper) octaves"
        )
        #expect(depth >= 30)
        #expect(abs(lower + 0.5) <= 1.0 / 6)
        #expect(abs(upper - 0.5) <= 1.0 / 6)
    }

    /// Largest absolute difference between neighbouring samples.
    static func largestStep(_ x: ArraySlice<Float>) -> Float {
        zip(x.dropFirst(), x).map { abs($0 - $1) }.max() ?? 0
    }

    /// The largest sample step within 200 ms of a switch at 3 s, against the largest of the steady
    /// sound before (1–3 s) and after (4–6 s), over the channels of a 6 s render.
    static func switchStepRatio(_ out: [[Float]]) -> Double {
        out.map { x in
            let before = largestStep(x[48000..<(3 * 48000)])
            let after = largestStep(x[(4 * 48000)..<(6 * 48000)])
            let during = largestStep(x[(3 * 48000 - 10)..<(3 * 48000 + 9600)])
            return Double(during / max(before, after))
        }.max() ?? 0
    }

    @Test func switchingTheCorrectionOnDoesNotClick() {
        let design = MasterFilterDesign(
            correction: CorrectionCurve(centresHz: Self.profileCentres, gainsDb: Self.smoothGains(Self.profileCentres)),
            notch: NotchSettings(centreHz: 6000))
        let out = TestRender.render(
            layers: [LayerSettings(volume: 0.5, colour: 1)], master: 0.7, seconds: 6, channels: 2, seed: 9,
            changes: [(3, { $0.setMasterFilter(design.sections(sampleRate: 48000)) })])
        let ratio = Self.switchStepRatio(out)
        print("switching correction and notch on: largest step \(ratio)× the steady sound's")
        #expect(ratio <= 1.5)
    }

    /// A switch between two corrections whose sections differ in number and kind (a cross-fade),
    /// with the notch moving too.
    @Test func switchingBetweenDesignsDoesNotClick() {
        let first = MasterFilterDesign(correction: .equalLoudness(phon: 40), notch: NotchSettings(centreHz: 6000))
        let second = MasterFilterDesign(
            correction: CorrectionCurve(centresHz: Self.profileCentres, gainsDb: Self.smoothGains(Self.profileCentres)),
            notch: NotchSettings(centreHz: 3000, widthOctaves: 0.5))
        let out = TestRender.render(
            layers: [LayerSettings(volume: 0.5, colour: 1)], master: 0.7, seconds: 6, channels: 2, seed: 9,
            changes: [
                (0, { $0.setMasterFilter(first.sections(sampleRate: 48000), rampSeconds: 0) }),
                (3, { $0.setMasterFilter(second.sections(sampleRate: 48000)) }),
            ])
        let ratio = Self.switchStepRatio(out)
        print("switching between two designs: largest step \(ratio)× the steady sound's")
        #expect(ratio <= 1.5)
    }

    /// A player refits its correction whenever the notch changes; a fit already made is answered
    /// from the recent ones (a rough 24-band profile takes most of a second to fit).
    @Test func aRepeatedFitIsAnsweredFromTheRecentOnes() {
        let centres = (4..<28).map { 25 * pow(2, Double($0) / 3) }
        let gains = centres.indices.map { Double(($0 * 7919) % 19) - 9 }
        let first = CorrectionDesign.fit(centresHz: centres, gainsDb: gains, sampleRate: 48000)
        let question = CorrectionDesign.FitQuestion(centresHz: centres, gainsDb: gains, sampleRate: 48000)
        #expect(CorrectionDesign.recentFits.withLock { $0.contains { $0.question == question } })
        #expect(CorrectionDesign.fit(centresHz: centres, gainsDb: gains, sampleRate: 48000) == first)
        #expect(CorrectionDesign.freshFit(centresHz: centres, gainsDb: gains, sampleRate: 48000) == first)
    }

    /// The adaptive correction: smooth profiles in few sections, every profile point within the
    /// tolerance and the guards beyond its ends within theirs.
    @Test func correctionFitsInFewSections() {
        var counts: [String] = []
        for phon in [20.0, 40.0, 60.0] {
            let curve = CorrectionCurve.equalLoudness(phon: phon)
            let fit = CorrectionDesign.fit(centresHz: curve.centresHz, gainsDb: curve.gainsDb, sampleRate: 48000)
            counts.append("\(Int(phon)) phon: \(fit.sections.count) (\(fit.errorDb) dB, guards \(fit.guardErrorDb) dB)")
            #expect(fit.errorDb <= CorrectionDesign.toleranceDb)
            #expect(fit.guardErrorDb <= CorrectionDesign.guardToleranceDb)
            if phon == 40 { #expect(fit.sections.count <= 4) }
            if phon == 60 { #expect(fit.sections.count <= 4) }
        }
        let smooth = CorrectionDesign.fit(
            centresHz: Self.profileCentres, gainsDb: Self.smoothGains(Self.profileCentres), sampleRate: 48000)
        counts.append("smooth profile: \(smooth.sections.count) (\(smooth.errorDb) dB)")
        #expect(smooth.errorDb <= CorrectionDesign.toleranceDb)
        print("correction sections: " + counts.joined(separator: "; "))
    }

    @Test func sameSeedSameSamplesWithFilter() {
        let design = MasterFilterDesign(
            correction: .equalLoudness(phon: 40), notch: NotchSettings(centreHz: 5000, widthOctaves: 0.5))
        func once(_ block: Int) -> [Float] {
            let m = NoiseMachine(
                spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 4096, channelCount: 2), seed: 3,
                layers: [LayerSettings(volume: 0.6, colour: 1.3)], masterVolume: 0.7, masterFilter: design)
            var out: [Float] = []
            var buffer = [Float](repeating: 0, count: 4096 * 2)
            var left = 48000
            while left > 0 {
                let n = min(block, left)
                buffer.withUnsafeMutableBufferPointer { m.render(into: $0.baseAddress!, frameCount: n) }
                out += buffer[0..<(2 * n)]
                left -= n
            }
            return out
        }
        #expect(once(1000) == once(4096))
        #expect(once(777) == once(1000))
    }
}
