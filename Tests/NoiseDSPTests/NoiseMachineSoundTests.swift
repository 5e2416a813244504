import Foundation
import NoiseDSP
import TestSupport
import Testing

/// Measurements on rendered audio, from outside: what a listener with an analyser would check.
@Suite struct NoiseMachineSoundTests {
    static let bands = Spectrum.bandCentres(from: 40, to: 16000, perOctave: 3)

    static func bandLevels(_ x: [Float]) -> [Double] {
        let w = Spectrum.welch(x, sampleRate: 48000, segment: 16384)
        return Spectrum.bandLevelsDb(binHz: w.binHz, density: w.density, centresHz: bands, fraction: 3)
    }

    /// Colours on a grid and at seeded random points: not only 0, 1 and 2.
    static var colours: [Float] {
        var g = SplitMix64(seed: 2026)
        return [0, 0.25, 0.5, 1, 1.3, 1.75, 2] + (0..<3).map { _ in Float(g.next() % 2001) / 1000 }
    }

    @Test(arguments: colours)
    func spectrumIsAStraightLineAndLoudnessIsConstant(colour: Float) {
        let out = TestRender.render(
            layers: [LayerSettings(volume: 1, colour: colour)], seconds: 20, seed: UInt64(colour * 1000) + 7)
        let fit = Spectrum.lineFit(frequenciesHz: Self.bands, levelsDb: Self.bandLevels(out[0]))
        let lufs = Loudness.integratedLufs(out)
        print(
            """
            colour \(colour): slope \(fit.slopeDbPerOctave) dB/oct (want \(-3.0103 * Double(colour))), deviation \
            \(fit.maxDeviationDb) dB, \(lufs) LUFS
            """
        )
        #expect(abs(fit.slopeDbPerOctave + 3.0103 * Double(colour)) <= 0.2)
        #expect(fit.maxDeviationDb <= 0.75)
        #expect(abs(lufs + 20) <= 1)
    }

    /// Filters are measured as the ratio of two renders with the same seed: the noise is identical,
    /// so the ratio is the filter's response.
    static func responseDb(_ layer: LayerSettings, at hz: [Double]) -> [Double] {
        var flat = layer
        flat.lowCutHz = nil
        flat.highCutHz = nil
        flat.eqLowDb = 0
        flat.eqMidDb = 0
        flat.eqHighDb = 0
        let a = TestRender.render(layers: [layer], seconds: 6, channels: 1, seed: 11)[0]
        let b = TestRender.render(layers: [flat], seconds: 6, channels: 1, seed: 11)[0]
        let wa = Spectrum.welch(a, sampleRate: 48000, segment: 65536),
            wb = Spectrum.welch(b, sampleRate: 48000, segment: 65536)
        let la = Spectrum.bandLevelsDb(binHz: wa.binHz, density: wa.density, centresHz: hz, fraction: 24)
        let lb = Spectrum.bandLevelsDb(binHz: wb.binHz, density: wb.density, centresHz: hz, fraction: 24)
        return zip(la, lb).map { $0 - $1 }
    }

    @Test(arguments: [(Float(30), Float(1.0)), (200, 1.0), (1000, 0.5), (2000, 2.0)])
    func lowCutIsMinus3DbAtCornerAndAtLeast12DbPerOctave(cornerHz: Float, colour: Float) {
        let f = Double(cornerHz)
        let r = Self.responseDb(
            LayerSettings(volume: 0.7, colour: colour, lowCutHz: cornerHz), at: [f, f / 2, f / 4, f * 4])
        print("low cut \(cornerHz): \(r)")
        #expect(abs(r[0] + 3) <= 1)
        #expect(r[1] <= -11)  // one octave below: ≥ 12 dB/octave (Butterworth: −12.3)
        #expect(r[1] - r[2] >= 11)  // and it keeps falling at that rate
        #expect(abs(r[3]) <= 0.5)  // two octaves above: untouched
    }

