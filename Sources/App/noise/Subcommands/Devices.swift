import ArgumentParser
import AudioOutput
import AudioSinkBase

extension Noise {
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List the outputs PulseAudio and ALSA can see (names for '--device').")

        func run() throws {
            print("PulseAudio sinks:")
            do {
                let sinks = try DeviceList.pulseSinks()
                if sinks.isEmpty { print("  (none)") }
                for s in sinks { print("  \(s.name)\(s.isDefault ? " (default)" : "") — \(s.description)") }
            } catch {
                print("  unavailable: \(error)")
            }
            print("ALSA PCMs:")
            let pcms = DeviceList.alsaPCMs()
            if pcms.isEmpty { print("  (none)") }
            for p in pcms { print("  \(p.name)\(p.description.isEmpty ? "" : " — \(p.description)")") }
        }
    }
}
