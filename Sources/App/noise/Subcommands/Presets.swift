import ArgumentParser
import CLISupport
import Foundation
import NoiseControl
import NoiseDSP
import NoiseEngine

extension Noise {
    struct Presets: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "presets",
            abstract: "List the presets, or show one.",
            discussion: "Add or override presets as JSON mix files in $XDG_CONFIG_HOME/widgetweaver/presets/.",
            subcommands: [List.self, Show.self, Save.self, Delete.self], defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List every preset with its name and description.")
            @Flag(help: "Print JSON.") var json = false

            func run() throws {
                let library = PresetLibrary.standard()
                var rows: [(id: String, name: String, description: String, user: Bool, sii: Double?)] = []
                var problems: [String] = []
                for entry in library.entries() {
                    do {
                        let mix = try Mix.load(path: entry.url.path)
                        rows.append(
                            (entry.id, mix.name, mix.description, entry.isUserPreset, mix.speechIntelligibilityIndex()))
                    } catch {
                        problems.append("\(error)")
                    }
                }
                // Masking words from the measured index, ranked among the presets listed.
                let indices = rows.compactMap(\.sii)
                if json {
                    let items = rows.map { row -> [String: Any] in
                        var item: [String: Any] = [
                            "id": row.id, "name": row.name, "description": row.description,
                            "source": row.user ? "user" : "built-in",
                            "speechMasking": Mix.speechMaskingWords(index: row.sii, among: indices),
                        ]
                        if let sii = row.sii {
                            item["speechIntelligibilityIndex"] = (sii * 1000).rounded() / 1000
                            item["speechMaskingRank"] = 1 + indices.filter { $0 < sii }.count
                        }
                        return item
                    }
                    let data = try JSONSerialization.data(
                        withJSONObject: items, options: [.prettyPrinted, .sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                } else {
                    if rows.isEmpty {
                        print("No presets found (looked in \(library.folders.map(\.path).joined(separator: ", "))).")
                    }
                    let width = rows.map(\.id.count).max() ?? 0
                    for r in rows {
                        print(
                            """
                            \(r.id.padding(toLength: width, withPad: " ", startingAt: 0))  \
                            \(r.name)\(r.user ? " (yours)" : "") — \(r.description); \
                            \(Mix.speechMaskingWords(index: r.sii, among: indices))
                            """
                        )
                    }
                }
                for p in problems { Terminal.printError("warning: skipped \(p)") }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one preset's layers.")
            @Argument(help: "Preset id.") var name: String
            @Flag(help: "Print the mix JSON.") var json = false

            func run() throws {
                let (entry, mix) = try PresetLibrary.standard().load(name)
                let prediction = mix.predictedLoudness()
                if json {
                    // The mix file's fields plus the predicted loudness (stereo, 48 kHz).
                    var object = (try JSONSerialization.jsonObject(with: mix.encodedJSON()) as? [String: Any]) ?? [:]
                    object["loudnessLufs"] =
                        prediction.loudnessLufs.isFinite ? (prediction.loudnessLufs * 10).rounded() / 10 : nil
                    object["speechIntelligibilityIndex"] = mix.speechIntelligibilityIndex().map {
                        ($0 * 1000).rounded() / 1000
                    }
                    let data = try JSONSerialization.data(
                        withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                    return
                }
                print("\(mix.name) (\(entry.id)) — \(mix.description)")
                print("master volume \(percent(mix.masterVolume)) (\(decibels(VolumeCurve.gainDb(mix.masterVolume))))")
                print(
                    """
                    loudness \(Mix.lufs(prediction.loudnessLufs)) (predicted at this master, stereo; reference \
                    \(Mix.lufs(Mix.referenceLoudnessLufs)))
                    """
                )
                if let sii = mix.speechIntelligibilityIndex() {
                    print(
                        """
                        speech masking: SII \(String(format: "%.3f", sii)) for a talker at the same loudness (ANSI \
                        S3.5; 0 hides every word, 1 hides none)
                        """
                    )
                }
                for (i, l) in mix.layers.enumerated() { print("layer \(i + 1): \(StatusFormatter.layer(l))") }
            }
        }

        struct Save: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "save",
                abstract: "Save the playing mix (or the Last Mix) as a preset of yours.",
                discussion:
                    """
                    Written to $XDG_CONFIG_HOME/widgetweaver/presets/NAME.json; a preset of yours overrides a \
                    built-in one of the same name.
                    """
            )
            @OptionGroup var storeOption: StoreOption
            @Argument(help: "Preset id: 1 to 64 of a-z, 0-9, '-' and '_'.") var name: String
            @Option(help: "Display name (default: NAME).") var title: String?
            @Flag(help: "Replace a preset of yours with this name.") var force = false

            func validate() throws {
                guard PresetLibrary.isValidID(name) else {
                    throw ValidationError(
                        "NAME '\(name.prefix(80))' is not a preset id; use 1 to 64 of a-z, 0-9, '-' and '_'")
                }
                if let title, title.isEmpty || title.count > 200 {
                    throw ValidationError("'--title' must be 1 to 200 characters")
                }
            }

            func run() throws {
                var mix: Mix
                var fromPlayer = false
                do {
                    if case .ok(let status?) = try PlayerControl.client.send(.status) {
                        mix = status.mix
                        mix.description = "Saved from the player"
                        fromPlayer = true
                    } else {
                        throw ControlError.notRunning(path: "")
                    }
                } catch ControlError.notRunning {
                    let load = try LastMixStore(root: storeOption.root).load()
                    PlayerControl.printLoadMessages(load)
                    guard let last = load.lastMix else {
                        throw CLIError("no player is running and there is no Last Mix to save")
                    }
                    mix = last.mix
                }
                mix.name = title ?? name
                let overriding = PresetWriter.hasBuiltIn(name)
                let url = try PresetWriter.save(mix, id: name, replace: force)
                if overriding {
                    Terminal.printError(
                        """
                        note: your '\(name)' now plays instead of the built-in '\(name)'; 'noise presets delete \
                        \(name)' brings the built-in back
                        """
                    )
                }
                if fromPlayer {
                    // The player now plays preset NAME; a player that cannot take the label still
                    // has its mix saved, so this is only a warning.
                    do { _ = try PlayerControl.send(.savePreset(name: name)) } catch {
                        Terminal.printError("warning: \(error)")
                    }
                }
                print("Saved \(fromPlayer ? "the playing mix" : "the Last Mix") as preset '\(name)' (\(url.path)).")
            }
        }
    }
}

extension Noise.Presets {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a preset of yours (built-in presets stay).")
        @Argument(help: "Preset id of yours.") var name: String
        @OptionGroup var storeOption: StoreOption

        func run() throws {
            let (url, builtInReturns) = try PresetWriter.delete(id: name)
            print(
                "Deleted your preset '\(name)' (\(url.path))."
                    + (builtInReturns ? " The built-in '\(name)' plays again." : ""))
            // A player or Last Mix labelled with it keeps its sound and drops the label, which would
            // name a preset that is gone (or the built-in that now plays under that name).
            do { _ = try PlayerControl.send(.forgetPreset(name: name)) } catch {
                Terminal.printError("warning: the running player still calls its mix '\(name)': \(error)")
            }
            let store = LastMixStore(root: storeOption.root)
            if let last = try? store.load().lastMix, last.presetID == name {
                try store.update(now: last.updatedAt) { if $0.presetID == name { $0.presetID = nil } }
            }
        }
    }
}

func percent(_ v: Double) -> String { "\(Int((v * 100).rounded()))%" }
func decibels(_ db: Double) -> String { db.isFinite ? String(format: "%.1f dB", db) : "silent" }
