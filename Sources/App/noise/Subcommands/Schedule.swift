import ArgumentParser
import CLISupport
import Foundation
import NoiseControl
import NoiseEngine

extension Noise {
    struct ScheduleCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule",
            abstract: "Play a preset at a time of day (systemd user timers).",
            discussion: HelpText.prose(
                """
                Each schedule is a systemd user timer (OnCalendar, every day, local time) and a service that
                runs 'noise play --preset ID --fade-in D [--timer T]' with the same store. When a player
                already runs, it crossfades to the preset over the fade instead. Examples:
                  noise schedule add 23:00 --preset sleep --fade 10m --timer 8h
                  noise schedule list
                  noise schedule remove 23:00      (or the id 'list' shows, e.g. 2300-sleep)
                """),
            subcommands: [Add.self, List.self, Remove.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a daily schedule.",
                usage: "noise schedule add <TIME> --preset <ID> [<options>]")
            @Argument(help: ArgumentHelp("Time of day, HH:MM (00:00…23:59).", valueName: "TIME")) var time: String
            @Option(help: "The preset to play (see 'noise presets').") var preset: String
            @Option(numeric: "Fade-in, or the crossfade when a player runs, 0s…30m (default 10s).") var fade: String?
            @Option(numeric: "Sleep timer the player starts with, 1s…24h (default: none).") var timer: String?
            @Flag(
                help: """
                    Write the units although no systemd user session runs here (for a home folder another \
                    machine with one uses).
                    """)
            var withoutSystemdSession = false
            @OptionGroup var storeOption: StoreOption

            func schedule() throws -> PlaySchedule {
                guard PlaySchedule.isUsableInUnitName(preset) else {
                    throw ValidationError(
                        "'--preset' \(preset) is not a preset id; use lowercase letters, digits, '-' and '_'")
                }
                let fadeSeconds = try DurationParser.secondsOrValidationError(fade ?? "10s", "--fade")
                guard FadeLimits.fadeInSeconds.contains(fadeSeconds) else {
                    throw ValidationError(
                        "'--fade' \(fade ?? "") is out of range; allowed 0s…\(FadeLimits.longestText)")
                }
                let timerSeconds = try timer.map { try DurationParser.secondsOrValidationError($0, "--timer") }
                if let timerSeconds, !ControlRequest.timerRange.contains(timerSeconds) {
                    throw ValidationError("'--timer' \(timer ?? "") is out of range; allowed 1s…24h")
                }
                let t: (hour: Int, minute: Int)
                do { t = try PlaySchedule.parseTime(time) } catch { throw ValidationError(error.description) }
                return PlaySchedule(
                    hour: t.hour, minute: t.minute, presetID: preset, fadeSeconds: fadeSeconds,
                    timerSeconds: timerSeconds)
            }

            func validate() throws { _ = try schedule() }

            func run() throws {
                let s = try schedule()
                // Refused now rather than failing at 23:00 with nobody looking.
                do { _ = try PresetLibrary.standard().load(s.presetID) } catch {
                    throw CLIError("'--preset': \(error.message)")
                }
                // A unit no user manager reads never fires: refused before anything is written.
                if !withoutSystemdSession, let missing = UserSystemd.sessionProblem() {
                    throw CLIError(
                        """
                        \(missing); a schedule would never run here. Nothing was written. \
                        ('noise autostart' falls back to XDG autostart; for a schedule, use a systemd session, \
                        or '--without-systemd-session' to write the units anyway)
                        """)
                }
                let files = scheduleFiles(storeOption)
                // Two at one minute both start: the later one takes the player over with its preset.
                for other in files.list().schedules
                where other.hour == s.hour && other.minute == s.minute && other.id != s.id {
                    Terminal.printError(
                        """
                        warning: \(other.id) also starts at \(s.timeText): both run, and whichever starts second \
                        crossfades the player to its preset ('noise schedule remove \(other.id)' removes the other)
                        """)
                }
                for f in try files.install(s) { print("Wrote \(f.path)") }
                for note in [UserSystemd.run(["daemon-reload"]), UserSystemd.run(["start", files.timerName(s)])] {
                    if let note { Terminal.printError(note) }
                }
                print(
                    """
                    Scheduled \(s.id): preset \(s.presetID) every day at \(s.timeText), fading in over \
                    \(formatDuration(s.fadeSeconds))
                    """
                        + (s.timerSeconds.map { ", stopping after \(formatDuration($0))" } ?? "")
                        + "; next run \(ScheduleCommand.format(s.nextRun(after: Date())))."
                )
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show the schedules and when each runs next.")
            @OptionGroup var storeOption: StoreOption

            func run() throws {
                let found = scheduleFiles(storeOption).list()
                for url in found.unreadable {
                    Terminal.printError("warning: \(url.path) is not a schedule this version wrote; left as it is")
                }
                if found.schedules.isEmpty {
                    print("No schedules ('noise schedule add 23:00 --preset sleep' adds one).")
                    return
                }
                let now = Date()
                for s in found.schedules {
                    print(
                        """
                        \(s.id)  \(s.timeText) daily  preset \(s.presetID)  fade \(formatDuration(s.fadeSeconds))  \
                        timer \(s.timerSeconds.map(formatDuration) ?? "none")  next \
                        \(ScheduleCommand.format(s.nextRun(after: now)))
                        """
                    )
                }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a schedule by id or by time.")
            @Argument(help: ArgumentHelp("An id from 'noise schedule list' or a time (HH:MM).", valueName: "ID|TIME"))
            var target: String
            @OptionGroup var storeOption: StoreOption

            func run() throws {
                let files = scheduleFiles(storeOption)
                let result = try files.remove(target)
                guard !result.removed.isEmpty else {
                    throw CLIError("no schedule '\(target)'; 'noise schedule list' shows the ids and times")
                }
                for s in result.removed {
                    if let note = UserSystemd.run(["stop", files.timerName(s)]) { Terminal.printError(note) }
                }
                if let note = UserSystemd.run(["daemon-reload"]) { Terminal.printError(note) }
                for f in result.files { print("Removed \(f.path)") }
                print("Removed \(result.removed.map(\.id).joined(separator: ", ")).")
            }
        }

        /// A local date and time as systemd prints it: "Wed 2026-11-25 23:00:00 UTC".
        /// strftime rather than DateFormatter: Foundation names UTC "GMT", systemd (and the C
        /// library it uses) "UTC".
        static func format(_ d: Date) -> String {
            var t = time_t(d.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            localtime_r(&t, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let n = strftime(&buffer, buffer.count, "%a %Y-%m-%d %H:%M:%S %Z", &parts)
            return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

/// The schedules' unit folder, the `noise` binary and the store the player should use.
private func scheduleFiles(_ store: StoreOption) -> PlayScheduleFiles {
    PlayScheduleFiles(target: store.loginEntryTarget(executable: PresetLibrary.executableURL()))
}
