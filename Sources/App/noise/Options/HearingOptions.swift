import ArgumentParser
import AudioOutput
import CLISupport
import Foundation
import NoiseDSP
import NoiseEngine
import SharedStore

/// `--hearing auto|FILE|iso226:PHON|off` and `--notch HZ[:OCTAVES]`, for `play` and `render`.
struct HearingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            Hearing correction on the master: auto (the calibrated profile of the device playing, off when it \
            has none; play's default), a profile FILE, iso226:PHON (loudness compensation for listening at PHON \
            instead of 80 phon), or off (render's default).
            """, valueName: "auto|FILE|iso226:PHON|off"))
    var hearing: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Notch the whole mix at HZ (200…16000), OCTAVES wide between its -3 dB edges (0.25…2, default 1).",
            valueName: "HZ[:OCTAVES]"))
    var notch: String?

    enum Choice: Equatable {
        case auto, off
        case file(String)
        case equalLoudness(phon: Double)
    }

    func validate() throws {
        _ = try notchSettings()
        _ = try choice(default: .off)
    }

    /// The `--hearing` choice; `fallback` when the flag is absent.
    func choice(default fallback: Choice) throws -> Choice {
        guard let hearing else { return fallback }
        switch hearing {
        case "auto": return .auto
        case "off": return .off
        case _ where hearing.hasPrefix("iso226:"):
            let text = hearing.dropFirst("iso226:".count)
            let r = EqualLoudness.phonRange
            guard let phon = Double(text), phon.isFinite, r.contains(phon) else {
                throw ValidationError(
                    "'--hearing' \(hearing): the loudness level must be a number of phon in 0…90, e.g. iso226:40")
            }
            return .equalLoudness(phon: phon)
        case "": throw ValidationError("'--hearing' needs auto, a profile file, iso226:PHON or off")
        default: return .file(hearing)
        }
    }

    /// The `--notch` setting, nil without the flag.
    func notchSettings() throws -> Mix.Notch? {
        guard let notch else { return nil }
        let parts = notch.split(separator: ":", omittingEmptySubsequences: false)
        let c = NotchSettings.centreRange, w = NotchSettings.widthRange
        guard parts.count <= 2, let hz = Double(parts[0]), hz.isFinite, c.contains(hz) else {
            throw ValidationError(
                "'--notch' \(notch): the centre must be \(Int(c.lowerBound))…\(Int(c.upperBound)) Hz, "
                    + "e.g. 6000 or 6000:1"
            )
        }
        var result = Mix.Notch(centreHz: hz)
        if parts.count == 2 {
            guard let octaves = Double(parts[1]), octaves.isFinite, w.contains(octaves) else {
                throw ValidationError("'--notch' \(notch): the width must be 0.25…2 octaves, e.g. 6000:0.5")
            }
            result.widthOctaves = octaves
        }
        return result
    }

    /// Puts `--notch` into `mix`; returns the line saying what it changes, nil without the flag.
    func applyNotch(to mix: inout Mix, sampleRate: Double) throws -> String? {
        guard let n = try notchSettings() else { return nil }
        guard n.centreHz < sampleRate * 0.45 else {
            throw ValidationError(
                "'--notch' \(Int(n.centreHz)) Hz is too close to Nyquist at \(Int(sampleRate)) Hz; use below "
                    + "\(Int(sampleRate * 0.45)) Hz")
        }
        let before = MasterFilterDesign(notch: mix.notch?.settings)
        mix.notch = n
        let change = Self.loudnessChange(mix: mix, from: before, to: MasterFilterDesign(notch: n.settings), sampleRate)
        return String(
            format: "Notch at %.0f Hz, %.2g octave%@ wide, %.0f dB deep: loudness %+.1f dB.", n.centreHz,
            n.widthOctaves,
            n.widthOctaves == 1 ? "" : "s", n.depthDb, change)
    }

    /// The change in predicted loudness between two master filters on the same mix.
    static func loudnessChange(mix: Mix, from a: MasterFilterDesign, to b: MasterFilterDesign, _ sampleRate: Double)
        -> Double
    {
        let model = Mix.loudnessModel(sampleRate: sampleRate)
        return model.loudnessChangeDb(layers: mix.layerSettings, filter: b)
            - model.loudnessChangeDb(layers: mix.layerSettings, filter: a)
    }

    /// The correction for a choice; `device` names the output for `auto` (nil: none known).
    /// Returns the curve (nil for none) and a line saying what it is.
    static func correction(
        _ choice: Choice, device: String?, store: StoreRoot
    ) throws -> (curve: CorrectionCurve?, note: String) {
        switch choice {
        case .off: return (nil, "Hearing correction off.")
        case .equalLoudness(let phon):
            return (
                .equalLoudness(phon: phon),
                "Hearing correction: ISO 226 loudness compensation for \(JSONValueText.number(phon)) phon."
            )
        case .file(let path):
            do {
                let p = try HearingProfile.load(path: path)
                return (p.correction, "Hearing correction from \(path) (\(p.centresHz.count) bands).")
            } catch {
                throw CLIError("'--hearing': \(error)")
            }
        case .auto:
            guard let device else { return (nil, "Hearing correction off: the output has no device name.") }
            let loaded = try HearingProfileStore(root: store).load(device: device)
            for m in loaded.messages { Terminal.printError("warning: \(m)") }
            guard let p = loaded.profile, p.complete else {
                return (nil, "Hearing correction off: no calibrated profile for \(device) ('noise hearing calibrate').")
            }
            return (p.correction, "Hearing correction: the profile of \(device) (\(p.centresHz.count) bands).")
        }
    }
}

/// A number as a person writes it: 40, 62.5.
enum JSONValueText {
    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
