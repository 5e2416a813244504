import ArgumentParser

extension Noise {
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Play a mix live.")
        @OptionGroup var source: MixSourceOptions
        func run() throws { throw CLIError("live playback is being built") }
    }
}
