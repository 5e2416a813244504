import Foundation
import NoiseEngine
import TestSupport
import Testing

/// `noise analyze` and `noise match` as a user runs them, on recordings sox makes at test time.
@Suite struct TextureCLITests {
    func folder() throws -> URL { try Products.temporaryDirectory("texture") }

    /// `sox -n FILE synth SECONDS EFFECTS…`: pink noise with a 4.5 Hz tremolo by default (the MP band
    /// the profile reports as 4 Hz is centred at 4.54 Hz).
    func recording(_ name: String, seconds: Double, in dir: URL, _ effects: [String] = ["tremolo", "4.5", "60"]) throws
        -> String
    {
        let path = dir.appendingPathComponent(name).path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        p.arguments =
            ["-n", "-r", "44100", "-c", "1", path, "synth", "\(seconds)", "pinknoise"] + effects
            + ["gain", "-6"]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "sox could not write \(name)")
        return path
    }

    @Test func analyzePrintsTheStatisticsInWordsAndAsJSON() throws {
        let dir = try folder()
        let a = try recording("a.ogg", seconds: 8, in: dir)
        var r = try Products.run("noise", ["analyze", a])
        #expect(r.status == 0, "\(r.stderrText)")
        for words in [
            "spectral tilt", "band variation", "sparsity (kurtosis)", "broadband-ness", "modulation spectrum",
            "slow swells", "7.0 s measured from 0.5 s",
        ] {
            #expect(r.stdoutText.contains(words), "\(words) missing: \(r.stdoutText)")
        }
        r = try Products.run("noise", ["analyze", a, "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let o = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let stats = try #require(o["stats"] as? [String: [Double]])
        #expect(stats["M1"]?.count == 30 && stats["MP"]?.count == 600 && stats["C2"]?.count == 360)
        let profile = try #require(o["profile"] as? [String: Any])
        #expect(
            Set(profile.keys) == [
                "spectralTiltDb", "bandVariation", "kurtosis", "skewness", "bandCorrelation", "modulationDb",
                "onsetAsymmetry",
            ])
        // The tremolo is the modulation spectrum's peak, above the modulation at 32 Hz (which the Ogg
        // Vorbis coder's own noise lifts: 4.1 dB below the peak here, 6+ for the same sound as WAV).
        let mod = try #require(profile["modulationDb"] as? [[String: Double]])
        let at = { (hz: Double) in mod.first { $0["hz"] == hz }?["db"] ?? .nan }
        #expect(mod.allSatisfy { ($0["db"] ?? 0) <= at(4) }, "\(mod)")
        #expect(at(4) > at(32) + 3, "\(mod)")
        #expect(o["sampleRate"] as? Int == 44100 && o["against"] == nil)
    }

    @Test func analyzeAgainstGivesDistancesPerClassAndForSpectrumMatchedNoise() throws {
        let dir = try folder()
        let a = try recording("a.flac", seconds: 8, in: dir)
        let b = try recording("b.wav", seconds: 8, in: dir, ["tremolo", "4.5", "60"])
        let c = try recording("c.wav", seconds: 8, in: dir, [])
        var r = try Products.run("noise", ["analyze", a, "--against", b, "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let o = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let against = try #require(o["against"] as? [String: Any])
        let d = try #require(against["distance"] as? [String: Double])
        #expect(Set(d.keys) == ["M1", "M2", "M3", "M4", "C", "MP", "C1", "C2", "tex", "all"])
        #expect(against["matchedNoise"] is [String: Double] && against["ratioTexture"] is Double)
        // Same kind (both tremolo): closer than the steady one.
        r = try Products.run("noise", ["analyze", c, "--against", b, "--json"])
        let o2 = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let d2 = try #require((o2["against"] as? [String: Any])?["distance"] as? [String: Double])
        #expect(d["all"]! < d2["all"]!, "tremolo-tremolo \(d["all"]!) vs steady-tremolo \(d2["all"]!)")
        r = try Products.run("noise", ["analyze", a, "--against", b])
        #expect(r.stdoutText.contains("Texture ratio (this / noise)"), "\(r.stdoutText)")
    }

    @Test func badRecordingsAreRefusedNamingTheFile() throws {
        let dir = try folder()
        let text = dir.appendingPathComponent("notes.mp3")
        try Data("not audio at all\n".utf8).write(to: text)
        var r = try Products.run("noise", ["analyze", text.path])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("\(text.path): "), "\(r.stderrText)")
        r = try Products.run("noise", ["analyze", dir.appendingPathComponent("missing.wav").path])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("missing.wav: no such file"), "\(r.stderrText)")
        r = try Products.run("noise", ["analyze", text.path, "--duration", "500"])
        #expect(r.status == 64)
        #expect(r.stderrText.contains("'--duration' 500.0 is out of range; allowed 1…120 s"), "\(r.stderrText)")
    }

    @Test func matchRefusesShortRecordingsAndUnreadableOutputs() throws {
        let dir = try folder()
        let short = try recording("short.wav", seconds: 6, in: dir)
        let out = dir.appendingPathComponent("m.json").path
        var r = try Products.run("noise", ["match", short, "-o", out])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("short.wav: is 6.0 s long; noise match needs at least 10 s"), "\(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // An existing file that is not a mix is never overwritten.
        let long = try recording("long.ogg", seconds: 12, in: dir)
        let notes = dir.appendingPathComponent("notes.json")
        try Data("my notes, not a mix".utf8).write(to: notes)
        r = try Products.run("noise", ["match", long, "-o", notes.path, "--renders", "10", "--search-seconds", "2"])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("exists and is not a mix this version reads"), "\(r.stderrText)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes, not a mix")
        r = try Products.run("noise", ["match", long, "-o", dir.appendingPathComponent("no/such/m.json").path])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("does not exist; make it first"), "\(r.stderrText)")
        r = try Products.run("noise", ["match", long, "-o", out, "--duration", "5"])
        #expect(r.status == 64)
        #expect(r.stderrText.contains("'--duration' 5.0 is out of range; allowed 10…60 s"), "\(r.stderrText)")
    }

    @Test func matchWritesAMixThatLoadsAndRenders() throws {
        let dir = try folder()
        let long = try recording("fan.ogg", seconds: 10.6, in: dir)
        let out = dir.appendingPathComponent("fan.json").path
        var r = try Products.run(
            "noise", ["match", long, "-o", out, "--renders", "10", "--search-seconds", "2", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let o = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        for key in ["before", "spectrumFitted", "after", "matchedNoise"] {
            #expect(o[key] is [String: Double], "\(key)")
        }
        #expect(o["ratioTexture"] is Double && o["renders"] is Int)
        let mix = try Mix.load(path: out)
        #expect(mix.name == "fan")
        // A matched mix may be replaced by another match (it is a readable mix); the same seed and
        // render budget find the same mix, byte for byte.
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        r = try Products.run("noise", ["match", long, "-o", out, "--renders", "10", "--search-seconds", "2"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == first)
        #expect(r.stdoutText.contains("Texture ratio"), "\(r.stdoutText)")
        let wav = dir.appendingPathComponent("fan.wav").path
        r = try Products.run("noise", ["render", "--mix", out, "--duration", "2s", "-o", wav])
        #expect(r.status == 0, "\(r.stderrText)")
    }
}
