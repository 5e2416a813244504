import ArgumentParser
import NoiseEngine

/// `--preset NAME | --mix FILE`, shared by every command that needs a mix.
struct MixSourceOptions: ParsableArguments {
    @Option(name: .long, help: "A preset id (see 'noise presets').")
    var preset: String?

    @Option(name: .long, help: "A mix JSON file.")
    var mix: String?

    func validate() throws {
        if preset != nil && mix != nil { throw ValidationError("give either '--preset' or '--mix', not both") }
        if preset == nil && mix == nil { throw ValidationError("give '--preset NAME' or '--mix FILE'") }
    }

    /// Loads the mix; a bad file is a `MixError` naming file, field, value and range.
    func load(sampleRate: Double? = nil) throws -> (mix: Mix, label: String) {
        if let mix {
            let m = try Mix.load(path: mix, sampleRate: sampleRate)
            return (m, mix)
        }
        let (entry, m) = try PresetLibrary.standard().load(preset!)
        try m.validate(sampleRate: sampleRate)
        return (m, entry.id)
    }
}
