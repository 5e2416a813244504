import ArgumentParser
import NoiseControl
import NoiseEngine
import SharedStore

/// `--preset NAME | --mix FILE`, shared by every command that needs a mix.
struct MixSourceOptions: ParsableArguments {
    @Option(name: .long, help: "A preset id (see 'noise presets').")
    var preset: String?

    @Option(
        name: .long, help: "A mix JSON file, or 'last' for the Last Mix in the store (./last for a file named last).")
    var mix: String?

    /// `noise play` alone plays the Last Mix, or this preset when there is none yet.
    static let defaultPresetID = "sleep"

    func validate() throws {
        if preset != nil && mix != nil { throw ValidationError("give either '--preset' or '--mix', not both") }
    }

    /// For commands that need an explicit source (`render`): play has a default.
    func requireSource() throws {
        if preset == nil && mix == nil { throw ValidationError("give '--preset NAME' or '--mix FILE'") }
    }

    /// What `noise play` with neither flag plays: the Last Mix (its preset id kept), else the
    /// default preset.
    func loadDefault(sampleRate: Double, store: StoreRoot) throws -> (mix: Mix, label: String, presetID: String?) {
        let load = try LastMixStore(root: store).load()
        for message in load.messages { Terminal.printError("warning: \(message)") }
        if let last = load.lastMix {
            try last.mix.validate(sampleRate: sampleRate)
            return (last.mix, "Last Mix: \(last.mix.name)", last.presetID)
        }
        let (entry, m) = try PresetLibrary.standard().load(Self.defaultPresetID)
        try m.validate(sampleRate: sampleRate)
        return (m, "\(entry.id), the default preset: there is no Last Mix yet", entry.id)
    }

    /// Loads the mix; a bad file is a `MixError` naming file, field, value and range.
    func load(sampleRate: Double? = nil, store: StoreRoot = StoreRoot.resolve()) throws -> (mix: Mix, label: String) {
        if mix == "last" {
            let load = try LastMixStore(root: store).load()
            for message in load.messages { Terminal.printError("warning: \(message)") }
            guard let last = load.lastMix else {
                throw CLIError("there is no Last Mix yet in \(store.lastMix.path); play something first")
            }
            try last.mix.validate(sampleRate: sampleRate)
            return (last.mix, "Last Mix: \(last.mix.name)")
        }
        if let mix {
            let m = try Mix.load(path: mix, sampleRate: sampleRate)
            return (m, mix)
        }
        let (entry, m) = try PresetLibrary.standard().load(preset!)
        try m.validate(sampleRate: sampleRate)
        return (m, entry.id)
    }
}
