import ArgumentParser
import CLISupport
import Foundation
import NoiseControl
import NoiseEngine
import PlayerStartup

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
                  noise schedule disable 2300-sleep (keeps it; 'enable' switches it back on)
                """),
            subcommands: [Add.self, List.self, Remove.self, Enable.self, Disable.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
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
                let added: ScheduleBook.Added
                do {
                    added = try scheduleBook(storeOption).add(s, withoutSystemdSession: withoutSystemdSession)
                } catch ScheduleBook.Refusal.preset(let message) {
                    throw CLIError("'--preset': \(message)")
                } catch let refusal as ScheduleBook.Refusal {
                    throw CLIError(refusal.description)
                }
                for w in added.warnings { Terminal.printError("warning: \(w)") }
                for f in added.files { print("Wrote \(f.path)") }
                for note in added.notes { Terminal.printError(note) }
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
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "Show the schedules and when each runs next.")
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
                    // A disabled schedule keeps its units but never runs: no next time.
                    let next = s.isEnabled ? "next \(ScheduleCommand.format(s.nextRun(after: now)))" : "disabled"
                    print(
                        """
                        \(s.id)  \(s.timeText) daily  preset \(s.presetID)  fade \(formatDuration(s.fadeSeconds))  \
                        timer \(s.timerSeconds.map(formatDuration) ?? "none")  \(next)
                        """
                    )
                }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Remove a schedule by id or by time.")
            @Argument(help: ArgumentHelp("An id from 'noise schedule list' or a time (HH:MM).", valueName: "ID|TIME"))
            var target: String
            @OptionGroup var storeOption: StoreOption

            func run() throws {
                let result: (removed: [PlaySchedule], files: [URL], notes: [String])
                do { result = try scheduleBook(storeOption).remove(target) } catch let refusal as ScheduleBook.Refusal {
                    throw CLIError(refusal.description)
                }
                for note in result.notes { Terminal.printError(note) }
                for f in result.files { print("Removed \(f.path)") }
                print("Removed \(result.removed.map(\.id).joined(separator: ", ")).")
            }
        }

        typealias Enable = Switch<SwitchOn>
        typealias Disable = Switch<SwitchOff>

        /// `enable` and `disable`: the same command, `Way` says which.
        struct Switch<Way: SwitchWay>: ParsableCommand {
            static var configuration: CommandConfiguration {
                Way.isOn
                    ? CommandConfiguration(
                        commandName: "enable", abstract: "Switch a disabled schedule back on (by id or by time).")
                    : CommandConfiguration(
                        commandName: "disable",
                        abstract: "Switch a schedule off without removing it (by id or by time).")
            }
            @Argument(help: ArgumentHelp("An id from 'noise schedule list' or a time (HH:MM).", valueName: "ID|TIME"))
            var target: String
            @OptionGroup var storeOption: StoreOption

            func run() throws {
                let result: (changed: [PlaySchedule], notes: [String])
                do { result = try scheduleBook(storeOption).setEnabled(target, Way.isOn) } catch let refusal
                    as ScheduleBook.Refusal
                {
                    throw CLIError(refusal.description)
                }
                for note in result.notes { Terminal.printError(note) }
                print("\(Way.isOn ? "Enabled" : "Disabled") \(result.changed.map(\.id).joined(separator: ", ")).")
            }
        }

        /// A local date and time as systemd prints it (`ScheduleBook.systemdTime`).
        static func format(_ d: Date) -> String { ScheduleBook.systemdTime(d) }
    }
}

/// The schedules' unit folder, the `noise` binary and the store the player should use.
private func scheduleFiles(_ store: StoreOption) -> PlayScheduleFiles {
    PlayScheduleFiles(target: store.loginEntryTarget(executable: PresetLibrary.executableURL()))
}

/// The schedules with what changing them does (`systemctl --user`).
private func scheduleBook(_ store: StoreOption) -> ScheduleBook { ScheduleBook(files: scheduleFiles(store)) }
