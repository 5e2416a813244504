import Foundation
import NoiseDSP
import TestSupport
import Testing

@Suite struct ColourDesignTests {
    /// The designed response (before any noise) is a straight 1/f^β line from 40 Hz to 16 kHz at
    /// every product sample rate, for a fine grid of β, not only 0, 1 and 2.
    @Test(arguments: [44100.0, 48000.0, 96000.0])
    func designedResponseIsAStraightLine(sampleRate: Double) {
        let design = ColourDesign(sampleRate: sampleRate)
        let freqs = Spectrum.bandCentres(from: 40, to: 16000, perOctave: 12)
        var worstSlopeError = 0.0, worstDeviation = 0.0
        for step in 0...40 {
            let beta = Double(step) / 20
            let levels = freqs.map { 10 * log10(design.powerResponse(atHz: $0, beta: beta)) }
            let fit = Spectrum.lineFit(frequenciesHz: freqs, levelsDb: levels)
            worstSlopeError = max(worstSlopeError, abs(fit.slopeDbPerOctave + 3.0103 * beta))
            worstDeviation = max(worstDeviation, fit.maxDeviationDb)
        }
        print("fs \(sampleRate): worst slope error \(worstSlopeError) dB/oct, worst deviation \(worstDeviation) dB")
        #expect(worstSlopeError < 0.01)
        #expect(worstDeviation < 0.05)
    }

    /// β = 0 is exactly white: every section's zero sits on its pole.
    @Test func whiteIsFlat() {
        let design = ColourDesign(sampleRate: 48000)
        for hz in [50.0, 500, 5000, 20000] {
            #expect(abs(10 * log10(design.powerResponse(atHz: hz, beta: 0))) < 0.02)
        }
    }
}
