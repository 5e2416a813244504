import ArgumentParser
import CLISupport
import Foundation
import NoiseEngine
import SoundFiles
import TextureMatch
import TextureStatistics

extension Noise {
    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "match",
            abstract: "Fit a mix to a recording (your fan, your rain): a procedural sound that never loops.",
            usage: "noise match <recording> --output <mix.json> [<options>]",
            discussion: HelpText.prose(
                """
                Measures 10–60 s of the recording's texture statistics (see noise analyze), then
                searches a mix's layers, colour, cuts, EQ, textures and their parameters until its
                renders measure close to them: the spectrum first, then a texture layer, then all
                together, in a fixed number of renders (the same mix for the same recording and seed
                on any machine; 35–45 s of one core by default). Prints the distance before and after, and that of
                noise with the recording's spectrum. The mix plays and renders like any other:
                  noise match fan.flac -o fan.json
                  noise play --mix fan.json
                An existing output file is replaced only when it is a mix this version reads.
                """))

        @Argument(help: "The recording: WAV, FLAC, Ogg Vorbis/Opus or MP3, at least 10 s.") var recording: String

        @Option(name: [.short, .customLong("output")], help: "The mix file to write (JSON), or - for standard output.")
        var output: String

        @Option(name: .long, numeric: "Seconds skipped at the start (default 2).")
        var start: Double = AnalysisExcerpt.defaultStartSeconds

        @Option(name: .long, numeric: "Seconds of the recording to fit, 10…60 (default 60).")
        var duration: Double = 60

        @Option(
            name: .long,
            numeric: """
                Renders the search makes, 10…2000 (default 240; a render of a burst layer, thunder, counts \
                its length): more is slower and closer.
                """)
        var renders: Int = MixSearch.defaultRenderBudget

        @Option(name: .long, numeric: "Length of each search render, 2…60 s (default 8): shorter is faster, coarser.")
        var searchSeconds: Double = MixSearch.defaultRenderSeconds

        @Option(name: .long, numeric: "A stop in CPU seconds, 5…600 (default 300): no render starts after it.")
        var budget: Double = MixSearch.defaultTimeBudgetSeconds

        @Option(name: .long, numeric: "Seed of the search's renders (default 1).")
        var seed: UInt64 = 1

        @Option(name: .long, help: "A name for the mix (default: the recording's file name).")
        var name: String?

        @Flag(name: .long, help: "Print the distances as JSON on standard output (needs -o FILE).")
        var json = false

        @Flag(name: .long, help: "List every step the search took.") var verbose = false

        static let minimumSeconds = 10.0
        static let durationRange = 10.0...60.0
        static let budgetRange = 5.0...600.0
        static let renderRange = 10...2000

        func validate() throws {
            guard duration.isFinite, Self.durationRange.contains(duration) else {
                throw ValidationError("'--duration' \(duration) is out of range; allowed 10…60 s")
            }
            guard searchSeconds.isFinite, MixSearch.renderSecondsRange.contains(searchSeconds) else {
                throw ValidationError("'--search-seconds' \(searchSeconds) is out of range; allowed 2…60 s")
            }
            guard Self.renderRange.contains(renders) else {
                throw ValidationError("'--renders' \(renders) is out of range; allowed 10…2000")
            }
            guard budget.isFinite, Self.budgetRange.contains(budget) else {
                throw ValidationError("'--budget' \(budget) is out of range; allowed 5…600 s")
            }
            guard start.isFinite, start >= 0, start <= SoundFile.maximumSeconds else {
                throw ValidationError("'--start' \(start) is out of range; allowed 0…600 s")
            }
            if json && output == "-" {
                throw ValidationError("'--json' needs '-o FILE': standard output carries the mix")
            }
            if let name, name.count > 200 || name.isEmpty {
                throw ValidationError("'--name' must be 1…200 characters")
            }
        }

        func run() throws {
            let target = try checkedOutput()
            let rec: Recording
            do { rec = try Recording(path: recording, start: start, duration: duration) } catch {
                throw CLIError("\(error)")
            }
            var signal = rec.signal
            let seconds = Double(signal.count) / Double(CochlearFilterbank.sampleRate)
            if seconds < Self.minimumSeconds {
                // The texstat excerpt trims the ends; a recording just over 10 s is used whole.
                guard rec.file.durationSeconds >= Self.minimumSeconds else {
                    throw CLIError(
                        """
                        \(recording): is \(String(format: "%.1f", rec.file.durationSeconds)) s long; noise match \
                        needs at least 10 s of the sound (its slow swells and rare events need time to show)
                        """)
                }
                signal = PolyphaseResampler(inputRate: rec.file.sampleRate, outputRate: CochlearFilterbank.sampleRate)
                    .process(rec.file.samples)
            }
            let label = name ?? URL(fileURLWithPath: recording).deletingPathExtension().lastPathComponent
            let search = MixSearch(
                seed: seed, renderSeconds: searchSeconds, renderBudget: renders, timeBudgetSeconds: budget)
            let report = search.match(target: signal, name: String(label.prefix(200))) { line in
                Terminal.printError(line)
            }
            try write(report.mix, to: target)
            if json {
                let data = try JSONSerialization.data(
                    withJSONObject: jsonObject(report), options: [.prettyPrinted, .sortedKeys])
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                let out = text(report, seconds: Double(signal.count) / Double(CochlearFilterbank.sampleRate))
                if target == nil { Terminal.printError(out) } else { print(out) }
            }
        }

        /// nil for standard output; refuses a folder and an existing file that is not a readable mix.
        func checkedOutput() throws -> String? {
            guard output != "-" else { return nil }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) {
                if isFolder.boolValue {
                    throw CLIError("'-o' \(output) is a folder; give a file name, e.g. -o \(output)/mix.json")
                }
                do { _ = try Mix.load(path: output) } catch {
                    throw CLIError(
                        """
                        '-o' \(output) exists and is not a mix this version reads (\(error)); it is left as it is: \
                        move it away or choose another name
                        """)
                }
            } else {
                let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                    throw CLIError("'-o' \(output): the folder \(folder) does not exist; make it first")
                }
            }
            return output
        }

        func write(_ mix: Mix, to path: String?) throws {
            let data = mix.encodedJSON() + Data("\n".utf8)
            guard let path else {
                FileHandle.standardOutput.write(data)
                return
            }
            do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw CLIError("cannot write \(path): \(error.localizedDescription)")
            }
        }

        func text(_ r: MatchReport, seconds: Double) -> String {
            func row(_ label: String, _ d: TextureDistance) -> String {
                label.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + (StatisticClass.allCases.map { d[$0] } + [d.texture, d.total])
                    .map { String(format: "%6.2f", $0) }.joined()
            }
            var lines = [
                "Matched \(recording) (\(String(format: "%.0f", seconds)) s) in "
                    + "\(String(format: "%.1f", r.searchSeconds)) s (\(String(format: "%.1f", r.cpuSeconds)) s CPU), "
                    + "\(r.evaluationCount) renders.",
                "".padding(toLength: 22, withPad: " ", startingAt: 0)
                    + (StatisticClass.allCases.map(\.rawValue) + ["tex", "all"]).map {
                        String(repeating: " ", count: 6 - $0.count) + $0
                    }.joined(),
                row("before (pink noise)", r.before),
                row("spectrum fitted", r.spectrumOnly),
                row("after", r.after),
                row("noise, its spectrum", r.matchedNoise),
                String(
                    format:
                        "Texture ratio (after / noise with its spectrum): tex %.2f, all %.2f; "
                        + "below 1 is texture beyond the spectrum.",
                    r.textureRatio, r.totalRatio),
                "Layers: "
                    + r.mix.layers.map { l in
                        (l.texture?.rawValue ?? "noise") + String(format: " %.0f%%", l.volume * 100)
                    }.joined(separator: ", "),
            ]
            if verbose { lines += r.steps.map { "  " + $0 } }
            if output != "-" { lines.append("Wrote \(output); play it with: noise play --mix \(output)") }
            return lines.joined(separator: "\n")
        }

        func jsonObject(_ r: MatchReport) -> [String: Any] {
            [
                "recording": recording,
                "output": output,
                "before": AnalyzeReport.distanceObject(r.before),
                "spectrumFitted": AnalyzeReport.distanceObject(r.spectrumOnly),
                "after": AnalyzeReport.distanceObject(r.after),
                "matchedNoise": AnalyzeReport.distanceObject(r.matchedNoise),
                "ratioTexture": AnalyzeReport.rounded(r.textureRatio),
                "ratioAll": AnalyzeReport.rounded(r.totalRatio),
                "renders": r.evaluationCount,
                "searchSeconds": AnalyzeReport.rounded(r.searchSeconds, 2),
                "cpuSeconds": AnalyzeReport.rounded(r.cpuSeconds, 2),
            ]
        }
    }
}
