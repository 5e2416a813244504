import ArgumentParser
import CLISupport
import Foundation
import NoiseDSP
import NoiseEngine
import SpectrumPlot
import SystemCalls

extension Noise {
    struct SpectrumCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "spectrum",
            abstract: "Draw a mix's spectrum: each layer and the total, predicted from its filters (PNG, SVG or JSON).",
            usage:
                """
                noise spectrum [--preset <preset> | --mix <mix>] [--measured <DURATION>]
                  [--output <output>] [--format <format>] [<options>]
                """,
            discussion: """
                Levels are dBFS per third-octave band of one channel (pink noise is flat), 20 Hz–20 kHz.
                Examples:
                  noise spectrum --preset ocean -o ocean.png
                  noise spectrum --mix my-mix.json -o mix.svg --measured 30s
                  noise spectrum --preset rain --format json
                """)

        @OptionGroup var source: MixSourceOptions
        @OptionGroup var storeOption: StoreOption
        @OptionGroup var hearingOptions: HearingOptions

        @Option(
            name: [.short, .customLong("output")], help: "Output file (.png or .svg), or - for JSON on standard output."
        )
        var output: String?

        @Option(help: "png, svg or json (default: from the output file's extension; json without -o).")
        var format: String?

        @Option(
            numeric: ArgumentHelp(
                "Also render this long (1s…5m) and draw the measured total over the prediction.", valueName: "DURATION")
        )
        var measured: String?

        @Option(numeric: "Seed of the measured render (default 1).") var seed: UInt64 = 1

        enum Kind: String { case png, svg, json }

        func kind() throws -> Kind {
            if let format {
                guard let k = Kind(rawValue: format.lowercased()) else {
                    throw ValidationError("'--format' \(format) is not supported; use png, svg or json")
                }
                if k != .json && (output == nil || output == "-") {
                    throw ValidationError("'--format \(k.rawValue)' needs '-o FILE'")
                }
                return k
            }
            guard let output, output != "-" else { return .json }
            switch URL(fileURLWithPath: output).pathExtension.lowercased() {
            case "png": return .png
            case "svg": return .svg
            case "json": return .json
            default:
                throw ValidationError(
                    """
                    '-o' \(output): cannot tell the format from the extension; name it .png, .svg or .json, or \
                    give '--format'
                    """
                )
            }
        }

        func measuredSeconds() throws -> Double? {
            guard let measured else { return nil }
            let s = try DurationParser.secondsOrValidationError(measured, "--measured")
            guard s >= 1, s <= MeasuredRender.maximumSeconds else {
                throw ValidationError("'--measured' \(measured) is out of range; allowed 1s…5m")
            }
            return s
        }

        func validate() throws {
            _ = try kind()
            _ = try measuredSeconds()
        }

        func run() throws {
            let kind = try kind()
            var (mix, label) = try source.load(sampleRate: 48000, store: storeOption.root)
            if let note = try hearingOptions.applyNotch(to: &mix, sampleRate: 48000) { Terminal.printError(note) }
            let hearingChoice = try hearingOptions.choice(default: .off)
            if hearingChoice == .auto {
                throw ValidationError("'--hearing auto' needs a device; give a FILE or iso226:PHON")
            }
            let hearing = try HearingOptions.correction(hearingChoice, device: nil, store: storeOption.root)
            let filter = MasterFilterDesign(correction: hearing.curve, notch: mix.notch?.settings)
            let model = Mix.loudnessModel(sampleRate: 48000)
            let labels = mix.layers.enumerated().map { i, l in
                // A texture layer is named by its texture (its colour does not apply to it).
                let texture = l.texture.flatMap { $0 == .noise ? nil : $0.rawValue }
                let source = texture ?? "colour \(String(format: "%.1f", l.colour))"
                var text = "Layer \(i + 1) · \(source) · \(percent(l.volume))"
                if let m = l.movement, !m.isStill { text += " · moving" }
                return text
            }
            let lufs =
                mix.predictedLoudness().loudnessLufs + model.loudnessChangeDb(layers: mix.layerSettings, filter: filter)
            var curves = SpectrumCurves(
                title: "\(mix.name) — \(Mix.lufs(lufs)) at master \(percent(mix.masterVolume))",
                layers: mix.layerSettings, labels: labels, masterVolume: Float(mix.masterVolume), model: model)
            // The master's hearing correction and notch, as the player applies them.
            var filterDb: [Double]?
            if !filter.isOff {
                let r = filter.responseDb(atHz: curves.frequenciesHz.map { min($0, 0.49 * 48000) }, sampleRate: 48000)
                filterDb = r
                curves.totalDb = zip(curves.totalDb, r).map { max(SpectrumCurves.floorDb, $0 + $1) }
                for i in curves.layers.indices {
                    curves.layers[i].db = zip(curves.layers[i].db, r).map { max(SpectrumCurves.floorDb, $0 + $1) }
                }
                curves.title += mix.notch.map { String(format: " · notch %.0f Hz", $0.centreHz) } ?? ""
                curves.title += hearing.curve != nil ? " · hearing correction" : ""
            }
            if let seconds = try measuredSeconds() {
                let rendered = MeasuredRender.render(
                    layers: mix.layerSettings, masterVolume: Float(mix.masterVolume), seconds: seconds, seed: seed)
                curves.addMeasurement(rendered, sampleRate: 48000)
            }
            switch kind {
            case .json:
                let data = try json(curves, mix: mix, loudness: lufs, masterFilterDb: filterDb)
                if let output, output != "-" {
                    try data.write(to: URL(fileURLWithPath: output), options: .atomic)
                    Terminal.printError("Wrote the spectrum of '\(label)' to \(output).")
                } else {
                    FileHandle.standardOutput.write(data)
                }
            case .png, .svg:
                let path = output!
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    throw ValidationError("'-o' \(path) is a directory")
                }
                // Drawn beside the target and renamed over it, so a failure never leaves half a file.
                let url = URL(fileURLWithPath: path)
                let temporary = url.deletingLastPathComponent().appendingPathComponent(
                    ".\(url.lastPathComponent).partial-\(getpid())"
                ).path
                do {
                    try SpectrumChart.write(curves, to: temporary, format: kind == .png ? .png : .svg)
                } catch {
                    unlink(temporary)
                    throw CLIError("\(error)")
                }
                guard rename(temporary, path) == 0 else {
                    let reason = SystemCallError.reason(errno)
                    unlink(temporary)
                    throw CLIError("cannot write \(path): \(reason)")
                }
                Terminal.printError("Wrote the spectrum of '\(label)' to \(path).")
            }
        }

        func json(_ c: SpectrumCurves, mix: Mix, loudness: Double, masterFilterDb: [Double]?) throws -> Data {
            func r(_ v: [Double]) -> [Double] { v.map { ($0 * 100).rounded() / 100 } }
            var object: [String: Any] = [
                "name": mix.name,
                "unit": "dBFS per third-octave band, one channel",
                "frequenciesHz": c.frequenciesHz.map { ($0 * 100).rounded() / 100 },
                "totalDb": r(c.totalDb),
                "layers": c.layers.map { ["layer": $0.index + 1, "label": $0.label, "db": r($0.db)] as [String: Any] },
                "masterVolume": mix.masterVolume,
            ]
            if loudness.isFinite { object["loudnessLufs"] = (loudness * 10).rounded() / 10 }
            if let masterFilterDb { object["masterFilterDb"] = r(masterFilterDb) }
            if let n = mix.notch {
                object["notch"] = ["centreHz": n.centreHz, "widthOctaves": n.widthOctaves, "depthDb": n.depthDb]
            }
            if let m = c.measuredDb {
                object["measuredDb"] = r(m)
                object["measuredSeconds"] = c.measuredSeconds
            }
            var data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            data.append(0x0A)
            return data
        }
    }
}
