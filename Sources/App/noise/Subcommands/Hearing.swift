import ArgumentParser
import CLISupport
import Foundation
import NoiseDSP
import NoiseEngine
import SharedStore

extension Noise {
    /// `noise hearing …`: equal-loudness contours, hearing profiles and their calibration.
    struct HearingCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hearing",
            abstract: "Hearing profiles (noise fitted to your ears), ISO 226 contours and tinnitus pitch matching.",
            discussion: HelpText.prose(
                """
                Not a medical device: a profile says how loud narrow bands of noise sound to you through this
                output at this level, nothing about your hearing's health. See docs/hearing.md.
                """),
            subcommands: [Calibrate.self, Match.self, Contour.self, List.self, Show.self, Remove.self])
    }
}

extension Noise.HearingCommand {
    struct Contour: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "contour",
            abstract: "An ISO 226:2003 equal-loudness contour: dB SPL at the standard's 29 frequencies.")

        @Option(name: .long, numeric: "Loudness level, 0…90 phon.")
        var phon: Double

        @Flag(help: "Print JSON: {\"phon\", \"frequenciesHz\", \"splDb\"}.")
        var json = false

        func validate() throws {
            guard phon.isFinite, EqualLoudness.phonRange.contains(phon) else {
                throw ValidationError("'--phon' \(phon) is out of range; allowed 0…90 phon")
            }
        }

        func run() throws {
            let levels = EqualLoudness.contourDb(phon: phon)
            if json {
                let o: [String: Any] = [
                    "phon": phon, "frequenciesHz": EqualLoudness.frequenciesHz,
                    "splDb": levels.map { ($0 * 1000).rounded() / 1000 },
                ]
                let data = try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("ISO 226:2003 equal-loudness contour, \(JSONValueText.number(phon)) phon")
            for (f, l) in zip(EqualLoudness.frequenciesHz, levels) {
                print(String(format: "%8.1f Hz  %6.1f dB SPL", f, l))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the stored hearing profiles, one per output.")
        @OptionGroup var storeOption: StoreOption

        func run() throws {
            let all = HearingProfileStore(root: storeOption.root).list()
            if all.isEmpty {
                print("No hearing profiles yet ('noise hearing calibrate' makes one for the output in use).")
                return
            }
            for entry in all {
                switch entry.profile {
                case .success(let p):
                    let spread = p.retestSpreadDb.map { String(format: ", retest spread %.1f dB", $0) } ?? ""
                    let state = p.complete ? "" : ", calibration unfinished (\(p.pendingCentresHz.count) bands to go)"
                    print("\(entry.device): \(p.mode.rawValue), \(p.centresHz.count) bands\(spread)\(state)")
                case .failure(let e):
                    print("\(entry.device): unreadable (\(e.path): \(e.reason))")
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a profile (a stored device's, or a file) as a table and a chart.")
        @OptionGroup var storeOption: StoreOption

        @Argument(help: "An output device's name (see 'noise hearing list') or a profile file.")
        var deviceOrFile: String

        @Flag(help: "Print the profile's JSON.")
        var json = false

        func run() throws {
            let profile = try Self.load(deviceOrFile, store: storeOption.root)
            if json {
                print(String(decoding: profile.encodedJSON(), as: UTF8.self))
                return
            }
            print(ProfileChart.text(profile))
        }

        static func load(_ name: String, store: StoreRoot) throws -> HearingProfile {
            if name.contains("/") || name.hasSuffix(".json") && FileManager.default.fileExists(atPath: name) {
                do { return try HearingProfile.load(path: name) } catch { throw CLIError("\(error)") }
            }
            let loaded = try HearingProfileStore(root: store).load(device: name)
            for m in loaded.messages { Terminal.printError("warning: \(m)") }
            guard let p = loaded.profile else {
                throw CLIError("no hearing profile for '\(name)' (see 'noise hearing list')")
            }
            return p
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a stored device's profile.")
        @OptionGroup var storeOption: StoreOption
        @Argument(help: "The output device's name (see 'noise hearing list').")
        var device: String

        func run() throws {
            guard try HearingProfileStore(root: storeOption.root).remove(device: device) else {
                throw CLIError("no hearing profile for '\(device)' (see 'noise hearing list')")
            }
            print("Removed the hearing profile of \(device).")
        }
    }
}

/// A profile as text: each band's gain as a bar around 0 dB, and what the master will do.
enum ProfileChart {
    static func text(_ p: HearingProfile) -> String {
        var lines: [String] = []
        let header = p.device.map { "Hearing profile of \($0)" } ?? "Hearing profile"
        lines.append("\(header) (\(p.mode.rawValue)\(p.complete ? "" : ", unfinished"))")
        if let s = p.retestSpreadDb { lines.append(String(format: "Test-retest spread: %.1f dB", s)) }
        if let t = p.tinnitusHz { lines.append(String(format: "Matched tinnitus pitch: %.0f Hz", t)) }
        let applied = MasterFilterDesign(correction: p.correction).responseDb(atHz: p.centresHz, sampleRate: 48000)
        lines.append("  centre     gain  applied   -12 dB          0          +12 dB")
        for (i, f) in p.centresHz.enumerated() {
            let g = p.gainsDb[i]
            let cells = 25
            let pos = Int(((min(max(g, -12), 12) + 12) / 24 * Double(cells - 1)).rounded())
            var bar = Array(repeating: Character(" "), count: cells)
            bar[cells / 2] = "|"
            let lo = min(pos, cells / 2), hi = max(pos, cells / 2)
            for k in lo...hi where k != cells / 2 { bar[k] = "=" }
            lines.append(String(format: "%8.0f Hz %+6.1f %+7.1f   ", f, g, applied[i]) + String(bar))
        }
        return lines.joined(separator: "\n")
    }
}
