import ArgumentParser
import AudioOutput
import CLISupport
import FieldTable
import NoiseControl
import NoiseEngine

extension Noise {
    struct SetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a layer or the master volume of the running player (or of the Last Mix).",
            usage: "noise set [--layer <layer> <change> ...] [--master <master>] [<options>]",
            discussion: HelpText.prose(
                """
                With a player running, the change is heard at once. With none, the Last Mix in the store
                is edited, and 'noise resume' plays it.

                Examples:
                  noise set --layer 1 --volume 0.6 --colour 1.5
                  noise set --layer 2 --low-cut 200 --high-cut off --off
                  noise set --master 70%
                  noise set --master +5%          (relative: +5% / -5%, or +0.05 / -0.05)
                  noise set --mute                (silent; --unmute goes back to the level)
                  noise set --layer 1 --movement-level 4 --movement-period 10s   (slow swells)
                  noise set --layer 1 --still                                   (movement off)
                  noise set --layer 2 --texture drops --density 40   (raindrops, 40 a second)
                  noise set --layer 3 --texture crackle --density 8 --brightness 0.7
                  noise set --preset rain --fade 30s   (every parameter crossfades to the preset's)
                """))

        @OptionGroup var storeOption: StoreOption

        @Option(numeric: "The layer to change, 1…4.") var layer: Int?
        @Option(numeric: MixOptionHelp.help(.volume, " (or 0%…100%)", name: "Layer volume")) var volume: String?
        @Option(numeric: MixOptionHelp.help(.colour)) var colour: Double?
        @Option(
            name: .customLong("low-cut"),
            numeric: ArgumentHelp(MixOptionHelp.text(.lowCutHz, ", or 'off'"), valueName: "HZ|off"))
        var lowCut: String?
        @Option(
            name: .customLong("high-cut"),
            numeric: ArgumentHelp(MixOptionHelp.text(.highCutHz, ", or 'off'"), valueName: "HZ|off"))
        var highCut: String?
        @Option(name: .customLong("eq-low"), numeric: MixOptionHelp.help(.eqLowDb)) var eqLow: Double?
        @Option(name: .customLong("eq-mid"), numeric: MixOptionHelp.help(.eqMidDb)) var eqMid: Double?
        @Option(name: .customLong("eq-high"), numeric: MixOptionHelp.help(.eqHighDb)) var eqHigh: Double?
        @Option(
            name: .customLong("movement-period"),
            numeric: ArgumentHelp(MixOptionHelp.text(.movementPeriodSeconds, " (e.g. 10 or 10s)"), valueName: "S"))
        var movementPeriod: String?
        @Option(
            name: .customLong("movement-level"),
            numeric: ArgumentHelp(MixOptionHelp.text(.movementLevelDb), valueName: "DB"))
        var movementLevel: Double?
        @Option(
            name: .customLong("movement-cut"),
            numeric: ArgumentHelp(MixOptionHelp.text(.movementHighCutOctaves), valueName: "OCTAVES"))
        var movementCut: Double?
        @Option(help: ArgumentHelp("What the layer makes: noise, drops or crackle.", valueName: "noise|drops|crackle"))
        var texture: String?
        @Option(numeric: ArgumentHelp("Drops or crackles per second, 0.5…400.", valueName: "PER-SECOND")) var density:
            Double?
        @Option(numeric: "Crackle's brightness 0…1: 0 dull pops, 1 bright clicks.") var brightness: Double?
        @Flag(name: .customLong("still"), help: "Stop the layer's movement (level and cut swings to 0).") var still =
            false
        @Flag(name: .customLong("on"), help: "Switch the layer on.") var on = false
        @Flag(name: .customLong("off"), help: "Switch the layer off.") var off = false
        @Option(numeric: MixOptionHelp.help(.master, " (or 0%…100%), or a change: +5%, -5%, +0.05"))
        var master: String?
        @Flag(help: "Silence the running player; the master level is kept for '--unmute'.") var mute = false
        @Flag(help: "Back to the master level from before '--mute'.") var unmute = false
        @Option(help: "Switch to a preset (see 'noise presets'), as 'noise preset NAME' does.") var preset: String?
        @Option(numeric: "With '--preset': the crossfade, 0s…30m (default 2s).") var fade: String?
        @Option(
            help: ArgumentHelp(
                "Notch the whole mix at HZ (200…16000), OCTAVES wide (0.25…2, default 1), or 'off'.",
                valueName: "HZ[:OCTAVES]|off"))
        var notch: String?
        @Option(
            help: ArgumentHelp(
                "The running player's hearing correction: auto (its device's profile), a profile FILE, "
                    + "iso226:PHON or off.",
                valueName: "auto|FILE|iso226:PHON|off"))
        var hearing: String?

        enum MasterChange: Equatable {
            case absolute(Double)
            case relative(Double)
        }

        struct Parsed {
            var layerIndex: Int?
            var change: LayerChange
            var master: MasterChange?
            var muted: Bool?

            var masterVolume: Double? { if case .absolute(let v) = master { v } else { nil } }
        }

        func parsed() throws -> Parsed {
            // Each option is checked against its row of the mix table (range and unit).
            func ranged(_ v: Double, _ param: MixParameter, _ flag: String) throws -> Double {
                do { return try param.field.check(v, as: flag) } catch { throw ValidationError(error.description) }
            }
            // What the table's check would say, for the options it cannot check (percentages, cuts
            // with 'off', the layer number): one wording for every refused value.
            func refusal(_ flag: String, _ text: String, _ reason: FieldError.Reason, _ allowed: String)
                -> ValidationError
            {
                ValidationError(FieldError(keyPath: flag, value: text, reason: reason, allowed: allowed).description)
            }
            // Errors quote what was typed ("120%"), not the fraction it became.
            func level(_ text: String, _ flag: String) throws -> Double {
                let isPercent = text.hasSuffix("%")
                guard let v = Double(isPercent ? String(text.dropLast()) : text), v.isFinite else {
                    throw refusal(flag, text, .notANumber, "0…1 or 0%…100%")
                }
                let fraction = isPercent ? v / 100 : v
                guard MixFields.volume.numberRange.contains(fraction) else {
                    // "70" was surely meant as 70%; "1.2" was not 1.2% (a fraction a little too big).
                    let hint = !isPercent && v >= 2 && v <= 100 ? " (did you mean \(FieldFormat.number(v))%?)" : ""
                    throw refusal(flag, text, .outOfRange, "0…1 or 0%…100%\(hint)")
                }
                return fraction
            }
            func masterChange(_ text: String) throws -> MasterChange {
                guard let sign = text.first, sign == "+" || sign == "-" else {
                    return .absolute(try level(text, "--master"))
                }
                let body = String(text.dropFirst())
                let isPercent = body.hasSuffix("%")
                guard let v = Double(isPercent ? String(body.dropLast()) : body), v.isFinite, !body.hasPrefix("+"),
                    !body.hasPrefix("-")
                else {
                    throw ValidationError("'--master' '\(text)' is not a change; use e.g. +5%, -10% or +0.05")
                }
                let delta = isPercent ? v / 100 : v
                guard delta <= 1 else {
                    throw ValidationError("'--master' \(text) is too large a change; allowed up to 100% (1) either way")
                }
                return .relative(sign == "-" ? -delta : delta)
            }
            func cut(_ text: String, _ param: MixParameter, _ flag: String) throws -> CutChange {
                let range = param.field.numberRange
                if text.lowercased() == "off" { return .off }
                guard let v = Double(text.lowercased().replacingOccurrences(of: "hz", with: "")), v.isFinite else {
                    throw refusal(flag, text, .notAllowed, "\(param.field.allowedText) or off")
                }
                guard range.contains(v) else {
                    throw refusal(flag, text, .outOfRange, "\(param.field.allowedText) or off")
                }
                return .hz(v)
            }
            if on && off { throw ValidationError("give either '--on' or '--off', not both") }
            var change = LayerChange()
            if on { change.enabled = true }
            if off { change.enabled = false }
            // Each number is checked against its parameter's row and set by it.
            func number(_ param: MixParameter, _ value: Double?, _ flag: String) throws {
                if let value { change[param] = try ranged(value, param, flag) }
            }
            change[.volume] = try volume.map { try level($0, "--volume") }
            try number(.colour, colour, "--colour")
            change.lowCutHz = try lowCut.map { try cut($0, .lowCutHz, "--low-cut") }
            change.highCutHz = try highCut.map { try cut($0, .highCutHz, "--high-cut") }
            try number(.eqLowDb, eqLow, "--eq-low")
            try number(.eqMidDb, eqMid, "--eq-mid")
            try number(.eqHighDb, eqHigh, "--eq-high")
            if still && (movementLevel != nil || movementCut != nil) {
                throw ValidationError("give either '--still' or '--movement-level'/'--movement-cut', not both")
            }
            let period = try movementPeriod.map { try DurationParser.secondsOrValidationError($0, "--movement-period") }
            try number(.movementPeriodSeconds, period, "--movement-period")
            try number(.movementLevelDb, still ? 0 : movementLevel, "--movement-level")
            try number(.movementHighCutOctaves, still ? 0 : movementCut, "--movement-cut")
            change.texture = try texture.map { name in
                guard let t = Mix.Texture(rawValue: name.lowercased()) else {
                    throw refusal(
                        "--texture", name, .notAllowed, Mix.Texture.allCases.map(\.rawValue).joined(separator: "|"))
                }
                return t
            }
            try number(.densityPerSecond, density, "--density")
            try number(.brightness, brightness, "--brightness")
            let parsedMaster = try self.master.map(masterChange)
            if mute && unmute { throw ValidationError("give either '--mute' or '--unmute', not both") }
            if let layer {
                guard (1...Mix.layerIndexRange.upperBound + 1).contains(layer) else {
                    throw refusal("--layer", "\(layer)", .outOfRange, "1…\(Mix.layerIndexRange.upperBound + 1)")
                }
            } else if !change.isEmpty {
                throw ValidationError("layer changes need '--layer N' (1…\(Mix.layerIndexRange.upperBound + 1))")
            }
            return Parsed(
                layerIndex: layer.map { $0 - 1 }, change: change, master: parsedMaster,
                muted: mute ? true : (unmute ? false : nil))
        }

        /// "Nothing to do" checks. Not in `validate()`: ArgumentParser runs that before it reports
        /// an unknown option, and `--layer 1 --color 1` must get "Unknown option '--color'" (with
        /// its suggestion), not "'--layer' needs a change".
        func checkSomethingToDo(_ p: Parsed) throws {
            if p.layerIndex != nil, p.change.isEmpty {
                throw ValidationError(
                    """
                    '--layer' needs a change: '--volume', '--colour', '--low-cut', '--high-cut', '--eq-low', \
                    '--eq-mid', '--eq-high', '--movement-level', '--movement-cut', '--movement-period', '--still', \
                    '--texture', '--density', '--brightness', '--on' or '--off'
                    """
                )
            }
            if p.layerIndex == nil, p.master == nil, p.muted == nil {
                throw ValidationError(
                    "give '--layer N' with a change, '--master V' (or +5%/-5%), '--mute' or '--unmute'")
            }
        }

        func validate() throws {
            let p = try parsed()
            if preset != nil {
                guard p.layerIndex == nil, p.master == nil, p.muted == nil else {
                    throw ValidationError(
                        "'--preset' switches the whole mix: give it alone (with '--fade'), and change layers after")
                }
                _ = try presetFadeSeconds()
            } else if fade != nil {
                throw ValidationError("'--fade' goes with '--preset'")
            }
        }

        func presetFadeSeconds() throws -> Double {
            let s = try DurationParser.secondsOrValidationError(fade ?? "2s", "--fade")
            guard ControlRequest.crossfadeRange.contains(s) else {
                throw ValidationError("'--fade' \(fade ?? "") is out of range; allowed 0s…\(FadeLimits.longestText)")
            }
            return s
        }

        /// `--notch` and `--hearing`: sent to the running player (the notch is also kept in the Last
        /// Mix when none runs). Returns true when they were all there was to do.
        func setMasterFilter() throws -> Bool {
            guard notch != nil || hearing != nil else { return false }
            var options = HearingOptions()
            options.hearing = hearing
            options.notch = notch == "off" ? nil : notch
            var requests: [ControlRequest] = []
            if notch != nil { requests.append(.notch(try options.notchSettings())) }
            if hearing != nil {
                let choice = try options.choice(default: .off)
                var device: String?
                if choice == .auto, case .delivered(let status?)? = try? PlayerControl.send(.status) {
                    device = status.output.device.isEmpty ? nil : status.output.device
                    if device == "default sink" {
                        device = OutputDeviceName.of(sinkName: "pulse", backendDevice: nil)
                    }
                }
                let (curve, note) = try HearingOptions.correction(choice, device: device, store: storeOption.root)
                Terminal.printError(note)
                let label: String? =
                    switch choice {
                    case .auto: device.map { "the profile of \($0)" }
                    case .file(let path): "profile \(path)"
                    case .equalLoudness(let phon): "ISO 226 compensation for \(JSONValueText.number(phon)) phon"
                    case .off: nil
                    }
                requests.append(
                    .hearing(label: label, centresHz: curve?.centresHz ?? [], gainsDb: curve?.gainsDb ?? []))
            }
            for request in requests {
                switch try PlayerControl.send(request) {
                case .delivered(let status):
                    if case .notch = request {
                        print(
                            status?.notch.map {
                                String(format: "notch %.0f Hz, %g octaves", $0.centreHz, $0.widthOctaves)
                            }
                                ?? "notch off")
                    }
                    if case .hearing = request { print("hearing correction: \(status?.hearing ?? "off")") }
                case .notRunning:
                    guard case .notch(let n) = request else {
                        throw CLIError("no player is running; '--hearing' applies to a playing player")
                    }
                    let load = try LastMixStore(root: storeOption.root).update { $0.mix.notch = n }.load
                    PlayerControl.printLoadMessages(load)
                    print("No player running: the Last Mix's notch is \(n.map { "\(Int($0.centreHz)) Hz" } ?? "off").")
                }
            }
            return layer == nil && master == nil && !mute && !unmute
        }

        func run() throws {
            if try setMasterFilter() { return }
            if let preset {
                try Noise.Preset.switchTo(preset, crossfadeSeconds: try presetFadeSeconds(), store: storeOption.root)
                return
            }
            let p = try parsed()
            try checkSomethingToDo(p)
            var requests: [ControlRequest] = []
            if let index = p.layerIndex { requests.append(.setLayer(index: index, change: p.change)) }
            switch p.master {
            case .absolute(let m)?: requests.append(.setMaster(volume: m))
            case .relative(let d)?: requests.append(.adjustMaster(delta: d))
            case nil: break
            }
            if let muted = p.muted { requests.append(.mute(muted)) }
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
            if let latest {
                var text = summary(
                    latest.mix, layerIndex: p.layerIndex, changedMaster: p.master != nil,
                    switchedExplicitly: p.change.enabled != nil)
                if p.muted != nil || latest.muted {
                    text +=
                        (text.isEmpty ? "" : "\n")
                        + (latest.muted ? "muted (master \(percent(latest.masterVolume)) when unmuted)" : "unmuted")
                }
                print(text)
            }
        }

        private func editLastMix(_ p: Parsed) throws {
            if p.muted != nil {
                throw CLIError(
                    """
                    no player is running; '--\(p.muted! ? "mute" : "unmute")' applies to a playing player (the \
                    Last Mix has no mute)
                    """
                )
            }
            let store = LastMixStore(root: storeOption.root)
            let (value, load) = try store.update { last in
                if let index = p.layerIndex { try last.mix.apply(p.change, toLayer: index) }
                switch p.master {
                case .absolute(let m)?: try last.mix.setMaster(m)
                case .relative(let d)?:
                    try last.mix.setMaster((min(max(last.mix.masterVolume + d, 0), 1) * 1000).rounded() / 1000)
                case nil: break
                }
            }
            PlayerControl.printLoadMessages(load)
            if load.lastMix == nil { Terminal.printError("note: there was no Last Mix; started from the default mix") }
            Terminal.printError("No player is running; changed the Last Mix (\(store.url.path)).")
            print(
                summary(
                    value.mix, layerIndex: p.layerIndex, changedMaster: p.master != nil,
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

/// `noise set`'s option help from the mix table: "Colour 0…2: β of 1/f^β: …" so the ranges the
/// help states are the ones the options check.
enum MixOptionHelp {
    static func help(_ param: MixParameter, _ extra: String = "", name: String? = nil) -> ArgumentHelp {
        ArgumentHelp(text(param, extra, name: name))
    }

    /// `name` replaces the table's label where the option needs telling apart (`--volume` is the
    /// layer's, `--master` the master's).
    static func text(_ param: MixParameter, _ extra: String = "", name: String? = nil) -> String {
        let f = param.field
        return "\(name ?? f.label) \(f.allowedText)\(extra). \(f.help)"
    }
}