    @Test(arguments: [Float(500), 2000, 6000, 12000])
    func highCutIsMinus3DbAtCornerAndAtLeast12DbPerOctave(cornerHz: Float) {
        let f = Double(cornerHz)
        let r = Self.responseDb(LayerSettings(volume: 0.7, colour: 0.5, highCutHz: cornerHz), at: [f, f * 2, f / 4])
        print("high cut \(cornerHz): \(r)")
        #expect(abs(r[0] + 3) <= 1)
        #expect(r[1] <= -11)
        #expect(abs(r[2]) <= 0.5)
    }

    @Test(arguments: [Float(12), -12, 6])
    func eqBandsReachTheirGainAndLeaveFarBandsAlone(gainDb: Float) {
        // Centres: low shelf well inside (40 Hz), mid peak at 1.2 kHz, high shelf well inside (16 kHz).
        let points = [40.0, 1200, 16000]
        let low = Self.responseDb(LayerSettings(volume: 0.5, colour: 1, eqLowDb: gainDb), at: points)
        let mid = Self.responseDb(LayerSettings(volume: 0.5, colour: 1, eqMidDb: gainDb), at: points)
        let high = Self.responseDb(LayerSettings(volume: 0.5, colour: 1, eqHighDb: gainDb), at: points)
        print("eq \(gainDb): low \(low) mid \(mid) high \(high)")
        let g = Double(gainDb)
        #expect(abs(low[0] - g) <= 1 && abs(low[1]) <= 1 && abs(low[2]) <= 1)
        #expect(abs(mid[1] - g) <= 1 && abs(mid[0]) <= 1 && abs(mid[2]) <= 1)
        #expect(abs(high[2] - g) <= 1 && abs(high[0]) <= 1 && abs(high[1]) <= 1)
    }

    @Test func stereoChannelsAreIndependentAndMonoIsOneChannel() {
        for colour: Float in [0, 1, 2] {
            let out = TestRender.render(layers: [LayerSettings(colour: colour)], seconds: 5, seed: 3)
            let r = Spectrum.correlation(out[0], out[1])
            print("colour \(colour) L/R correlation \(r)")
            #expect(abs(r) < 0.1)
        }
        let mono = TestRender.render(layers: [LayerSettings(colour: 1)], seconds: 1, channels: 1)
        #expect(mono.count == 1 && mono[0].count == 48000)
        #expect(TestRender.rms(mono[0][...]) > 0.01)
    }

    @Test func loudestLegalMixNeverClips() {
        let loud = (0..<4).map {
            LayerSettings(volume: 1, colour: [0, 0.7, 1.4, 2][$0], eqLowDb: 12, eqMidDb: 12, eqHighDb: 12)
        }
        let out = TestRender.render(layers: loud, master: 1, seconds: 20, seed: 5)
        var peak: Float = 0
        var bad = 0
        for ch in out {
            for x in ch {
                if !x.isFinite { bad += 1 }
                peak = max(peak, abs(x))
            }
        }
        let peakDb = 20 * log10(Double(peak))
        print("loudest mix peak \(peakDb) dBFS")
        #expect(bad == 0)
        #expect(peakDb <= -0.3)
        #expect(peakDb > -3)  // the limiter limits; it does not just turn everything down
    }

    @Test func noDcEvenForBrown() {
        let out = TestRender.render(layers: [LayerSettings(volume: 1, colour: 2)], seconds: 30, seed: 9)
        for ch in out {
            let mean = ch.reduce(0.0) { $0 + Double($1) } / Double(ch.count)
            let rms = TestRender.rms(ch[...])
            #expect(abs(mean) < 0.01 * rms, "mean \(mean) against rms \(rms)")
        }
    }

    @Test func silentLayersRenderExactSilence() {
        let out = TestRender.render(layers: [LayerSettings(volume: 0, colour: 2), .off, .off, .off], seconds: 2)
        #expect(out.allSatisfy { $0.allSatisfy { $0 == 0 } })
    }

