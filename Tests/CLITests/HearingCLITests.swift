import Foundation
import TestSupport
import Testing

/// `noise hearing contour`, `--hearing FILE` and `--notch` on `noise render`, run as a user does;
/// what they render is measured from the files.
@Suite struct HearingCLITests {
    func temp() throws -> URL { try Products.temporaryDirectory("hearing") }

    @Test(arguments: [20.0, 40.0, 60.0, 80.0])
    func contourJSONMatchesISO226(phon: Double) throws {
        let r = try Products.run("noise", ["hearing", "contour", "--phon", "\(Int(phon))", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let o = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let levels = try #require(o["splDb"] as? [Double])
        let frequencies = try #require(o["frequenciesHz"] as? [Double])
        let table = try #require(ISO226Reference.contoursDb[phon])
        #expect(frequencies.count == 29 && frequencies.first == 20 && frequencies.last == 12500)
        let worst = zip(levels, table).map { abs($0 - $1) }.max() ?? .infinity
        print("noise hearing contour --phon \(Int(phon)): largest difference \(worst) dB at 29 frequencies")
        #expect(levels.count == 29)
        #expect(worst <= 0.1)
    }

    /// Level differences (dB) between two renders of the same seed, in 1/24-octave bands: the noise
    /// is the same, so the difference is what the master filter did.
    static func differenceDb(_ a: String, _ b: String, at hz: [Double]) throws -> [Double] {
        let x = try WAVFile(path: a).channels[0], y = try WAVFile(path: b).channels[0]
        let wa = Spectrum.welch(Array(x.dropFirst(48000)), sampleRate: 48000, segment: 65536)
        let wb = Spectrum.welch(Array(y.dropFirst(48000)), sampleRate: 48000, segment: 65536)
        let la = Spectrum.bandLevelsDb(binHz: wa.binHz, density: wa.density, centresHz: hz, fraction: 24)
        let lb = Spectrum.bandLevelsDb(binHz: wb.binHz, density: wb.density, centresHz: hz, fraction: 24)
        return zip(la, lb).map { $0 - $1 }
    }

    func render(_ dir: URL, _ name: String, _ args: [String], preset: String = "pink") throws -> (String, String) {
        let out = dir.appendingPathComponent(name).path
        let r = try Products.run(
            "noise",
            ["render", "--preset", preset, "--duration", "8s", "--seed", "4", "--loudness", "-30", "-o", out]
                + args)
        #expect(r.status == 0, "\(r.stderrText)")
        return (out, r.stderrText)
    }

    @Test func aProfileFileIsAppliedAtEachCentre() throws {
        let dir = try temp()
        let centres = Spectrum.bandCentres(from: 63, to: 12500, perOctave: 3)
        let gains = centres.map { f -> Double in
            let o = log2(f / 63)
            return ((6 * sin(2 * .pi * o / 4.5 + 1.1) - 0.5 * (o - 3.8)) * 10).rounded() / 10
        }
        let profile = dir.appendingPathComponent("ears.json")
        let json: [String: Any] = ["centresHz": centres, "gainsDb": gains]
        try JSONSerialization.data(withJSONObject: json).write(to: profile)
        let (plain, _) = try render(dir, "plain.wav", [])
        let (corrected, log) = try render(dir, "corrected.wav", ["--hearing", profile.path])
        #expect(log.contains("Hearing correction from \(profile.path) (\(centres.count) bands)"), "\(log)")
        let d = try Self.differenceDb(corrected, plain, at: centres)
        let offsets = zip(d, gains).map { $0 - $1 }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        let worst = offsets.map { abs($0 - mean) }.max()!
        print(
            "render --hearing FILE: profile applied within \(worst) dB at \(centres.count) centres (overall \(mean) dB)"
        )
        #expect(worst <= 0.5)
    }

    @Test(arguments: [4000.0, 6000.0, 8000.0])
    func notchIsDeepWithEdgesAtHalfAnOctave(centreHz: Double) throws {
        let dir = try temp()
        let (plain, _) = try render(dir, "plain.wav", [])
        let (notched, log) = try render(dir, "notched.wav", ["--notch", "\(Int(centreHz))"])
        #expect(log.contains("Notch at \(Int(centreHz)) Hz, 1 octave wide, 40 dB deep: loudness -"), "\(log)")
        let central = (0...12).map { centreHz * pow(2, -0.25 + Double($0) / 24) }
        let depth = -(try Self.differenceDb(notched, plain, at: central).max()!)
        let grid = (0...96).map { -1.0 + Double($0) / 48 }
        let r = try Self.differenceDb(notched, plain, at: grid.map { centreHz * pow(2, $0) })
        let lower = grid[r.firstIndex { $0 < -3 }!], upper = grid[r.lastIndex { $0 < -3 }!]
        print(
            "render --notch \(Int(centreHz)): depth \(depth) dB over the central half-octave, "
                + "−3 dB at \(lower), \(upper) oct"
        )
        #expect(depth >= 30)
        #expect(abs(lower + 0.5) <= 1.0 / 6 && abs(upper - 0.5) <= 1.0 / 6)
    }

    @Test func presetsWithTexturesAreNotchedToo() throws {
        let dir = try temp()
        let (plain, _) = try render(dir, "rain.wav", [], preset: "rain")
        let (notched, _) = try render(dir, "rain-notched.wav", ["--notch", "3000:0.5"], preset: "rain")
        let central = (0...6).map { 3000 * pow(2, -0.125 + Double($0) / 24) }
        let depth = -(try Self.differenceDb(notched, plain, at: central).max()!)
        print("rain (drops) --notch 3000:0.5: depth \(depth) dB over the central quarter-octave")
        #expect(depth >= 30)
    }

    @Test func aBadProfileIsRefusedNamingFileFieldAndRangeAndKept() throws {
        let dir = try temp()
        let bad = dir.appendingPathComponent("bad.json")
        let text = #"{"centresHz":[100,200,400],"gainsDb":[1,90,2]}"#
        try Data(text.utf8).write(to: bad)
        let out = dir.appendingPathComponent("x.wav").path
        var r = try Products.run(
            "noise", ["render", "--preset", "pink", "--duration", "1s", "--hearing", bad.path, "-o", out])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("bad.json: gainsDb[1]: 90 is outside -40…40"), "\(r.stderrText)")
        #expect(String(decoding: try Data(contentsOf: bad), as: UTF8.self) == text)
        #expect(!FileManager.default.fileExists(atPath: out))

        try Data(#"{"centresHz":[100,200],"gainsDb":[1]}"#.utf8).write(to: bad)
        r = try Products.run("noise", ["hearing", "show", bad.path])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("bad.json: gainsDb: has 1 values; it needs one per centre (2"), "\(r.stderrText)")

        r = try Products.run("noise", ["render", "--preset", "pink", "--duration", "1s", "--notch", "50", "-o", out])
        #expect(r.status == 64)
        #expect(r.stderrText.contains("'--notch' 50: the centre must be 200…16000 Hz"), "\(r.stderrText)")
    }

    @Test func aMixFileCarriesItsNotch() throws {
        let dir = try temp()
        let mix = dir.appendingPathComponent("m.json")
        try Data(#"{"layers":[{"volume":0.8}],"notch":{"centreHz":5000,"widthOctaves":3}}"#.utf8).write(to: mix)
        let out = dir.appendingPathComponent("o.wav").path
        var r = try Products.run("noise", ["render", "--mix", mix.path, "--duration", "1s", "-o", out])
        #expect(r.status == 1)
        #expect(
            r.stderrText.contains("m.json: notch.widthOctaves: 3 octaves is out of range; allowed 0.25…2 octaves"),
            "\(r.stderrText)")
        try Data(#"{"layers":[{"volume":0.8}],"notch":{"centreHz":5000}}"#.utf8).write(to: mix)
        r = try Products.run("noise", ["spectrum", "--mix", mix.path, "-o", "-"])
        #expect(r.status == 0, "\(r.stderrText)")
        let o = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let f = try #require(o["frequenciesHz"] as? [Double]), db = try #require(o["masterFilterDb"] as? [Double])
        let at5k = f.indices.min { abs(f[$0] - 5000) < abs(f[$1] - 5000) }!
        #expect(db[at5k] <= -39)
        #expect((o["notch"] as? [String: Any])?["centreHz"] as? Double == 5000)
    }
}
