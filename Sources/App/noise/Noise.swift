import ArgumentParser
import CLISupport

@main
struct Noise: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noise",
        abstract: "A real-time noise machine: four coloured noise layers, played live or rendered to WAV.",
        version: "noise \(BuildInfo.versionLine)",
        subcommands: [
            Play.self, Render.self, Presets.self, Devices.self, Status.self, SetCommand.self, Preset.self, Pause.self,
            Resume.self, Toggle.self, Stop.self, TimerCommand.self, ScheduleCommand.self, AutostartCommand.self,
            SpectrumCommand.self, Share.self, HearingCommand.self, Analyze.self, Match.self,
        ]
    )

    static func main() { mainWithSubcommandUsage() }
}
