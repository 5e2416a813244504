import ArgumentParser
import AudioOutput
import AudioSinkBase
import CLISupport
import Foundation
import NoiseControl
import NoiseEngine

extension Noise {
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Play a mix live through PulseAudio (or PipeWire) or ALSA.",
            discussion: HelpText.prose(
                """
                Starts with a gentle fade-in and plays until Ctrl-C, SIGTERM or the sleep timer, then fades
                out and exits. With neither '--preset' nor '--mix' it plays the Last Mix (the 'sleep'
                preset when there is none yet). Examples:
                  noise play
                  noise play --preset sleep
                  noise play --preset rain --timer 45m --fade 5m
                  noise play --mix my-mix.json --output alsa --device plughw:1
                """))

        @OptionGroup var source: MixSourceOptions
        @OptionGroup var output: PlaybackOptions
        @OptionGroup var storeOption: StoreOption
        @OptionGroup var loudness: LoudnessOption
        @OptionGroup var hearingOptions: HearingOptions

        @Flag(help: "Refuse to start when a player already runs (default: hand this mix to it).")
        var exclusive = false

        @Option(name: .long, numeric: "Sleep timer: stop after this long, fading out (e.g. 30m, 1h30m).")
        var timer: String?

        @Option(name: .long, numeric: "Length of the timer's fade-out (default 30s, or the whole timer if shorter).")
        var fade: String?

        @Option(name: .long, numeric: "Seed of the noise generators (default: random, printed).")
        var seed: UInt64?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "What happens when the timer ends: stop (default), suspend or poweroff (through systemd-logind).",
                valueName: "stop|suspend|poweroff"))
        var then: String?

        func validate() throws {
            _ = try output.parsed()
            if let timer {
                let seconds = try DurationParser.secondsOrValidationError(timer, "--timer")
                guard seconds >= 1, seconds <= 24 * 3600 else {
                    throw ValidationError("'--timer' must be between 1s and 24h")
                }
            }
            if fade != nil && timer == nil { throw ValidationError("'--fade' needs '--timer'") }
            if then != nil && timer == nil { throw ValidationError("'--then' needs '--timer'") }
            _ = try timerEnd()
            if let fade, let timer,
                try DurationParser.secondsOrValidationError(fade, "--fade")
                    > DurationParser.secondsOrValidationError(timer, "--timer")
            {
                throw ValidationError("'--fade' must not be longer than '--timer'")
            }
        }

        func timerEnd() throws -> PlaybackSession.TimerEnd {
            guard let then else { return .stop }
            guard let end = PlaybackSession.TimerEnd(rawValue: then.lowercased()) else {
                throw ValidationError("'--then' \(then) is not an action; use stop, suspend or poweroff")
            }
            return end
        }

        func run() throws {
            let settings = try output.parsed()
            var mix: Mix, label: String, presetID: String?
            if !source.isGiven {
                (mix, label, presetID) = try source.loadDefault(
                    sampleRate: Double(settings.sampleRate), store: storeOption.root)
            } else {
                (mix, label) = try source.load(sampleRate: Double(settings.sampleRate), store: storeOption.root)
                presetID = source.preset
            }
            if source.preset != nil, loudness.loudness == nil,
                let last = try? LastMixStore(root: storeOption.root).load().lastMix,
                last.mix.masterVolume != mix.masterVolume
            {
                // The master is the user's: a preset starts at the master of the Last Mix (presets
                // share one reference master, so the loudness matches the last session's).
                Terminal.printError(
                    """
                    Master \(percent(last.mix.masterVolume)) kept from the Last Mix (the preset's own is \
                    \(percent(mix.masterVolume)); '--loudness -23' plays at the reference).
                    """
                )
                mix.masterVolume = last.mix.masterVolume
            }
            if let note = try loudness.apply(
                to: &mix, sampleRate: Double(settings.sampleRate), channelCount: settings.channels)
            {
                Terminal.printError(note)
            }
            if let note = try hearingOptions.applyNotch(to: &mix, sampleRate: Double(settings.sampleRate)) {
                Terminal.printError(note)
            }
            let timerSeconds = try timer.map { try DurationParser.secondsOrValidationError($0, "--timer") }
            let fadeSeconds = min(
                try fade.map { try DurationParser.secondsOrValidationError($0, "--fade") } ?? 30,
                timerSeconds ?? .infinity)
            let session = PlaybackSession(
                mix: mix, label: label, presetID: presetID,
                seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)),
                settings: settings, store: storeOption.root, exclusive: exclusive,
                setsMaster: loudness.loudness != nil, timerEnd: try timerEnd(),
                hearing: try hearingOptions.choice(default: .auto))
            Terminal.installInterruptHandlers()
            try session.run(timerSeconds: timerSeconds, fadeSeconds: fadeSeconds)
        }
    }
}

