import ArgumentParser
import CLISupport
import Foundation
import NoiseControl
import NoiseEngine
import SharedStore

extension Noise {
    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pause",
            abstract: "Pause the running player ('noise resume' continues).")

        func run() throws {
            switch try PlayerControl.send(.pause) {
            case .notRunning: throw CLIError("no player is running; 'noise resume' starts the Last Mix")
            case .delivered: print("Paused.")
            }
        }
    }

    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "toggle",
            abstract:
                """
                Pause the running player, or continue it (one key for both); with no player, start the Last Mix in \
                the background.
                """
        )
        @OptionGroup var storeOption: StoreOption

        func run() throws {
            switch try PlayerControl.send(.toggle) {
            case .delivered(let status): print(status?.state == .paused ? "Paused." : "Resumed.")
            case .notRunning:
                // Like 'noise resume --detach' with no player: a key or a button starts the sound
                // and returns, it does not become the player.
                guard let last = try Resume.loadLastMix(storeOption) else { return }
                try Resume.start(last, store: storeOption, detach: true)
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop", abstract: "Stop the running player (it fades out and exits).")

        func run() throws {
            switch try PlayerControl.send(.stop) {
            // Nothing to stop is not a failure: scripts and key bindings may call this blindly.
            case .notRunning: print("No player is running.")
            case .delivered: print("Stopped.")
            }
        }
    }

    struct TimerCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timer",
            abstract: "Set the running player's sleep timer, or switch it off.",
            usage: "noise timer <DURATION|+D|-D|off> [--fade <fade>] [--then <action>]",
            discussion: HelpText.prose(
                """
                Examples:
                  noise timer 30m
                  noise timer 1h30m --fade 2m
                  noise timer 30m --fade 5m --then suspend
                  noise timer +15m      (15 minutes more; starts a 15-minute timer if none runs)
                  noise timer -15m      (15 minutes less)
                  noise timer off
                """))

        // All unrecognized words, so that "-15m" is taken as the duration rather than refused as an
        // unknown option; exactly one is allowed (checked in `parsed`).
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "How long until the player stops (1s…24h), +D or -D to change the running timer, or 'off'.",
                valueName: "DURATION|+D|-D|off"))
        var words: [String] = []
        @Option(numeric: "Fade-out length before the end (default: the player's, 30s).") var fade: String?
        @Option(
            help: ArgumentHelp(
                "What the timer's end does: stop, suspend or poweroff (through systemd-logind; default: as it was).",
                valueName: "stop|suspend|poweroff"))
        var then: String?

        func timerEnd() throws -> TimerEnd? {
            guard let then else { return nil }
            guard let end = TimerEnd(rawValue: then.lowercased()) else {
                throw ValidationError("'--then' \(then) is not an action; use \(TimerEnd.allowedText)")
            }
            return end
        }

        var duration: String { words.first ?? "" }

        /// A relative change (`+15m`, `-15m`) in seconds, or nil for an absolute duration.
        func change() throws -> Double? {
            guard let sign = duration.first, sign == "+" || sign == "-" else { return nil }
            let seconds: Double
            do { seconds = try DurationParser.seconds(String(duration.dropFirst())) } catch {
                throw ValidationError("DURATION \(duration): \(error)")
            }
            guard seconds > 0, seconds <= ControlRequest.timerRange.upperBound else {
                throw ValidationError("DURATION \(duration) is out of range; a change is 1s…24h either way")
            }
            return sign == "-" ? -seconds : seconds
        }

        func parsed() throws -> ControlRequest {
            guard words.count == 1 else {
                throw ValidationError(
                    words.isEmpty
                        ? "Missing expected argument 'DURATION|+D|-D|off'"
                        : "give one DURATION, found \(words.count): \(words.joined(separator: " "))")
            }
            if duration.lowercased() == "off" {
                if fade != nil { throw ValidationError("'--fade' makes no sense with 'off'") }
                if then != nil { throw ValidationError("'--then' makes no sense with 'off'") }
                return .timer(seconds: nil, fadeSeconds: nil)
            }
            if let change = try change() {
                // Checked against the running timer in `run`; here only the fade.
                return .timer(seconds: abs(change), fadeSeconds: try fadeSeconds(limit: nil))
            }
            let seconds: Double
            do { seconds = try DurationParser.seconds(duration) } catch { throw ValidationError("DURATION: \(error)") }
            guard ControlRequest.timerRange.contains(seconds) else {
                throw ValidationError("DURATION \(duration) is out of range; allowed 1s…24h")
            }
            return .timer(seconds: seconds, fadeSeconds: try fadeSeconds(limit: seconds))
        }

        func fadeSeconds(limit: Double?) throws -> Double? {
            var fadeSeconds: Double?
            if let fade {
                do { fadeSeconds = try DurationParser.seconds(fade) } catch {
                    throw ValidationError("'--fade': \(error)")
                }
                if let limit, fadeSeconds! > limit {
                    throw ValidationError("'--fade' must not be longer than the timer")
                }
            }
            return fadeSeconds
        }

        /// `+D`/`-D`: the running player's remaining time moved by D (a timer of D when none runs and
        /// D is positive).
        func relativeRequest(_ change: Double) throws -> ControlRequest {
            guard case .ok(let status?) = try PlayerControl.client.send(.status) else {
                throw CLIError("no player is running; start one first ('noise resume' or 'noise play')")
            }
            let moved: ControlRequest
            do {
                moved = try TimerChange.request(
                    remainingSeconds: status.timerRemainingSeconds, changeSeconds: change, changeText: duration)
            } catch { throw CLIError(error.description) }
            guard case .timer(let seconds?, _) = moved else { return moved }
            // The running timer keeps its fade unless '--fade' gives another.
            let fade = try fadeSeconds(limit: seconds) ?? status.timerFadeSeconds.map { min($0, seconds) }
            return .timer(seconds: seconds, fadeSeconds: fade)
        }

        func validate() throws {
            _ = try parsed()
            _ = try timerEnd()
        }

        func run() throws {
            var request = try parsed()
            if let change = try change() { request = try relativeRequest(change) }
            switch try PlayerControl.send(request) {
            case .notRunning: throw CLIError("no player is running; start one first ('noise resume' or 'noise play')")
            case .delivered(let status):
                if case .timer(nil, _) = request {
                    print("Timer off.")
                    return
                }
                var remaining = status?.timerRemainingSeconds
                var end = status?.timerThen
                if let wanted = try timerEnd() {
                    // A second request: the timer above is set even when the player refuses this one.
                    do {
                        if case .delivered(let after) = try PlayerControl.send(.then(wanted)) {
                            remaining = after?.timerRemainingSeconds ?? remaining
                            end = after?.timerThen ?? wanted
                        }
                    } catch {
                        print("Timer set: stops in \(StatusFormatter.duration(remaining ?? 0)).")
                        throw error
                    }
                }
                if case .timer(let s?, _) = request {
                    let then = end.flatMap { $0 == .stop ? nil : ", then \($0.rawValue)" } ?? ""
                    print("Timer set: stops in \(StatusFormatter.duration(remaining ?? s))\(then).")
                }
            }
        }
    }

    struct Preset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preset",
            abstract: "Switch the running player to a preset with a crossfade (or make it the Last Mix).")

        @OptionGroup var storeOption: StoreOption
        @Argument(help: "Preset id (see 'noise presets').") var name: String
        @Option(numeric: "Crossfade length, 0s…30m.") var crossfade: String = "2s"

        func crossfadeSeconds() throws -> Double {
            let s: Double
            do { s = try DurationParser.seconds(crossfade) } catch { throw ValidationError("'--crossfade': \(error)") }
            guard ControlRequest.crossfadeRange.contains(s) else {
                throw ValidationError(
                    "'--crossfade' \(crossfade) is out of range; allowed 0s…\(FadeLimits.longestText)")
            }
            return s
        }

        func validate() throws { _ = try crossfadeSeconds() }

        func run() throws {
            try Self.switchTo(name, crossfadeSeconds: try crossfadeSeconds(), store: storeOption.root)
        }

        /// `noise preset NAME` and `noise set --preset NAME --fade D`: the running player crossfades
        /// every parameter to the preset's, or the Last Mix becomes the preset.
        static func switchTo(_ name: String, crossfadeSeconds: Double, store root: StoreRoot) throws {
            // Checked here so a typo gets the list of presets, whether or not a player runs.
            let (entry, mix) = try PresetLibrary.standard().load(name)
            switch try PlayerControl.send(.preset(id: entry.id, crossfadeSeconds: crossfadeSeconds)) {
            case .delivered(let status):
                print(
                    "Switching to \(mix.name) (\(entry.id))"
                        + (status.map { ", master \(percent($0.mix.masterVolume)) kept" } ?? "") + ".")
            case .notRunning:
                let store = LastMixStore(root: root)
                var keptMaster: Double?
                let hadLastMix = (try? store.load())?.lastMix != nil
                let (_, load) = try store.update { last in
                    // The master is the user's: keep the Last Mix's (the preset's applies on first play).
                    var next = mix
                    if hadLastMix {
                        next.masterVolume = last.mix.masterVolume
                        keptMaster = next.masterVolume
                    }
                    last.mix = next
                    last.presetID = entry.id
                }
                PlayerControl.printLoadMessages(load)
                print(
                    "No player is running; the Last Mix is now \(mix.name) (\(entry.id))"
                        + (keptMaster.map { ", master \(percent($0)) kept" } ?? "") + ". 'noise resume' plays it.")
            }
        }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume",
            abstract: "Continue where you left off: unpause the player, or start one with the Last Mix.",
            discussion: HelpText.prose(
                """
                --if-enabled is for login (see 'noise autostart'): it starts a player only when resume at
                login is on and the mix was playing when the last session ended; otherwise it exits 0.

                --detach is for status-bar clicks and key bindings: the player runs in a session of its
                own, and the command returns once it plays (its messages go to player.log beside the
                control socket).
                """))

        @OptionGroup var storeOption: StoreOption
        @Flag(name: .customLong("if-enabled"), help: "Only if resume at login is on and the mix was playing at logout.")
        var ifEnabled = false
        @Flag(help: "Start the player in the background and return once it plays.")
        var detach = false

        func run() throws {
            if ifEnabled {
                if PlayerControl.client.isPlayerRunning() {
                    print("A player is already running.")
                    return
                }
            } else if case .delivered = try PlayerControl.send(.resume) {
                print("Resumed.")
                return
            }
            // No player to unpause: start one with the Last Mix (in the background with --detach).
            guard let last = try Self.loadLastMix(storeOption) else { return }
            if ifEnabled {
                guard last.resumeOnLaunch else {
                    print("Resume at login is off ('noise autostart enable' turns it on).")
                    return
                }
                guard last.wasPlaying else {
                    print("The Last Mix was not playing when the last session ended; not resuming.")
                    return
                }
            }
            try Self.start(last, store: storeOption, detach: detach)
        }

        /// The Last Mix, or nil after saying there is none.
        static func loadLastMix(_ store: StoreOption) throws -> LastMix? {
            let load = try LastMixStore(root: store.root).load()
            PlayerControl.printLoadMessages(load)
            guard let last = load.lastMix else {
                print(
                    """
                    There is no Last Mix yet, so there is nothing to resume. Start one with 'noise play --preset \
                    NAME'.
                    """
                )
                return nil
            }
            try last.mix.validate()
            return last
        }

        /// Plays `last`: in a background player that outlives this command (`detach`), or here.
        static func start(_ last: LastMix, store: StoreOption, detach: Bool) throws {
            if detach {
                let launcher = DetachedPlayer(
                    noise: PresetLibrary.executableURL(), storeDirectory: store.explicitDirectory)
                let (pid, status) = try launcher.start()
                print("Playing \(status?.presetName ?? last.mix.name) in the background (pid \(pid)).")
                return
            }
            Terminal.printError("Resuming \(last.mix.name)\(last.presetID.map { " (\($0))" } ?? "").")
            try PlayerLauncher.startPlayer(mix: last.mix, presetID: last.presetID, store: store.root)
        }
    }
}
