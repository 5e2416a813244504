import CCairo
import Foundation
import NoiseDSP
import NoiseEngine
import SpectrumPlot
import TestSupport
import Testing

/// The predicted spectrum against measured renders, and the chart as a picture.
@Suite struct SpectrumTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let presetIDs =
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Presets").path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

    static func preset(_ id: String) throws -> Mix {
        try Mix.load(path: root.appendingPathComponent("Presets/\(id).json").path)
    }

    static let model = LoudnessModel(sampleRate: 48000)

    /// Every third-octave band from 50 Hz to 16 kHz: the predicted total (the model's density
    /// averaged over the same FFT bins as the measurement) within 1 dB of a render of at least 60 s,
    /// longer as the mix's `settlingSeconds` asks: the top bands of a moving high cut are heard mostly
    /// at the crest of each swell, and waves lift every band for seconds, so a minute holds too few.
    @Test(arguments: presetIDs)
    func predictedSpectrumMatchesARenderInEveryThirdOctave(id: String) throws {
        let mix = try Self.preset(id)
        let seconds = mix.settlingSeconds > 40 ? max(300, mix.settlingSeconds) : 60
        let bands = Spectrum.bandCentres(from: 50, to: 16000, perOctave: 3)
        let segment = 16384
        // A minute at a time (storm's 100 minutes would hold 2 GB), each minute's Welch density
        // weighted by its length: a segment lost at each seam, one in 350.
        var density = [Double](repeating: 0, count: segment / 2 + 1)
        var binHz = 0.0
        TestRender.renderInChunks(
            layers: mix.layerSettings, master: Float(mix.masterVolume), seconds: seconds, seed: 21
        ) { out in
            let welch = out.map { Spectrum.welch($0, sampleRate: 48000, segment: segment) }
            let weight = Double(out[0].count) / (seconds * 48000)
            for k in density.indices { density[k] += weight * (welch[0].density[k] + welch[1].density[k]) / 2 }
            binHz = welch[0].binHz
        }
        let measured = Spectrum.bandLevelsDb(binHz: binHz, density: density, centresHz: bands, fraction: 3)
        let predictedDensity = (0...(segment / 2)).map { k -> Double in
            let f = max(Double(k) * binHz, 1)
            return mix.layerSettings.reduce(0) {
                $0 + Self.model.layerDensity($1, masterVolume: Float(mix.masterVolume), atHz: f)
            }
        }
        let predicted = Spectrum.bandLevelsDb(binHz: binHz, density: predictedDensity, centresHz: bands, fraction: 3)
        let errors = zip(predicted, measured).map { $0 - $1 }
        let worst = errors.map(abs).max() ?? 0
        print(
            """
            spectrum \(id): worst third-octave error \(String(format: "%.2f", worst)) dB at \
            \(Int(bands[errors.map(abs).firstIndex(of: worst)!])) Hz
            """
        )
        for (i, e) in errors.enumerated() {
            #expect(abs(e) <= 1, "\(id) band \(bands[i]) Hz: predicted \(predicted[i]) measured \(measured[i])")
        }
    }

    /// The curves the chart draws agree with the density: pink is flat per third octave, white rises
    /// 3 dB per octave, and a measured overlay lands on the prediction.
    @Test func curvesHaveTheRightSlopesAndTheMeasurementLandsOnThem() {
        let pink = SpectrumCurves(
            title: "p", layers: [LayerSettings(volume: 1, colour: 1)], labels: ["pink"], masterVolume: 1,
            model: Self.model)
        let white = SpectrumCurves(
            title: "w", layers: [LayerSettings(volume: 1, colour: 0)], labels: ["white"], masterVolume: 1,
            model: Self.model)
        let at = { (c: SpectrumCurves, hz: Double) -> Double in c.totalDb[c.frequenciesHz.firstIndex { $0 >= hz }!] }
        #expect(abs(at(pink, 100) - at(pink, 6400)) < 0.5)
        #expect(abs((at(white, 6400) - at(white, 100)) - 6 * 3.01) < 0.5)
        var measured = pink
        measured.addMeasurement(
            TestRender.render(layers: [LayerSettings(volume: 1, colour: 1)], seconds: 20, seed: 2), sampleRate: 48000)
        for hz in [100.0, 1000, 10000] {
            #expect(abs(at(pink, hz) - measured.measuredDb![pink.frequenciesHz.firstIndex { $0 >= hz }!]) < 1)
        }
    }

    // MARK: - The chart as a picture

    static func pixels(_ path: String) -> (width: Int, height: Int, argb: [UInt32])? {
        guard let s = cairo_image_surface_create_from_png(path), cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            return nil
        }
        defer { cairo_surface_destroy(s) }
        let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s))
        guard let data = cairo_image_surface_get_data(s) else { return nil }
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { out[y * w + x] = row[x] }
        }
        return (w, h, out)
    }

    static func goldenChart() throws -> SpectrumCurves {
        let mix = try preset("sleep")
        return SpectrumCurves(
            title: "Sleep — golden", layers: mix.layerSettings, labels: ["Layer 1", "Layer 2"],
            masterVolume: Float(mix.masterVolume), model: model)
    }

    /// Golden image with a tolerance (`make golden-spectrum` rewrites it; look at it before committing).
    @Test func chartMatchesTheGoldenImage() throws {
        let dir = try Products.temporaryDirectory("spectrum")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sleep.png").path
        try SpectrumChart.write(try Self.goldenChart(), to: path, format: .png)
        let golden = Self.root.appendingPathComponent("Tests/SpectrumPlotTests/Golden/sleep.png").path
        if ProcessInfo.processInfo.environment["WW_UPDATE_GOLDEN"] == "1" {
            _ = try? FileManager.default.removeItem(atPath: golden)
            try FileManager.default.copyItem(atPath: path, toPath: golden)
        }
        let a = try #require(Self.pixels(path)), b = try #require(Self.pixels(golden))
        #expect(a.width == 1200 && a.height == 675 && a.width == b.width && a.height == b.height)
        var differing = 0
        for i in a.argb.indices {
            let x = a.argb[i], y = b.argb[i]
            var d = 0
            for shift: UInt32 in [0, 8, 16] {
                let u = Int((x >> shift) & 0xFF), v = Int((y >> shift) & 0xFF)
                d = max(d, abs(u - v))
            }
            if d > 48 { differing += 1 }
        }
        print("spectrum chart: \(differing) of \(a.argb.count) pixels differ from the golden image")
        #expect(Double(differing) / Double(a.argb.count) < 0.005)
        // Not blank: the total curve (near white) and at least two layer colours are there.
        var bright = 0
        for p in a.argb {
            let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
            if r > 200 && g > 200 && b > 200 { bright += 1 }
        }
        #expect(bright > 2000)
    }

    @Test func svgIsWrittenAndPNGOfAMissingFolderFails() throws {
        let dir = try Products.temporaryDirectory("spectrum")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("c.svg").path
        try SpectrumChart.write(try Self.goldenChart(), to: path, format: .svg)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("<?xml") && text.contains("<svg") && text.contains("<path"))
        #expect(throws: SpectrumChart.DrawError.self) {
            try SpectrumChart.write(try Self.goldenChart(), to: "/nonexistent/x.png", format: .png)
        }
    }
}