/// Output flags shared by `play` (and later `resume`).
struct PlaybackOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            """
            auto (PulseAudio, then ALSA), pulse, alsa, or pipe:PATH (raw 16-bit frames to a FIFO in real time, for \
            a Snapcast server's pipe source).
            """
    )
    var output: String = "auto"

    @Option(name: .long, help: "PulseAudio sink or ALSA PCM name (see 'noise devices').")
    var device: String?

    @Option(name: .long, numeric: "Output buffer; a noise machine gains nothing from low latency.")
    var latency: String = "150ms"

    @Option(
        name: .long,
        numeric:
            """
            Fade-in at start, 0s…30m (default 3s); when a player already runs, the crossfade to '--preset' \
            (default 2s).
            """
    )
    var fadeIn: String?

    @Option(name: .long, numeric: "How long to keep retrying when the output goes away mid-play.")
    var retryFor: String = "30s"

    @Option(name: .long, numeric: "44100, 48000 or 96000.")
    var sampleRate: Int = 48000

    @Option(name: .long, numeric: "1 (mono) or 2 (stereo).")
    var channels: Int = 2

    @Flag(name: .long, help: "Do not offer media controls (MPRIS) on the session bus.")
    var noMpris = false

    @Flag(
        name: .long,
        help:
            """
            Do not hold systemd-logind's idle inhibitor while playing (by default the screen may still lock, but \
            the machine does not idle into suspend).
            """
    )
    var noInhibit = false

    struct Parsed {
        var backend: OutputBackend
        var device: String?
        var latencySeconds: Double
        var fadeInSeconds: Double
        /// `--fade-in` was given: a hand-over crossfades to the preset over it.
        var fadeInGiven = false
        var retrySeconds: Double
        var sampleRate: Int
        var channels: Int
        var mpris = true
        var inhibit = true
    }

    func parsed() throws -> Parsed {
        var backend: OutputBackend
        var device = device
        if output.hasPrefix("pipe:") {
            let path = String(output.dropFirst("pipe:".count))
            guard !path.isEmpty else {
                throw ValidationError("'--output pipe:PATH' needs the FIFO's path, e.g. pipe:/tmp/snapfifo")
            }
            guard self.device == nil else {
                throw ValidationError("'--device' does not go with '--output pipe:PATH' (the path is the device)")
            }
            backend = .pipe
            device = path
        } else if let named = OutputBackend(rawValue: output), named != .pipe {
            backend = named
        } else {
            throw ValidationError("'--output' \(output) is not a backend; use auto, pulse, alsa or pipe:PATH")
        }
        let latencySeconds = try DurationParser.secondsOrValidationError(latency, "--latency")
        guard (0.005...2).contains(latencySeconds) else {
            throw ValidationError("'--latency' must be between 5ms and 2s")
        }
        let fadeInSeconds = try DurationParser.secondsOrValidationError(fadeIn ?? "3s", "--fade-in")
        guard FadeLimits.fadeInSeconds.contains(fadeInSeconds) else {
            throw ValidationError("'--fade-in' \(fadeIn ?? "") is out of range; allowed 0s…\(FadeLimits.longestText)")
        }
        let retrySeconds = try DurationParser.secondsOrValidationError(retryFor, "--retry-for")
        guard retrySeconds <= 3600 else { throw ValidationError("'--retry-for' must be at most 1h") }
        guard [44100, 48000, 96000].contains(sampleRate) else {
            throw ValidationError("'--sample-rate' \(sampleRate) is not supported; use 44100, 48000 or 96000")
        }
        guard (1...2).contains(channels) else {
            throw ValidationError("'--channels' \(channels) is out of range; use 1 or 2")
        }
        var parsed = Parsed(
            backend: backend, device: device, latencySeconds: latencySeconds, fadeInSeconds: fadeInSeconds,
            retrySeconds: retrySeconds, sampleRate: sampleRate, channels: channels)
        parsed.fadeInGiven = fadeIn != nil
        parsed.mpris = !noMpris
        parsed.inhibit = !noInhibit
        return parsed
    }
}

extension DurationParser {
    static func secondsOrValidationError(_ text: String, _ flag: String) throws -> Double {
        do { return try seconds(text) } catch { throw ValidationError("'\(flag)': \(error)") }
    }
}
