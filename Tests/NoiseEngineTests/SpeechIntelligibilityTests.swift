import Foundation
import NoiseEngine
import SpeechIntelligibility
import Testing

/// ANSI S3.5-1997's Speech Intelligibility Index, against values published with the standard's
/// reference programs, and the presets ranked by it.
@Suite struct SpeechIntelligibilityTests {
    /// The test case distributed with the standard's reference C program (one-third-octave
    /// procedure, average speech): SII 0.445.
    @Test func reproducesTheReferenceProgramsTestCase() {
        let speech: [Double] = [90, 5, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, -10, -10, -10, -10]
        let noise: [Double] = [10, -10, -10, 75, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10, 10, 10, 10, 10]
        let threshold: [Double] = [90] + Array(repeating: 0, count: 17)
        let sii = SpeechIntelligibilityIndex.index(speechDb: speech, noiseDb: noise, thresholdDb: threshold)
        #expect(abs(sii - 0.445) <= 0.0005, "SII \(sii)")
    }

    /// The standard's Example 2 as its reference Matlab program tabulates it: shouted speech at
    /// 1 m, no hearing protection, white noise of spectrum level 0…70 dB in 10 dB steps.
    @Test func reproducesTheShoutedSpeechInWhiteNoiseTable() {
        let shout: [Double] = [
            30.77, 36.65, 42.5, 46.51, 47.4, 49.24, 51.21, 51.44, 51.31, 49.63, 47.65, 44.32, 40.8,
            38.13, 34.41, 28.24, 23.45, 20.72,
        ]
        let published: [(noiseDb: Double, sii: Double)] = [
            (0, 0.9177), (10, 0.9126), (20, 0.8795), (30, 0.7790),
            (40, 0.5372), (50, 0.2604), (60, 0.0534), (70, 0),
        ]
        for row in published {
            let sii = SpeechIntelligibilityIndex.index(
                speechDb: shout, noiseDb: Array(repeating: row.noiseDb, count: 18))
            #expect(abs(sii - row.sii) <= 0.0001, "noise \(row.noiseDb) dB: SII \(sii), published \(row.sii)")
        }
    }

    /// Speech in quiet is almost all received; white noise at the speech's loudness hides less of
    /// it than a speech-shaped one (the reason `office` exists).
    @Test func quietAndEqualLoudnessNoisesBehave() {
        let quiet = SpeechIntelligibilityIndex.index(
            speechDb: SpeechIntelligibilityIndex.normalSpeechSpectrumDb,
            noiseDb: Array(repeating: SpeechIntelligibilityIndex.quietDb, count: 18))
        #expect(quiet > 0.99)
        let white = Mix(name: "W", masterVolume: 1, layers: [Mix.Layer(volume: 1, colour: 0)])
            .speechIntelligibilityIndex()!
        let pink = Mix(name: "P", masterVolume: 1, layers: [Mix.Layer(volume: 1, colour: 1)])
            .speechIntelligibilityIndex()!
        #expect(white > 0 && white < quiet)
        #expect(pink > 0 && pink < quiet)
        // Louder or softer master: the same index (it is measured at the speech's loudness).
        let pinkLoud = Mix(name: "P", masterVolume: 0.5, layers: [Mix.Layer(volume: 1, colour: 1)])
            .speechIntelligibilityIndex()!
        #expect(abs(pink - pinkLoud) < 1e-9)
    }

    /// Every built-in preset's index, ranked; docs/sound.md's table is this output.
    @Test func presetsRankedBySpeechMasking() throws {
        let library = PresetLibrary.standard()
        var rows: [(String, Double)] = []
        for entry in library.entries() where !entry.isUserPreset {
            let mix = try Mix.load(path: entry.url.path)
            if let sii = mix.speechIntelligibilityIndex() { rows.append((entry.id, sii)) }
        }
        rows.sort { $0.1 < $1.1 }
        for (rank, row) in rows.enumerated() { print(String(format: "SII rank %d: %@ %.3f", rank + 1, row.0, row.1)) }
        #expect(rows.count >= 5)
        #expect(rows.allSatisfy { $0.1 > 0 && $0.1 < 1 })
    }
}
