import ArgumentParser
import CLISupport
import Foundation
import SoundFiles
import TextureStatistics

extension Noise {
    struct Analyze: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "analyze",
            abstract: "Measure a recording's texture statistics: how real a sound is, and how close to another.",
            usage: "noise analyze <file> [--against <file>] [--json] [<options>]",
            discussion: HelpText.prose(
                """
                Reads WAV, FLAC, Ogg Vorbis, Ogg Opus and MP3 (up to 10 minutes). The statistics are
                those of McDermott & Simoncelli (2011): 30 ERB subbands from 20 Hz to 8 kHz, their
                envelopes' spread, sparsity, correlation across bands and modulation spectrum. With
                --against, the distance per class in units of the spread between real recordings, and
                the same for noise with the other recording's spectrum: a texture ratio (ours over
                noise's) below 1 means texture beyond the spectrum. Examples:
                  noise analyze rain.ogg
                  noise render --preset rain --duration 62s --channels 1 -o ours.wav
                  noise analyze ours.wav --against rain.ogg
                """))

        @Argument(help: "The recording to measure.") var file: String

        @Option(name: .long, help: "A second recording to measure the distance to.")
        var against: String?

        @Flag(name: .long, help: "Print JSON instead of text.") var json = false

        @Option(name: .long, numeric: "Seconds skipped at the start (default 2).")
        var start: Double = AnalysisExcerpt.defaultStartSeconds

        @Option(
            name: .long, numeric: "Seconds measured, 1…120 (default 60; shorter recordings: all but 0.5 s each end).")
        var duration: Double = AnalysisExcerpt.defaultDurationSeconds

        @Option(name: .long, numeric: "Seed of the spectrum-matched noise (default 1).")
        var seed: UInt64 = 1

        static let durationRange = 1.0...120.0

        func validate() throws {
            guard start.isFinite, start >= 0, start <= SoundFile.maximumSeconds else {
                throw ValidationError("'--start' \(start) is out of range; allowed 0…600 s")
            }
            guard duration.isFinite, Self.durationRange.contains(duration) else {
                throw ValidationError("'--duration' \(duration) is out of range; allowed 1…120 s")
            }
        }

        func run() throws {
            let a = try load(file)
            let analysis = TextureAnalysis(signal: a.signal)
            var comparison: Comparison?
            if let against {
                let b = try load(against)
                let bStats = TextureStats(signal: b.signal)
                let noise = TextureStats(signal: SpectrumMatchedNoise.make(like: b.signal, seed: seed))
                comparison = Comparison(
                    file: against, recording: b, distance: TextureDistance(analysis.stats, bStats),
                    matchedNoise: TextureDistance(noise, bStats))
            }
            if json {
                let object = AnalyzeReport.json(file: file, recording: a, analysis: analysis, comparison: comparison)
                let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                print(AnalyzeReport.text(file: file, recording: a, analysis: analysis, comparison: comparison))
            }
        }

        func load(_ path: String) throws -> Recording {
            do { return try Recording(path: path, start: start, duration: duration) } catch {
                throw CLIError("\(error)")
            }
        }
    }
}

/// A distance from the analysed file to another recording, beside noise with that recording's spectrum.
struct Comparison {
    var file: String
    var recording: Recording
    var distance: TextureDistance
    var matchedNoise: TextureDistance

    var seconds: Double { Double(recording.signal.count) / Double(CochlearFilterbank.sampleRate) }
    var textureRatio: Double { distance.texture / max(matchedNoise.texture, 1e-12) }
    var totalRatio: Double { distance.total / max(matchedNoise.total, 1e-12) }
}

/// `noise analyze`'s two forms of output.
enum AnalyzeReport {
    static func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
    static func signed(_ v: Double) -> String { String(format: "%+.1f", v) }

