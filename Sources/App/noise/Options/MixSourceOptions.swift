import ArgumentParser
import NoiseControl
import NoiseEngine
import ShareLinks
import SharedStore

/// `--preset NAME | --mix FILE`, shared by every command that needs a mix.
struct MixSourceOptions: ParsableArguments {
    @Option(name: .long, help: "A preset id (see 'noise presets').")
    var preset: String?

    @Option(
        name: .long, help: "A mix JSON file, or 'last' for the Last Mix in the store (./last for a file named last).")
    var mix: String?

    @Option(name: .long, help: "A share link made by 'noise share' (the whole URL, or what follows '#').")
    var link: String?

    /// Whether the user named what to play; `noise play` alone plays the Last Mix.
    var isGiven: Bool { preset != nil || mix != nil || link != nil }

    /// `noise play` alone plays the Last Mix, or this preset when there is none yet.
    static let defaultPresetID = "sleep"

    func validate() throws {
        if [preset, mix, link].compactMap({ $0 }).count > 1 {
            throw ValidationError("give one of '--preset', '--mix' and '--link', not more")
        }
    }

    /// For commands that need an explicit source (`render`): play has a default.
    func requireSource() throws {
        if preset == nil && mix == nil && link == nil {
            throw ValidationError("give '--preset NAME', '--mix FILE' or '--link URL'")
        }
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
        if let link {
            let shared = try ShareLink.read(link)
            guard shared.kind == .mix else {
                throw CLIError("'--link': the link carries a \(shared.kind.rawValue), not a mix; open it with 'weaver'")
            }
            let m = try Mix.decode(shared.json, file: "the link", sampleRate: sampleRate)
            return (m, m.name)
        }
        let (entry, m) = try PresetLibrary.standard().load(preset!)
        try m.validate(sampleRate: sampleRate)
        return (m, entry.id)
    }
}
