import ArgumentParser
import CLISupport
import NoiseControl
import NoiseEngine

extension Noise {
    struct SetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a layer or the master volume of the running player (or of the Last Mix).",
            usage: "noise set [--layer <layer> <change> ...] [--master <master>] [<options>]",
            discussion: HelpText.prose("""
            With a player running, the change is heard at once. With none, the Last Mix in the store
            is edited, and 'noise resume' plays it.

            Examples:
              noise set --layer 1 --volume 0.6 --colour 1.5
              noise set --layer 2 --low-cut 200 --high-cut off --off
              noise set --master 70%
            """))

        @OptionGroup var storeOption: StoreOption

        @Option(help: "The layer to change, 1…4.") var layer: Int?
        @Option(help: "Layer volume 0…1 (or 0%…100%).") var volume: String?
        @Option(help: "Noise colour 0…2: 0 white, 1 pink, 2 brown.") var colour: Double?
        @Option(name: .customLong("low-cut"), help: ArgumentHelp("High-pass corner 10…2000 Hz, or 'off'.", valueName: "HZ|off"))
        var lowCut: String?
        @Option(name: .customLong("high-cut"), help: ArgumentHelp("Low-pass corner 500…20000 Hz, or 'off'.", valueName: "HZ|off"))
        var highCut: String?
        @Option(name: .customLong("eq-low"), parsing: .unconditional, help: "Low shelf gain -12…12 dB.") var eqLow: Double?
        @Option(name: .customLong("eq-mid"), parsing: .unconditional, help: "Mid band gain -12…12 dB.") var eqMid: Double?
        @Option(name: .customLong("eq-high"), parsing: .unconditional, help: "High shelf gain -12…12 dB.") var eqHigh: Double?
        @Flag(name: .customLong("on"), help: "Switch the layer on.") var on = false
        @Flag(name: .customLong("off"), help: "Switch the layer off.") var off = false
        @Option(help: "Master volume 0…1 (or 0%…100%).") var master: String?

        struct Parsed {
            var layerIndex: Int?
            var change: LayerChange
            var masterVolume: Double?
        }

        func parsed() throws -> Parsed {
            func ranged(_ v: Double, _ range: ClosedRange<Double>, _ flag: String, unit: String = "") throws -> Double {
                guard v.isFinite, range.contains(v) else {
                    throw ValidationError("'\(flag)' \(fmt(v))\(unit) is out of range; allowed \(fmt(range.lowerBound))…\(fmt(range.upperBound))\(unit)")
                }
                return v
            }
            func level(_ text: String, _ flag: String) throws -> Double {
                let isPercent = text.hasSuffix("%")
                guard let v = Double(isPercent ? String(text.dropLast()) : text) else {
                    throw ValidationError("'\(flag)' '\(text)' is not a number; use 0…1 or 0%…100%")
                }
                return try ranged(isPercent ? v / 100 : v, Mix.volumeRange, flag)
            }
            func cut(_ text: String, _ range: ClosedRange<Double>, _ flag: String) throws -> CutChange {
                if text.lowercased() == "off" { return .off }
                guard let v = Double(text.lowercased().replacingOccurrences(of: "hz", with: "")), v.isFinite, range.contains(v) else {
                    throw ValidationError("'\(flag)' '\(text)' is not allowed; use \(fmt(range.lowerBound))…\(fmt(range.upperBound)) Hz or 'off'")
                }
                return .hz(v)
            }
            if on && off { throw ValidationError("give either '--on' or '--off', not both") }
            var change = LayerChange()
            if on { change.enabled = true }
            if off { change.enabled = false }
            change.volume = try volume.map { try level($0, "--volume") }
            change.colour = try colour.map { try ranged($0, Mix.colourRange, "--colour") }
            change.lowCutHz = try lowCut.map { try cut($0, Mix.lowCutRange, "--low-cut") }
            change.highCutHz = try highCut.map { try cut($0, Mix.highCutRange, "--high-cut") }
            change.eqLowDb = try eqLow.map { try ranged($0, Mix.eqRange, "--eq-low", unit: " dB") }
            change.eqMidDb = try eqMid.map { try ranged($0, Mix.eqRange, "--eq-mid", unit: " dB") }
            change.eqHighDb = try eqHigh.map { try ranged($0, Mix.eqRange, "--eq-high", unit: " dB") }
            let masterVolume = try master.map { try level($0, "--master") }
            if let layer {
                guard (1...Mix.layerIndexRange.upperBound + 1).contains(layer) else {
                    throw ValidationError("'--layer' \(layer) is out of range; allowed 1…\(Mix.layerIndexRange.upperBound + 1)")
                }
                if change.isEmpty {
                    throw ValidationError("'--layer' needs a change: '--volume', '--colour', '--low-cut', '--high-cut', '--eq-low', '--eq-mid', '--eq-high', '--on' or '--off'")
                }
            } else if !change.isEmpty {
                throw ValidationError("layer changes need '--layer N' (1…\(Mix.layerIndexRange.upperBound + 1))")
            } else if masterVolume == nil {
                throw ValidationError("give '--layer N' with a change, or '--master V'")
            }
            return Parsed(layerIndex: layer.map { $0 - 1 }, change: change, masterVolume: masterVolume)
        }

        func validate() throws { _ = try parsed() }

        func run() throws {
            let p = try parsed()
            var requests: [ControlRequest] = []
            if let index = p.layerIndex { requests.append(.setLayer(index: index, change: p.change)) }
            if let m = p.masterVolume { requests.append(.setMaster(volume: m)) }
            var latest: PlayerStatus?
            for (i, request) in requests.enumerated() {
                switch try PlayerControl.send(request) {
                case .delivered(let status):
                    latest = status ?? latest
                case .notRunning:
                    guard i == 0 else { throw CLIError("the player stopped while changes were being sent") }
                    try editLastMix(p)
                    return
                }
            }
            if let latest { print(summary(latest.mix, layerIndex: p.layerIndex, changedMaster: p.masterVolume != nil,
                                                   switchedExplicitly: p.change.enabled != nil)) }
        }

        private func editLastMix(_ p: Parsed) throws {
            let store = LastMixStore(root: storeOption.root)
            let (value, load) = try store.update { last in
                if let index = p.layerIndex { try last.mix.apply(p.change, toLayer: index) }
                if let m = p.masterVolume { try last.mix.setMaster(m) }
            }
            PlayerControl.printLoadMessages(load)
            if load.lastMix == nil { Terminal.printError("note: there was no Last Mix; started from the default mix") }
            Terminal.printError("No player is running; changed the Last Mix (\(store.url.path)).")
            print(summary(value.mix, layerIndex: p.layerIndex, changedMaster: p.masterVolume != nil,
                          switchedExplicitly: p.change.enabled != nil))
        }

        private func summary(_ mix: Mix, layerIndex: Int?, changedMaster: Bool, switchedExplicitly: Bool) -> String {
            var lines: [String] = []
            if let i = layerIndex, i < mix.layers.count {
                lines.append("layer \(i + 1): \(StatusFormatter.layer(mix.layers[i]))")
                if !mix.layers[i].enabled && !switchedExplicitly {
                    lines.append("(layer \(i + 1) is off and silent: add '--on' to hear it)")
                }
            }
            if changedMaster { lines.append("master: \(percent(mix.masterVolume))") }
            return lines.joined(separator: "\n")
        }
    }
}

private func fmt(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