    static func text(file: String, recording r: Recording, analysis a: TextureAnalysis, comparison: Comparison?)
        -> String
    {
        let p = a.profile
        var lines: [String] = []
        lines.append(
            "\(file): \(f(a.durationSeconds, 1)) s measured from \(f(r.excerpt.startSeconds, 1)) s "
                + "(\(f(r.file.durationSeconds, 1)) s, \(r.summary))")
        lines.append(
            "  spectral tilt        lows (< 250 Hz) \(signed(p.lowToMidDb)) dB, highs (> 4 kHz) "
                + "\(signed(p.highToMidDb)) dB against 1 kHz")
        func groups(_ d: [TextureSummary.BandGroup: Double]) -> String {
            TextureSummary.BandGroup.allCases.map { "\($0.rawValue) \(f(d[$0] ?? 0))" }.joined(separator: "  ")
        }
        lines.append("  band variation       \(groups(p.variation))   (envelope std / mean)")
        lines.append(
            "  sparsity (kurtosis) \u{20}\(groups(p.kurtosis))   (steady noise ≈ 2–3, drops and clicks higher)")
        lines.append("  skewness             \(groups(p.skewness))")
        lines.append(
            "  broadband-ness       neighbour bands \(f(p.neighbourCorrelation)), bands 8 apart "
                + "\(f(p.distantCorrelation))   (envelope correlation)")
        lines.append(
            "  modulation spectrum  "
                + p.modulationDb.map { "\(hz($0.hz)) \(f($0.db, 1))" }
                .joined(separator: "  ") + "  dB")
        if let peak = a.swells.peak, let lag = a.swells.lagSeconds {
            lines.append(
                "  slow swells          autocorrelation peak \(f(peak)) at \(f(lag, 1)) s "
                    + "(regular, loop-like above ~0.2)")
        } else {
            lines.append("  slow swells          excerpt too short to measure (needs ≥ 5 s)")
        }
        lines.append("  onset/decay          \(f(p.onsetAsymmetry, 3))   (C2 imaginary part)")
        if let c = comparison {
            lines.append("")
            lines.append(
                "Distance to \(c.file) (\(f(c.seconds, 1)) s), "
                    + "in spreads between real recordings:")
            lines.append("  class  \(pad("this", 6)) \(pad("noise*", 6))  what")
            for k in StatisticClass.allCases {
                lines.append(
                    "  \(k.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  "
                        + "\(pad(f(c.distance[k]), 6)) \(pad(f(c.matchedNoise[k]), 6))  \(k.meaning)")
            }
            lines.append("  tex    \(pad(f(c.distance.texture), 6)) \(pad(f(c.matchedNoise.texture), 6))  all but M1")
            lines.append("  all    \(pad(f(c.distance.total), 6)) \(pad(f(c.matchedNoise.total), 6))  all eight")
            lines.append(
                "  * noise with \(c.file)'s spectrum. Texture ratio (this / noise): tex "
                    + "\(f(c.textureRatio)), all \(f(c.totalRatio)); below 1 is texture beyond the spectrum.")
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
    static func hz(_ v: Double) -> String { v < 1 ? "\(f(v, 1)) Hz" : "\(Int(v)) Hz" }

    static func rounded(_ v: Double, _ digits: Double = 4) -> Double {
        let s = pow(10, digits)
        return (v * s).rounded() / s
    }

    static func distanceObject(_ d: TextureDistance) -> [String: Any] {
        var o: [String: Any] = [:]
        for k in StatisticClass.allCases { o[k.rawValue] = rounded(d[k]) }
        o["tex"] = rounded(d.texture)
        o["all"] = rounded(d.total)
        return o
    }

    static func json(file: String, recording r: Recording, analysis a: TextureAnalysis, comparison: Comparison?)
        -> [String: Any]
    {
        let p = a.profile
        func groups(_ d: [TextureSummary.BandGroup: Double]) -> [String: Any] {
            Dictionary(
                uniqueKeysWithValues: TextureSummary.BandGroup.allCases.map { ($0.rawValue, rounded(d[$0] ?? 0)) })
        }
        var stats: [String: Any] = [:]
        for k in StatisticClass.allCases { stats[k.rawValue] = a.stats[k].map { rounded($0) } }
        var o: [String: Any] = [
            "file": file,
            "format": r.file.formatName,
            "sampleRate": r.file.sampleRate,
            "channels": r.file.channelCount,
            "fileSeconds": rounded(r.file.durationSeconds, 3),
            "excerpt": ["startSeconds": rounded(r.excerpt.startSeconds, 3), "seconds": rounded(a.durationSeconds, 3)],
            "profile": [
                "spectralTiltDb": [
                    "lowsAgainst1kHz": rounded(p.lowToMidDb, 2), "highsAgainst1kHz": rounded(p.highToMidDb, 2),
                ],
                "bandVariation": groups(p.variation),
                "kurtosis": groups(p.kurtosis),
                "skewness": groups(p.skewness),
                "bandCorrelation": [
                    "neighbours": rounded(p.neighbourCorrelation), "eightApart": rounded(p.distantCorrelation),
                ],
                "modulationDb": p.modulationDb.map { ["hz": $0.hz, "db": rounded($0.db, 2)] },
                "onsetAsymmetry": rounded(p.onsetAsymmetry),
            ] as [String: Any],
            "swells": a.swells.peak.map { ["peak": rounded($0), "lagSeconds": rounded(a.swells.lagSeconds ?? 0, 3)] }
                ?? NSNull(),
            "stats": stats,
            "bandCentresHz": CochlearFilterbank.centresHz.map { rounded($0, 1) },
        ]
        if let c = comparison {
            o["against"] =
                [
                    "file": c.file,
                    "distance": distanceObject(c.distance),
                    "matchedNoise": distanceObject(c.matchedNoise),
                    "ratioTexture": rounded(c.textureRatio),
                    "ratioAll": rounded(c.totalRatio),
                ] as [String: Any]
        }
        return o
    }
}
