import Foundation
import NoiseEngine
import Testing
import TextureStatistics

@testable import TextureMatch

/// Issue 37's realism targets, checked in CI without ../shared: each texture preset, rendered
/// (mono, seed 7), measured with the texture statistics and compared with the statistics of the
/// nine development recordings, committed as numbers in Fixtures/recordings.json (see the README
/// there for how they were derived).
///
/// - Nearest recording (mean distance over all eight classes, the nine as the pool) is of the
///   preset's kind: rain kinds and storm → rain or storm, ocean → waves, wind → wind,
///   campfire → fireplace.
/// - Texture ratio (texstat's `ratioTex`: d(ours, recording) over the mean of all classes but M1,
///   divided by that of noise with the recording's spectrum, committed per recording) ≤ 0.8 against
///   the kind's recording, for the presets whose 62 s measurement meets it (docs/sound.md, "How real
///   each preset measures"). The others are left out below with their figures, not given a looser bound.
/// - The fan: its blade-pass line (highest modulation band, mean over the 30 cochlear bands, over the
///   median of the 20 bands) ≥ 12 dB.
@Suite struct PresetRealismTests {
    struct Recording {
        var name: String
        var kind: String
        var stats: TextureStats
        /// d(noise with this recording's spectrum, this recording), `tex`: the ratio's denominator.
        var matchedNoiseTexture: Double
    }

    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let presetsFolder = here.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Presets")

    static let recordings: [Recording] = {
        let url = here.appendingPathComponent("Fixtures/recordings.json")
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["recordings"] as? [[String: Any]]
        else { return [] }
        return list.compactMap { r in
            guard let name = r["name"] as? String, let kind = r["kind"] as? String,
                let raw = r["stats"] as? [String: [Double]],
                let noise = (r["matchedNoiseDistance"] as? [String: Double])?["tex"]
            else { return nil }
            var values: [StatisticClass: [Double]] = [:]
            for c in StatisticClass.allCases { values[c] = raw[c.rawValue] ?? [] }
            return Recording(name: name, kind: kind, stats: TextureStats(values: values), matchedNoiseTexture: noise)
        }
    }()

    /// Seconds rendered; the first `skipSeconds` are not measured (texstat's rule: fades and starts
    /// sit at the ends). Ocean and wind are rendered 62 s, as docs/sound.md measures them: their
    /// surges and gusts come seconds apart, and 24 s of them do not settle (seed 7, 26 s: ocean
    /// nearest rain 0.70 before waves 0.75, wind's ratio 0.84; over 60 s waves 0.63 before rain 0.75,
    /// wind 0.73).
    /// Storm too: its thunder comes every 15 s on average.
    static func renderSeconds(_ preset: String) -> Double { ["ocean", "wind", "storm"].contains(preset) ? 62 : 26 }
    static let skipSeconds = 2.0
    static let seed: UInt64 = 7

    /// The recordings each texture preset must come out nearest to.
    static let kinds: [String: Set<String>] = [
        "rain": ["rain", "storm"], "heavy-rain": ["rain", "storm"], "rain-window": ["rain", "storm"],
        "rain-tent": ["rain", "storm"], "storm": ["rain", "storm"], "ocean": ["waves"], "wind": ["wind"],
        "campfire": ["fireplace"],
    ]

    /// The recording the texture ratio is taken against (texstat, `--duration 62s --seed 7
    /// --channels 1`, ratioTex): rain 0.74, heavy-rain 0.67, rain-window 0.74, rain-tent 0.72,
    /// storm 0.77 against the storm recording (with its thunder; 0.82 without), ocean 0.45,
    /// wind 0.73, campfire 0.42. This suite's own figures (Swift statistics, 26 s but ocean, wind and
    /// storm 62 s): heavy-rain 0.728, rain-tent 0.774, storm 0.775.
    static let ratioAgainst: [String: String] = [
        "rain": "rain", "heavy-rain": "rain", "rain-window": "rain", "rain-tent": "rain", "storm": "storm",
        "ocean": "waves", "wind": "wind", "campfire": "fireplace",
    ]

    static func measure(_ preset: String) throws -> TextureStats {
        let mix = try Mix.load(path: presetsFolder.appendingPathComponent("\(preset).json").path)
        let seconds = renderSeconds(preset)
        let signal = MixSearch.render(mix, seconds: seconds, seed: seed)
        let excerpt = AnalysisExcerpt(totalSeconds: seconds, start: skipSeconds, duration: seconds - skipSeconds)
        return TextureStats(signal: excerpt.samples(of: signal))
    }

    @Test func theNineRecordingsAreCommitted() {
        #expect(Self.recordings.count == 9, "\(Self.recordings.map(\.name))")
        for r in Self.recordings {
            #expect(r.stats[.m1].count == 30 && r.stats[.mp].count == 600 && r.stats[.c2].count == 360, "\(r.name)")
        }
    }

    @Test(arguments: ["rain", "heavy-rain", "rain-window", "rain-tent", "storm", "ocean", "wind", "campfire"])
    func presetIsHeardAsItsKind(preset: String) throws {
        try #require(Self.recordings.count == 9)
        let ours = try Self.measure(preset)
        let ranked = Self.recordings.map { ($0, TextureDistance(ours, $0.stats)) }.sorted { $0.1.total < $1.1.total }
        let listing = ranked.prefix(3).map { "\($0.0.name) \(String(format: "%.2f", $0.1.total))" }
        print("preset \(preset): nearest \(listing.joined(separator: ", "))")
        #expect(Self.kinds[preset]!.contains(ranked[0].0.name), "\(preset): nearest \(listing)")

        if let against = Self.ratioAgainst[preset] {
            let rec = try #require(Self.recordings.first { $0.name == against })
            let ratio = TextureDistance(ours, rec.stats).texture / rec.matchedNoiseTexture
            print("preset \(preset): texture ratio against \(against) \(String(format: "%.3f", ratio))")
            #expect(ratio <= 0.8, "\(preset) against \(against): ratioTex \(ratio)")
        }
    }

    /// Real ceiling fans show a line at 6–7 Hz 17–20 dB above the rest of the modulation spectrum;
    /// the issue asks ≥ 12 dB (62 s, seed 7: 13.4 dB at 6.2 Hz).
    @Test func fanHasABladePassLine() throws {
        let st = try Self.measure("fan")
        let bands = CochlearFilterbank.centresHz.count, mods = TextureStats.modulationCentresHz.count
        let mp = st[.mp]
        try #require(mp.count == bands * mods)
        let db = (0..<mods).map { j in
            10 * log10((0..<bands).map { pow(10, mp[$0 * mods + j]) }.reduce(0, +) / Double(bands))
        }
        let sorted = db.sorted()
        let median = (sorted[mods / 2 - 1] + sorted[mods / 2]) / 2
        let top = db.indices.max { db[$0] < db[$1] }!
        let line = db[top] - median
        let hz = TextureStats.modulationCentresHz[top]
        print("preset fan: blade-pass line \(String(format: "%.1f", line)) dB at \(String(format: "%.1f", hz)) Hz")
        #expect(line >= 12, "fan: line \(line) dB at \(TextureStats.modulationCentresHz[top]) Hz")
    }
}