    @Test func sameSeedIsIdenticalAndOtherSeedsDiffer() {
        let layers = [LayerSettings(colour: 1.2, lowCutHz: 100, eqMidDb: 3), LayerSettings(volume: 0.5, colour: 0.3)]
        let a = TestRender.render(layers: layers, seconds: 2, seed: 42)
        let b = TestRender.render(layers: layers, seconds: 2, seed: 42)
        let c = TestRender.render(layers: layers, seconds: 2, seed: 43)
        #expect(a == b)
        #expect(a != c)
    }

    /// A volume change is a ramp (~20 ms), not a step: the 1 ms RMS envelope moves through
    /// intermediate levels instead of jumping in one window.
    @Test func parameterChangesAreRamped() {
        let layer = LayerSettings(volume: 1, colour: 0)
        var quiet = layer
        quiet.volume = 0.3
        let out = TestRender.render(
            layers: [layer], seconds: 1, channels: 1, seed: 1,
            changes: [(0.5, { $0.setLayer(0, quiet) })])[0]
        let window = 48
        let envelope = stride(from: 0, to: out.count - window, by: window).map {
            TestRender.db(TestRender.rms(out[$0..<($0 + window)]))
        }
        let before = envelope[400..<500].reduce(0, +) / 100, after = envelope[560..<660].reduce(0, +) / 100
        let intermediate = envelope[500..<530].filter { $0 < before - 3 && $0 > after + 3 }.count
        print("ramp: before \(before) dB, after \(after) dB, \(intermediate) intermediate windows")
        #expect(before - after > 25)  // 0.3 on a cubic curve is −31 dB
        #expect(intermediate >= 8)  // ≥ 8 ms spent between the two levels
        // Colour and filter sweeps while playing stay finite and click-free (no sample jumps
        // far beyond the signal's own range).
        var sweep = layer
        sweep.colour = 2
        sweep.lowCutHz = 400
        sweep.highCutHz = 3000
        sweep.eqLowDb = -12
        let swept = TestRender.render(
            layers: [layer], seconds: 1, channels: 1, seed: 1,
            changes: [(0.5, { $0.setLayer(0, sweep) })])[0]
        #expect(swept.allSatisfy { $0.isFinite && abs($0) < 1 })
    }

    /// An hour in one go: the last minute matches the first within 0.5 dB in level and per band.
    @Test func steadyOverAnHour() {
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 4096, channelCount: 1), seed: 77,
            layers: [LayerSettings(volume: 1, colour: 1.8, lowCutHz: 30, highCutHz: 8000)])
        machine.preroll()
        let minute = 48000 * 60
        var buffer = [Float](repeating: 0, count: 4096)
        func take(_ frames: Int, keep: Bool) -> [Float] {
            var out: [Float] = []
            var left = frames
            while left > 0 {
                let n = min(4096, left)
                buffer.withUnsafeMutableBufferPointer { machine.render(into: $0.baseAddress!, frameCount: n) }
                if keep { out += buffer[0..<n] }
                left -= n
            }
            return out
        }
        let first = take(minute, keep: true)
        _ = take(58 * minute, keep: false)
        let last = take(minute, keep: true)
        let levelChange = TestRender.db(TestRender.rms(last[...])) - TestRender.db(TestRender.rms(first[...]))
        let bands = Spectrum.bandCentres(from: 50, to: 8000, perOctave: 1)
        let wf = Spectrum.welch(first, sampleRate: 48000, segment: 8192),
            wl = Spectrum.welch(last, sampleRate: 48000, segment: 8192)
        let bf = Spectrum.bandLevelsDb(binHz: wf.binHz, density: wf.density, centresHz: bands, fraction: 1)
        let bl = Spectrum.bandLevelsDb(binHz: wl.binHz, density: wl.density, centresHz: bands, fraction: 1)
        let worstBand = zip(bf, bl).map { abs($0 - $1) }.max()!
        print("hour: level change \(levelChange) dB, worst band change \(worstBand) dB")
        #expect(abs(levelChange) <= 0.5)
        #expect(worstBand <= 0.5)
        #expect(last.allSatisfy { $0.isFinite })
    }
}
